// decode_fuzzer: bytes in an encoding -> UTF-8. Every kernel agrees; under
// the chosen kernel the cached, find_codec, by-name and C API paths agree,
// StreamDecoder with the chosen chunking equals one-shot decoding, the
// table model gives the same outcome (output, error kind, offset, quoted
// bytes, message), and a too-small buffer gives a prefix of the full result
// and is never written past (harness/core/checks.hpp).
#include "fuzz_case.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  fuzz::FuzzCase fc;
  if (!fuzz::parse(data, size, fc)) return 0;
  const Codec& c = *fc.codec;
  const std::string_view in = fc.input();
  auto require = [&](const harness::CheckResult& r) { fuzz::require("decode_fuzzer", data, size, r); };
  require(harness::check_kernels(c, true, fc.mode, in));
  require(fuzz::under_kernel(fc, [&]() -> harness::CheckResult {
    if (auto r = harness::check_paths(c, true, in)) return r;
    if (auto r = harness::check_streaming(c, in, fc.mode, fc.chunks)) return r;
    if (auto r = harness::check_model(c, true, in)) return r;
    return harness::check_buffers(c, true, fc.mode, in, fc.small);
  }));
  return 0;
}
