// The table of functions behind a Codec, one per family of encodings (as
// ICU's UConverterImpl): the families share code, each codec carries its own
// immutable data.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "kernels/kernels.hpp"
#include "pgcodec/codec.hpp"

namespace pgcodec::detail {

struct CodecOps {
  // `final == false` (streaming): a character cut off by the end of `in` is
  // not an error; conversion stops before it and the caller carries it over.
  Result (*decode)(const void* data, Encoding enc, std::string_view in, std::span<char> out,
                   ErrorMode mode, bool final, const kernels::Kernel& k) noexcept;
  Result (*encode)(const void* data, Encoding enc, std::string_view utf8, std::span<char> out,
                   ErrorMode mode, bool final, const kernels::Kernel& k) noexcept;
  std::size_t decode_factor;  // output bytes per input byte, at most, in any mode
  std::size_t encode_factor;
  bool implemented;
};

// Families (src/codecs/).
extern const CodecOps utf8_ops;         // UTF8 and SQL_ASCII
extern const CodecOps single_byte_ops;  // LATIN1..KOI8U
extern const CodecOps multibyte_ops;    // the 13 others
extern const CodecOps unimplemented_ops;

// Data of a single-byte codec; built from the generated tables.
const void* single_byte_data(Encoding e) noexcept;
// The mapping table of a multibyte encoding, or null.
const void* multibyte_data(Encoding e) noexcept;

// Builds an error at `at` in `in`: PostgreSQL quotes the character's bytes
// as its lead byte counts them, capped at what is left and at 8.
Error make_error(ErrorKind kind, Encoding bytes_enc, Encoding target, std::string_view in,
                 std::size_t at, std::size_t skip) noexcept;

}  // namespace pgcodec::detail
