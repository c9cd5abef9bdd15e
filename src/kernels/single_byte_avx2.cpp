// The single-byte family's bytes to code units with AVX2
// (Kernel::single_byte_units; the contract is in kernels/single_byte.hpp,
// the twin is the family's table loop in codecs/single_byte.cpp).
//
// AVX2 has no 128-entry permute (the AVX-512 kernel's vpermi2w), and its
// gathers issue a load a lane (slow on Zen 3: see pack_avx2.hpp). The
// upper half of the table is looked up with vpshufb instead, 16 entries at
// a time: for each high nibble 8..F of the byte, the low bytes and the high
// bytes of those 16 code points are two 16-byte tables, chosen by the low
// nibble and kept where the byte's high nibble is that one. Eight nibbles,
// two shuffles each, for 32 bytes; a block of ASCII skips them.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/single_byte.hpp"
#include "kernels/target.hpp"

#if defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>

namespace pgcodec::kernels {

namespace {

// The code points of bytes 0x80..0xFF split for vpshufb: for high nibble
// 8 + g, lo[g] and hi[g] hold the low and high bytes of the code points of
// the 16 bytes with that nibble, each repeated in both 128-bit lanes.
struct Nibbles {
  __m256i lo[8], hi[8];
};

PGCODEC_TARGET_AVX2 inline Nibbles nibbles_of(const char16_t* cp) {
  // Per 128-bit lane of 8 code points: their low bytes, then their high
  // bytes; then the two lanes' low halves together, and the high halves.
  const __m256i split = _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10,
                                         12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  Nibbles t;
  for (int g = 0; g < 8; ++g) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(cp + 128 + 16 * g));
    const __m256i z = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(x, split), 0xD8);
    t.lo[g] = _mm256_permute2x128_si256(z, z, 0x00);
    t.hi[g] = _mm256_permute2x128_si256(z, z, 0x11);
  }
  return t;
}

// Lanes where a > b, bytes unsigned.
PGCODEC_TARGET_AVX2 inline __m256i above(__m256i a, __m256i b) {
  return _mm256_andnot_si256(_mm256_cmpeq_epi8(_mm256_max_epu8(a, b), b), _mm256_set1_epi8(-1));
}

// Stores the first `count` units (count <= 32) of the 32 whose low bytes
// are lo and high bytes hi, as units of U bytes; all 32 straight to out
// when count is 32, else through a buffer (nothing past the units kept).
template <unsigned U>
PGCODEC_TARGET_AVX2 inline void store_units(void* out, __m256i lo, __m256i hi, unsigned count) {
  alignas(32) unsigned char buf[32 * U];
  unsigned char* to = count == 32 ? static_cast<unsigned char*>(out) : buf;
  if constexpr (U == 1) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), lo);
  } else {
    // Units 0-7 and 16-23, then 8-15 and 24-31 (unpack works within
    // 128-bit lanes), put in order.
    const __m256i a = _mm256_unpacklo_epi8(lo, hi), b = _mm256_unpackhi_epi8(lo, hi);
    const __m256i first = _mm256_permute2x128_si256(a, b, 0x20), second = _mm256_permute2x128_si256(a, b, 0x31);
    if constexpr (U == 2) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), first);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 32), second);
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm256_cvtepu16_epi32(_mm256_castsi256_si128(first)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 32),
                          _mm256_cvtepu16_epi32(_mm256_extracti128_si256(first, 1)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 64),
                          _mm256_cvtepu16_epi32(_mm256_castsi256_si128(second)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + 96),
                          _mm256_cvtepu16_epi32(_mm256_extracti128_si256(second, 1)));
    }
  }
  if (count < 32) std::memcpy(out, buf, count * U);
}

// Per 32 bytes (the last fewer from a copy padded with NUL, which stops
// the run where the text ends): the code points' low and high bytes (a
// byte below 0x80 is its own), a lane that is 0 (NUL, unmapped) or above
// the limit ends the run, and only the lanes before it are stored.
template <unsigned U>
PGCODEC_TARGET_AVX2 std::size_t units_loop(const char16_t* cp, const unsigned char* in, std::size_t n,
                                           void* out, char32_t limit) {
  const Nibbles t = nibbles_of(cp);
  const __m256i zero = _mm256_setzero_si256(), low_nibble = _mm256_set1_epi8(0x0F);
  const bool limited = limit < 0xFFFF;
  const __m256i lim_lo = _mm256_set1_epi8(static_cast<char>(limit & 0xFF)),
                lim_hi = _mm256_set1_epi8(static_cast<char>(limited ? limit >> 8 : 0xFF));
  std::size_t i = 0;
  while (i < n) {
    const std::size_t left = n - i;
    __m256i v;
    if (left >= 32) {
      v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    } else {
      alignas(32) unsigned char pad[32] = {};
      std::memcpy(pad, in + i, left);
      v = _mm256_load_si256(reinterpret_cast<const __m256i*>(pad));
    }
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(v));
    __m256i lo = v, hi = zero;
    if (high) {
      const __m256i index = _mm256_and_si256(v, low_nibble);
      const __m256i nibble = _mm256_and_si256(_mm256_srli_epi16(v, 4), low_nibble);
      for (int g = 0; g < 8; ++g) {
        const __m256i here = _mm256_cmpeq_epi8(nibble, _mm256_set1_epi8(static_cast<char>(8 + g)));
        lo = _mm256_blendv_epi8(lo, _mm256_shuffle_epi8(t.lo[g], index), here);
        hi = _mm256_blendv_epi8(hi, _mm256_shuffle_epi8(t.hi[g], index), here);
      }
    }
    // 0: both bytes 0. Above the limit: the high byte above the limit's,
    // or equal and the low byte above.
    __m256i bad = _mm256_cmpeq_epi8(_mm256_or_si256(lo, hi), zero);
    if (limited)
      bad = _mm256_or_si256(bad, _mm256_or_si256(above(hi, lim_hi), _mm256_and_si256(_mm256_cmpeq_epi8(hi, lim_hi),
                                                                                     above(lo, lim_lo))));
    const auto stop = static_cast<std::uint32_t>(_mm256_movemask_epi8(bad));
    // (In a padded block the padding's first NUL stops it at the latest.)
    const unsigned kept = stop ? static_cast<unsigned>(__builtin_ctz(stop)) : 32u;
    store_units<U>(static_cast<char*>(out) + i * U, lo, hi, kept);
    i += kept;
    if (kept < 32) return i;
  }
  return i;
}

}  // namespace

PGCODEC_TARGET_AVX2 std::size_t single_byte_units_avx2(const char16_t* code_point, const unsigned char* in,
                                                       std::size_t n, void* out, unsigned unit,
                                                       char32_t limit) noexcept {
  switch (unit) {
    case 1: return units_loop<1>(code_point, in, n, out, limit);
    case 2: return units_loop<2>(code_point, in, n, out, limit);
    default: return units_loop<4>(code_point, in, n, out, limit);
  }
}

}  // namespace pgcodec::kernels

#endif
