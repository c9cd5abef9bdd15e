// python_fuzzer: pgcodec against the embedded CPython's codecs the drivers
// choose for the encoding (oracle/names: psycopg 3's, psycopg2's, asyncpg's
// and the others), modulo the divergence registry.
#include "oracle/python.hpp"
#include "reference_fuzzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  return fuzz::run_reference("python_fuzzer", data, size, [](Encoding e) {
    std::vector<oracle::ReferenceSubject> v;
    for (const oracle::PythonChoice& c : oracle::python_choices(e))
      v.push_back({e, oracle::python_reference(c.codec)->name(), c.codec});
    return v;
  });
}
