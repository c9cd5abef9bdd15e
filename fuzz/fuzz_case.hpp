// What every fuzz target does with libFuzzer's bytes, simdutf-style: the
// first four bytes choose the encoding, the direction, the error mode, the
// kernel, the stream chunking and a small output capacity; the rest is the
// input, copied into an allocation of exactly its size so that AddressSanitizer
// sees a read one byte past it.
//
//   byte 0  encoding id, modulo 42
//   byte 1  bit 0: Replace mode; bit 1: encode (else decode); bits 2-4: the
//           kernel, modulo the number kernels::available() lists
//   byte 2  stream chunk sizes: low nibble, high nibble, cycled (0 0: one chunk)
//   byte 3  the small output capacity, modulo the full output's size + 1
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/checks.hpp"
#include "pgcodec/codec.hpp"

namespace pgcodec::fuzz {

inline constexpr std::size_t kHeader = 4;

struct FuzzCase {
  const Codec* codec = nullptr;
  bool decoding = true;
  ErrorMode mode = ErrorMode::Strict;
  std::size_t kernel = 0;  // index into kernels::available()
  std::vector<std::size_t> chunks;
  std::size_t small = 0;
  std::unique_ptr<char[]> data;  // exactly `size` bytes
  std::size_t size = 0;
  std::string_view input() const { return {data.get(), size}; }
};

// Reads the header; false when the input is shorter than it.
bool parse(const std::uint8_t* bytes, std::size_t n, FuzzCase& out);

// Runs `check` under the case's kernel, restoring the active one.
harness::CheckResult under_kernel(const FuzzCase& fc, const std::function<harness::CheckResult()>& check);

// Reports a failed check and aborts: the target, the case in words, the
// input in hex, and, when PGCODEC_FUZZ_REGRESSION is set in the
// environment, the shell lines that add the input to
// corpus/regressions/fuzz/<target>/ (which ctest replays).
[[noreturn]] void fail(const char* target, const std::uint8_t* bytes, std::size_t n, const std::string& what);
// The same check-and-report for one result.
inline void require(const char* target, const std::uint8_t* bytes, std::size_t n,
                    const harness::CheckResult& r) {
  if (r) fail(target, bytes, n, *r);
}

// The file name an input is kept under: 16 hex digits of a hash (FNV-1a)
// of its bytes, stable across runs and machines.
std::string input_name(std::string_view bytes);

// The body of a target: parses the header (too short an input is skipped)
// and runs `check(case, codec, input)`, reporting its failure as fail() does.
template <class Check>
int run(const char* target, const std::uint8_t* data, std::size_t size, Check check) {
  FuzzCase fc;
  if (!parse(data, size, fc)) return 0;
  require(target, data, size, check(fc, *fc.codec, fc.input()));
  return 0;
}

// A description of the case: "SJIS decode Replace sse2 chunks 3,1 small 7".
std::string describe(const FuzzCase& fc);

}  // namespace pgcodec::fuzz
