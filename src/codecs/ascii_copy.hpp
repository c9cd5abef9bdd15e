// ASCII inside the families' conversion loops. Every encoding passes bytes
// 0x01..0x7F through unchanged, and real text mixes them with everything
// else in runs of a few bytes (a space between two words, a digit, a comma):
// such a run costs no call here. Runs of 8 bytes or more go on through the
// kernel's ascii_run (SIMD), whose call is then paid for.
//
// The scalar kernel (k.table_shortcuts false) keeps the plain path: one
// k.ascii_run call per run and a memcpy, the twin the fast path is compared
// with by every per-kernel test, property and fuzz target.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "kernels/kernels.hpp"

namespace pgcodec::detail {

// The high bit of each byte of x that is not 0x01..0x7F: set when the byte
// has it, or when it is zero (x - 1 borrows: 0xFF). A borrow runs on only
// from a zero byte, so bytes above the first zero may be marked wrongly,
// never the first; 0 exactly when all 8 are 0x01..0x7F.
inline std::uint64_t not_ascii_bits(std::uint64_t x) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  return (x | ((x - kOnes) & ~x)) & kHighs;
}

// Whether the 32 bytes at p are all 0x01..0x7F.
inline bool ascii32(const unsigned char* p) noexcept {
  std::uint64_t x[4];
  std::memcpy(x, p, 32);
  return (not_ascii_bits(x[0]) | not_ascii_bits(x[1]) | not_ascii_bits(x[2]) | not_ascii_bits(x[3])) == 0;
}

// How many of the 8 bytes at p, from the first, are 0x01..0x7F (8: all).
inline std::size_t ascii_prefix8(const unsigned char* p) noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::uint64_t x;
  std::memcpy(&x, p, 8);
  const std::uint64_t stop = not_ascii_bits(x);
  return stop ? static_cast<std::size_t>(__builtin_ctzll(stop)) >> 3 : 8;
#else
  std::size_t i = 0;
  while (i < 8 && p[i] - 1u < 0x7Fu) ++i;
  return i;
#endif
}

// Copies n bytes (n small, often 1) without a library call and without
// storing anything past dst + n.
inline void copy_short(char* dst, const unsigned char* src, std::size_t n) noexcept {
  if (n >= 8) {
    if (n > 16) {
      std::memcpy(dst, src, n);
      return;
    }
    std::memcpy(dst, src, 8);  // two stores that may overlap
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else if (n >= 2) {
    std::memcpy(dst, src, 2);
    std::memcpy(dst + n - 2, src + n - 2, 2);
  } else if (n) {
    *dst = static_cast<char>(*src);
  }
}

// Copies src[0, n) to dst up to the first NUL and returns how many bytes
// it copied (n: none). One pass, 64 bytes at a time with SSE2 (every
// x86-64 has it): a memchr and then a memcpy would read the input twice.
// LATIN1, the identity on 01..FF, is this copy both ways.
inline std::size_t copy_until_nul(const unsigned char* src, unsigned char* dst, std::size_t n) noexcept {
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; n - i >= 64; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    const __m128i z = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(a, zero), _mm_cmpeq_epi8(b, zero)),
                                   _mm_or_si128(_mm_cmpeq_epi8(c, zero), _mm_cmpeq_epi8(d, zero)));
    if (_mm_movemask_epi8(z)) break;  // a NUL in these 64: the tail finds it
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
#endif
  const void* nul = std::memchr(src + i, 0, n - i);
  const std::size_t run = nul ? static_cast<std::size_t>(static_cast<const unsigned char*>(nul) - src) : n;
  if (run > i) std::memcpy(dst + i, src + i, run - i);
  return run;
}

// The same through kernel k's copy where it has one (AVX2, AVX-512), at any
// length. (Long runs went 8 KiB at a time through the C library's memchr and
// memcpy while the AVX-512 loop was masked 64 bytes at a time; unrolled to
// 256 bytes it is as fast as memcpy alone, the chunks 1.3 times slower:
// LATIN1 decode_units, 64 KiB 843 ns against 1,106, memcpy 848; 1 MiB
// 20.3 us against 23.3, memcpy 20.0.)
inline std::size_t copy_until_nul(const kernels::Kernel& k, const unsigned char* src, unsigned char* dst,
                                  std::size_t n) noexcept {
  return k.copy_until_nul ? k.copy_until_nul(src, dst, n) : copy_until_nul(src, dst, n);
}

// Copies the run of bytes 0x01..0x7F at in[i] (at least one) to out[w] as far
// as it fits in cap, advancing i and w; false when the output filled up
// before the run ended.
inline bool copy_ascii(const kernels::Kernel& k, const unsigned char* in, std::size_t n,
                       std::size_t& i, char* out, std::size_t cap, std::size_t& w) noexcept {
  std::size_t run;
  if (!k.table_shortcuts) {
    run = k.ascii_run(in + i, n - i);
  } else if (n - i >= 8) {
    run = ascii_prefix8(in + i);
    if (run == 8 && n - i > 8) run += k.ascii_run(in + i + 8, n - i - 8);
  } else {
    run = 1;
    while (i + run < n && in[i + run] - 1u < 0x7Fu) ++run;
  }
  const std::size_t room = cap - w;
  const std::size_t take = run < room ? run : room;
  if (k.table_shortcuts) {
    copy_short(out + w, in + i, take);
  } else if (take) {
    std::memcpy(out + w, in + i, take);
  }
  i += take;
  w += take;
  return take == run;
}

}  // namespace pgcodec::detail
