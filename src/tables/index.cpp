// Bootstrap placeholder; tools/gentables overwrites this file.
#include "tables/table.hpp"

namespace pgcodec::detail {
const MappingTable* mapping_table(Encoding) noexcept { return nullptr; }
}  // namespace pgcodec::detail
