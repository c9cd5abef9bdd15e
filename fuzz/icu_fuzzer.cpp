// icu_fuzzer: pgcodec against ICU's converter for the encoding
// (oracle/names), modulo the divergence registry.
#include "reference_fuzzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  return fuzz::run_reference("icu_fuzzer", data, size, [](Encoding e) {
    std::vector<oracle::ReferenceSubject> v;
    if (auto icu = oracle::icu_reference(e)) v.push_back({e, icu->name(), ""});
    return v;
  });
}
