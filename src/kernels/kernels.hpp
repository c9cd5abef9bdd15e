// The kernels: every implementation of the codecs' inner loops, as a list (as
// simdutf's get_available_implementations()). The scalar kernel comes first
// and is the plain twin of every fast path; the others follow in order of
// preference. Tests, properties, fuzzers and benchmarks run every entry of
// available(); conversions use active().
//
// PGCODEC_FORCE_IMPL=<name> picks the kernel active() starts with. It is read
// once, here and nowhere else. A name that is not in available() (a typo, or
// "sse2" on a machine without it) is reported on stderr and aborts the
// process at the first conversion: running the wrong kernel silently is what
// the variable exists to prevent.
//
// The SIMD kernels are hand-written intrinsics, each function compiled for
// its ISA with __attribute__((target(...))) and listed only when
// __builtin_cpu_supports says the CPU has it, so the library still runs on
// baseline x86-64. Not Google Highway: the library links the C++ standard
// library only, and the two loops here are small enough to write per ISA.
#pragma once

#include <atomic>
#include <cstddef>
#include <span>
#include <string_view>

#include "kernels/single_byte.hpp"
#include "kernels/two_byte.hpp"
#include "kernels/utf8_units.hpp"

namespace pgcodec::kernels {

// Length of the run of bytes 0x01..0x7F at the start of [p, p + n): the part
// every encoding passes through unchanged.
using AsciiRunFn = std::size_t (*)(const unsigned char* p, std::size_t n) noexcept;

// Length of the longest prefix of [p, p + n) made of complete characters
// that PostgreSQL's pg_utf8_islegal() accepts (shortest form only, no
// surrogates, nothing above U+10FFFF), with NUL (0x00) ending the run too.
// A character cut off by p + n does not count. Never reads outside [p, p + n).
using Utf8ValidRunFn = std::size_t (*)(const unsigned char* p, std::size_t n) noexcept;

// Copies [src, src + n) to dst up to the first NUL (LATIN1, the identity on
// 01..FF); returns how many bytes it copied. Never reads past src + n nor
// writes past dst + the returned length.
using CopyUntilNulFn = std::size_t (*)(const unsigned char* src, unsigned char* dst, std::size_t n) noexcept;

struct Kernel {
  const char* name;  // "scalar", "sse2", "avx2", "avx512": also the PGCODEC_FORCE_IMPL value
  AsciiRunFn ascii_run;
  Utf8ValidRunFn utf8_valid_run;
  // The multibyte codecs' two-byte shortcuts: a two-byte code with a table
  // entry is decoded, and a three-byte UTF-8 character encoded to a two-byte
  // code, without the general grammar check (same results, fewer branches).
  bool table_shortcuts;
  // The single-byte family's block kernels (kernels/single_byte.hpp): 64
  // bytes at a time where every character is ASCII or two bytes of UTF-8.
  // Null where the kernel has none (the family then goes byte by byte).
  SingleByteDecodeFn single_byte_decode = nullptr;
  SingleByteEncodeFn single_byte_encode = nullptr;
  // UTF-8 to and from 16-bit units, a block at a time
  // (kernels/utf8_units.hpp). Null where the kernel has none: the UTF-8
  // codec's character loops then do it all.
  Utf8To16Fn utf8_to_units16 = nullptr;
  Units16ToUtf8Fn units16_to_utf8 = nullptr;
  // LATIN1's copy (codecs/ascii_copy.hpp's copy_until_nul is the twin every
  // kernel without one uses).
  CopyUntilNulFn copy_until_nul = nullptr;
  // The single-byte family's bytes to code units, 32 at a time
  // (kernels/single_byte.hpp). Null: its table loop goes byte by byte.
  SingleByteUnitsFn single_byte_units = nullptr;
  // Any UTF-8 to and from 32-bit units, a block at a time
  // (kernels/utf8_units.hpp). Null: the UTF-8 codec's character loops do it.
  Utf8To32Fn utf8_to_units32 = nullptr;
  Units32ToUtf8Fn units32_to_utf8 = nullptr;
  // The multibyte family's ASCII, single and two-byte characters, 64 bytes
  // at a time (kernels/two_byte.hpp). Null: the family's loops
  // (codecs/multibyte.cpp) do them.
  TwoByteDecodeFn two_byte_decode = nullptr;
  // And their encoding from code units, 32 at a time. Null: the family's
  // encode loop does it.
  TwoByteEncodeFn two_byte_encode = nullptr;
  // Whether two_byte_decode reads TwoByteTables::pair_values and
  // two_byte_encode TwoByteEncodeTables::bmp: the family builds them (64
  // and 128 KiB an encoding, on first use) only for a kernel that does.
  bool two_byte_flat_tables = false;
  // GB18030's ASCII and four-byte codes (its supplementary run's and the
  // BMP's), to 32-bit units (kernels/two_byte.hpp). Null: the family's
  // four-byte loop does them.
  Gb18030RunDecodeFn gb18030_run_decode = nullptr;
};

// Scalar first, then the SIMD kernels this build and this CPU can run, in
// order of preference: sse2, avx2 (AVX2), avx512 (AVX-512F and BW, and
// AVX2; with VBMI and VBMI2 also the single-byte block kernels). Built
// once, on the first call (thread-safe, no allocation).
std::span<const Kernel> available() noexcept;
// The entry of available() called `name`, or nullptr.
const Kernel* find(std::string_view name) noexcept;

}  // namespace pgcodec::kernels

namespace pgcodec::detail {
// Null until the first conversion (or set_active) chooses.
extern std::atomic<const kernels::Kernel*> active_kernel;
const kernels::Kernel& resolve_active_kernel() noexcept;
}  // namespace pgcodec::detail

namespace pgcodec::kernels {

// The kernel conversions use: one pointer load per conversion.
inline const Kernel& active() noexcept {
  if (const Kernel* k = detail::active_kernel.load(std::memory_order_relaxed)) return *k;
  return detail::resolve_active_kernel();
}

// For tests and benchmarks: makes `k` (an entry of available()) the active
// kernel. Not for use while another thread converts: a conversion already
// running keeps the kernel it started with, but nothing orders the switch
// against conversions starting on other threads.
void set_active(const Kernel& k) noexcept;

}  // namespace pgcodec::kernels
