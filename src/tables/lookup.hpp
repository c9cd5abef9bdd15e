// One-character lookups in a generated mapping table (see table.hpp).
#pragma once

#include <cstdint>

#include "tables/table.hpp"

namespace pgcodec::detail {

// Each returns false when there is no mapping. lookup_decode sets cp2 to 0
// unless the code decodes to two code points.
bool lookup_decode(const MappingTable& t, std::uint32_t code, std::uint32_t& cp1,
                   std::uint32_t& cp2);
bool lookup_encode(const MappingTable& t, std::uint32_t cp, std::uint32_t& code);
bool lookup_encode_pair(const MappingTable& t, std::uint32_t cp1, std::uint32_t cp2,
                        std::uint32_t& code);

}  // namespace pgcodec::detail
