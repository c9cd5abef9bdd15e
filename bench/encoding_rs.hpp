// Mozilla's encoding_rs (the WHATWG Encoding Standard, Firefox's converters)
// as a peer of pgcodec_bench, when the build has it: bench/CMakeLists.txt
// builds the Rust crate in bench/encoding_rs/ offline from Debian's
// librust-encoding-rs-dev and defines PGCODEC_BENCH_HAVE_ENCODING_RS; this
// file's definitions (encoding_rs.cpp) exist only then.
//
// What is timed: one call of EncodingRs, i.e. a Decoder or Encoder made on
// the stack and one strict conversion into the caller's buffer (decode:
// Decoder::decode_to_utf8_without_replacement, no BOM handling; encode:
// UTF-8 validation with Encoding::utf8_valid_up_to, then
// Encoder::encode_from_utf8_without_replacement), both with last = true. No
// allocation. encoding_rs is built without simd-accel (Debian drops it), with
// fast-legacy-encode (the CJK encoders' lookup tables), at opt-level 3 with
// LTO and the default x86-64 target.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"

namespace pgbench {

// The WHATWG labels naming an encoding that converts `e`'s text as
// PostgreSQL does, as far as the Encoding Standard has it; empty: no peer.
// A superset stands in where the standard has only that (EUC_KR and UHC:
// euc-kr, which is windows-949; EUC_CN: gb2312, which is GBK): it accepts
// more bytes; the differences that remain are listed in encoding_rs.cpp.
std::vector<std::string> encoding_rs_names(Encoding e);

// Same contract as Iconv: bytes written, or kFailed (malformed input,
// unmappable character, `out` too small).
class EncodingRs {
 public:
  EncodingRs(Dir dir, const std::string& label) noexcept;
  bool ok() const noexcept { return enc_ != nullptr; }
  std::size_t operator()(std::string_view in, std::span<char> out) const noexcept;

 private:
  Dir dir_;
  const void* enc_;  // encoding_rs's &'static Encoding, or null
};

}  // namespace pgbench
