// check_fuzzer: the iterate-all-errors path (for_each_*_error) against
// repeated strict conversion and the model, Replace mode against the
// model's replacement of those errors, char_length at every well-formed
// position against the model's grammar, and the C API's null pointers and
// zero capacities.
#include "fuzz_case.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  return fuzz::run("check_fuzzer", data, size,
                   [](const fuzz::FuzzCase& fc, const Codec& c, std::string_view in) -> harness::CheckResult {
    return fuzz::under_kernel(fc, [&]() -> harness::CheckResult {
      if (auto r = harness::check_errors(c, fc.decoding, in)) return r;
      if (auto r = harness::check_replace(c, fc.decoding, in)) return r;
      if (auto r = harness::check_char_length(c, in)) return r;
      if (auto r = harness::check_char_pieces(c, in)) return r;
      return harness::check_c_api_edges(c, fc.decoding, fc.mode, in);
    });
  });
}
