// decode_fuzzer: bytes in an encoding -> UTF-8. Every kernel agrees; under
// the chosen kernel the cached, find_codec, by-name and C API paths agree,
// StreamDecoder with the chosen chunking equals one-shot decoding, the
// table model gives the same outcome (output, error kind, offset, quoted
// bytes, message), a too-small buffer gives a prefix of the full result
// and is never written past, the code-unit paths (decode_units) equal the
// UTF-8 path, and the C API returns every field as the C++ API does
// (harness/core/checks.hpp).
#include "fuzz_case.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  return fuzz::run("decode_fuzzer", data, size,
                   [](const fuzz::FuzzCase& fc, const Codec& c, std::string_view in) -> harness::CheckResult {
    if (auto r = harness::check_kernels(c, true, fc.mode, in)) return r;
    return fuzz::under_kernel(fc, [&]() -> harness::CheckResult {
      if (auto r = harness::check_paths(c, true, in)) return r;
      if (auto r = harness::check_streaming(c, in, fc.mode, fc.chunks)) return r;
      if (auto r = harness::check_model(c, true, in)) return r;
      if (auto r = harness::check_buffers(c, true, fc.mode, in, fc.small)) return r;
      if (auto r = harness::check_units(c, true, fc.mode, in, fc.small)) return r;
      return harness::check_c_api_fields(c, true, fc.mode, in, fc.chunks, fc.small);
    });
  });
}
