// The single-byte family's bytes to code units with AVX2
// (Kernel::single_byte_units; the contract is in kernels/single_byte.hpp,
// the twin is the family's table loop in codecs/single_byte.cpp).
//
// AVX2 has no 128-entry permute (the AVX-512 kernel's vpermi2w), and its
// gathers issue a load a lane (slow on Zen 3: see pack_avx2.hpp). The
// upper half of the table is looked up with vpshufb instead, 16 entries at
// a time, the low bytes and the high bytes of the code points apart. With
// x = byte - 0x80 (signed: ASCII is negative), the g-th shuffle takes the
// index x - 16g, saturated: it looks up the low nibble where that is in
// 0..127, that is for a byte whose high nibble is 8 + g or above, and gives
// 0 elsewhere (bit 7 set). A byte of high nibble 8 + h so meets the tables
// 0..h; stored as each nibble's entries XOR the nibble's before, the XOR of
// what it meets is its own entry. Eight shuffles a half, XOR between them
// (four pipes on Zen 3, where the blend that kept one nibble's lanes had
// two): 32 bytes; a block of ASCII skips them.
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
// the 16 bytes with that nibble, XOR those of nibble 8 + g - 1 (none for
// g = 0), each repeated in both 128-bit lanes.
struct Nibbles {
  __m256i lo[8], hi[8];
};

PGCODEC_TARGET_AVX2 inline Nibbles nibbles_of(const char16_t* cp) {
  // Per 128-bit lane of 8 code points: their low bytes, then their high
  // bytes; then the two lanes' low halves together, and the high halves.
  const __m256i split = _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10,
                                         12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  Nibbles t;
  __m256i prev_lo = _mm256_setzero_si256(), prev_hi = _mm256_setzero_si256();
  for (int g = 0; g < 8; ++g) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(cp + 128 + 16 * g));
    const __m256i z = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(x, split), 0xD8);
    const __m256i lo = _mm256_permute2x128_si256(z, z, 0x00), hi = _mm256_permute2x128_si256(z, z, 0x11);
    t.lo[g] = _mm256_xor_si256(lo, prev_lo);
    t.hi[g] = _mm256_xor_si256(hi, prev_hi);
    prev_lo = lo;
    prev_hi = hi;
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

// One block of 32 bytes: the code points' low and high bytes (a byte
// below 0x80 is its own) and the lanes that end the run (0: NUL or
// unmapped; or above the limit).
struct Block {
  __m256i lo, hi;
  std::uint32_t stop;
};

struct Lookup {
  Nibbles t;
  __m256i lim_lo, lim_hi;
  bool limited;
};

PGCODEC_TARGET_AVX2 inline Block convert(const Lookup& k, __m256i v) {
  const __m256i zero = _mm256_setzero_si256();
  __m256i lo = v, hi = zero;
  if (_mm256_movemask_epi8(v)) {
    const __m256i x = _mm256_xor_si256(v, _mm256_set1_epi8(static_cast<char>(0x80)));
    const __m256i sixteen = _mm256_set1_epi8(16);
    lo = _mm256_and_si256(v, _mm256_cmpgt_epi8(v, _mm256_set1_epi8(-1)));  // ASCII lanes: the byte; others 0
    __m256i index = x;
    // Unrolled: as a loop, GCC 12 kept g and built its constant each turn
    // (0.28 ns a byte against 0.17).
#pragma GCC unroll 8
    for (int g = 0; g < 8; ++g) {
      lo = _mm256_xor_si256(lo, _mm256_shuffle_epi8(k.t.lo[g], index));
      hi = _mm256_xor_si256(hi, _mm256_shuffle_epi8(k.t.hi[g], index));
      index = _mm256_subs_epi8(index, sixteen);
    }
  }
  // 0: both bytes 0. Above the limit: the high byte above the limit's, or
  // equal and the low byte above.
  __m256i bad = _mm256_cmpeq_epi8(_mm256_or_si256(lo, hi), zero);
  if (k.limited)
    bad = _mm256_or_si256(bad, _mm256_or_si256(above(hi, k.lim_hi),
                                               _mm256_and_si256(_mm256_cmpeq_epi8(hi, k.lim_hi), above(lo, k.lim_lo))));
  return {lo, hi, static_cast<std::uint32_t>(_mm256_movemask_epi8(bad))};
}

// Whole blocks of 32 bytes, each stored whole unless it ends the run: the
// next block's position does not wait for this one's lookup (a position
// advanced by the count each block kept chained every block's loads to
// the one before: about 30 cycles a block on Zen 3, 0.30 ns a byte). The
// last fewer bytes: as the block that ends at n when there is one (its
// lanes before i are stored again, the same), else from a copy padded with
// NUL, which stops the run where the text ends.
template <unsigned U>
PGCODEC_TARGET_AVX2 std::size_t units_loop(const char16_t* cp, const unsigned char* in, std::size_t n,
                                           void* out, char32_t limit) {
  const bool limited = limit < 0xFFFF;
  const Lookup k{nibbles_of(cp), _mm256_set1_epi8(static_cast<char>(limit & 0xFF)),
                 _mm256_set1_epi8(static_cast<char>(limited ? limit >> 8 : 0xFF)), limited};
  auto* o = static_cast<char*>(out);
  std::size_t i = 0;
  for (; n - i >= 32; i += 32) {
    const Block b = convert(k, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i)));
    if (b.stop) {
      const auto kept = static_cast<unsigned>(__builtin_ctz(b.stop));
      store_units<U>(o + i * U, b.lo, b.hi, kept);
      return i + kept;
    }
    store_units<U>(o + i * U, b.lo, b.hi, 32);
  }
  if (i == n) return n;
  const std::size_t left = n - i;
  if (n >= 32) {
    const Block b = convert(k, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + n - 32)));
    if (!(b.stop >> (32 - left))) {
      store_units<U>(o + (n - 32) * U, b.lo, b.hi, 32);
      return n;
    }
  }
  alignas(32) unsigned char pad[32] = {};
  std::memcpy(pad, in + i, left);
  const Block b = convert(k, _mm256_load_si256(reinterpret_cast<const __m256i*>(pad)));
  // (The padding's first NUL stops it at the latest.)
  const auto kept = static_cast<unsigned>(__builtin_ctz(b.stop));
  store_units<U>(o + i * U, b.lo, b.hi, kept);
  return i + kept;
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
