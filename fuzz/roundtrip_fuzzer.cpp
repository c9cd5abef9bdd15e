// roundtrip_fuzzer: decode -> encode -> decode. Bytes that decode encode
// back to themselves, and text that encodes decodes back to itself, except
// where the tables say otherwise: one-way and non-injective mappings,
// combined characters, and the bytes PostgreSQL writes but cannot read
// (core/generators.hpp Repertoire, enumerated from the tables).
#include "core/model.hpp"
#include "fuzz_case.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  return fuzz::run("roundtrip_fuzzer", data, size,
                   [](const fuzz::FuzzCase& fc, const Codec& c, std::string_view in) -> harness::CheckResult {
    const harness::TableModel& m = harness::model(c.encoding());
    return fuzz::under_kernel(fc, [&]() -> harness::CheckResult {
      // The input as bytes in the encoding: decode, encode, decode.
      if (auto r = harness::check_round_trip_bytes(c, in, /*must_decode=*/false)) return r;
      const harness::ClientRun text = m.client_decode(in);
      if (text.strict.ok() && m.client_encode(text.strict.output).strict.ok())
        if (auto r = harness::check_round_trip_text(c, text.strict.output)) return r;
      // The input as UTF-8 text the encoding can encode.
      if (m.client_encode(in).strict.ok()) return harness::check_round_trip_text(c, in);
      return {};
    });
  });
}
