// encode_fuzzer: UTF-8 (invalid UTF-8 included) -> an encoding. Every
// kernel agrees; under the chosen kernel the four call paths agree, the
// table model gives the same outcome (output, error kind, offset, quoted
// bytes, message, combined-character lookahead), chunks through
// encode_partial equal one-shot encoding (holding back no more than
// its rule allows), a too-small buffer gives a prefix of the full result
// and is never written past, the code-unit paths (decode_units /
// encode_units) equal the UTF-8 path, and the C API returns every field as
// the C++ API does.
#include "fuzz_case.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  return fuzz::run("encode_fuzzer", data, size,
                   [](const fuzz::FuzzCase& fc, const Codec& c, std::string_view in) -> harness::CheckResult {
    if (auto r = harness::check_kernels(c, false, fc.mode, in)) return r;
    return fuzz::under_kernel(fc, [&]() -> harness::CheckResult {
      if (auto r = harness::check_paths(c, false, in)) return r;
      if (auto r = harness::check_streaming_encode(c, in, fc.mode, fc.chunks)) return r;
      if (auto r = harness::check_model(c, false, in)) return r;
      if (auto r = harness::check_buffers(c, false, fc.mode, in, fc.small)) return r;
      if (auto r = harness::check_units(c, false, fc.mode, in, fc.small)) return r;
      return harness::check_c_api_fields(c, false, fc.mode, in, fc.chunks, fc.small);
    });
  });
}
