// encode_fuzzer: UTF-8 (invalid UTF-8 included) -> an encoding. Every
// kernel agrees; under the chosen kernel the four call paths agree, the
// table model gives the same outcome (output, error kind, offset, quoted
// bytes, message, combined-character lookahead), and a too-small buffer
// gives a prefix of the full result and is never written past.
#include "fuzz_case.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  fuzz::FuzzCase fc;
  if (!fuzz::parse(data, size, fc)) return 0;
  const Codec& c = *fc.codec;
  const std::string_view in = fc.input();
  auto require = [&](const harness::CheckResult& r) { fuzz::require("encode_fuzzer", data, size, r); };
  require(harness::check_kernels(c, false, fc.mode, in));
  require(fuzz::under_kernel(fc, [&]() -> harness::CheckResult {
    if (auto r = harness::check_paths(c, false, in)) return r;
    if (auto r = harness::check_model(c, false, in)) return r;
    return harness::check_buffers(c, false, fc.mode, in, fc.small);
  }));
  return 0;
}
