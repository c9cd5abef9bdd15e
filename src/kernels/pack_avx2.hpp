// AVX2 lane packing shared by the AVX2 kernels (utf8_units.cpp,
// two_byte_avx2.cpp, gb18030_avx2.cpp): AVX2 has no vpcompress, so lanes
// are moved to the front by tables of shuffle controls keyed by a mask;
// code points in 32-bit lanes to their UTF-8; 16-bit table entries read
// with a gather; and a copy that stores nothing past its end.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/target.hpp"

#if defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>

namespace pgcodec::kernels {

// Shuffle tables keyed by an 8-bit mask: for each key, the vpshufb control
// that lays out one after another, in lane order, the first len(key, lane)
// bytes of each of `Lanes` lanes of `LaneBytes` bytes (the rest of the
// control 0x80: zeroed), and how many bytes that is. One builder for every
// table the AVX2 kernels pack with.
template <std::size_t Width>
struct PackTable {
  alignas(Width) unsigned char shuffle[256][Width];
  unsigned char count[256];
};

template <std::size_t Width, unsigned Lanes, unsigned LaneBytes, class Len>
constexpr PackTable<Width> make_pack(Len len) {
  PackTable<Width> t{};
  for (unsigned key = 0; key < 256; ++key) {
    unsigned k = 0;
    for (unsigned lane = 0; lane < Lanes; ++lane)
      for (unsigned b = 0; b < len(key, lane); ++b) t.shuffle[key][k++] = static_cast<unsigned char>(LaneBytes * lane + b);
    t.count[key] = static_cast<unsigned char>(k);
    for (unsigned b = k; b < Width; ++b) t.shuffle[key][b] = 0x80;
  }
  return t;
}

// The positions of the mask's set bits in order (a vpshufb control that
// moves the bytes whose bit is set to the front, or, widened, vpermd
// indices that move 32-bit lanes likewise), and how many bits are set (a
// bit count, without the popcnt instruction the AVX2 target does not
// imply).
inline constexpr PackTable<8> kPack8 =
    make_pack<8, 8, 1>([](unsigned m, unsigned lane) { return (m >> lane) & 1u; });


// table[idx] (16 bits) for the lanes of `mask`, 0 in the others: a 32-bit
// gather that ends at the entry (it starts at the one before, so that the
// last entry of a table is never read past); idx 0, which has no entry
// before it, from table[0].
PGCODEC_TARGET_AVX2 inline __m256i gather_u16(const std::uint16_t* table, __m256i idx, __m256i mask) noexcept {
  const __m256i first = _mm256_and_si256(mask, _mm256_cmpeq_epi32(idx, _mm256_setzero_si256()));
  const __m256i pairs =
      _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(table),
                                  _mm256_sub_epi32(idx, _mm256_set1_epi32(1)), _mm256_andnot_si256(first, mask), 2);
  return _mm256_or_si256(_mm256_srli_epi32(pairs, 16), _mm256_and_si256(first, _mm256_set1_epi32(table[0])));
}

// table[idx] (16 bits) for each of the 8 lanes, every lane's idx an entry
// of the table, read with scalar loads: where most lanes need their entry,
// they take fewer cycles than vpgatherdd on AVX2-only parts (Zen 3: the
// gather issues a load a lane, and its result waits for all of them).
PGCODEC_TARGET_AVX2 inline __m256i load_u16(const std::uint16_t* table, __m256i idx) noexcept {
  alignas(32) std::uint32_t at[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(at), idx);
  return _mm256_setr_epi32(table[at[0]], table[at[1]], table[at[2]], table[at[3]], table[at[4]], table[at[5]],
                           table[at[6]], table[at[7]]);
}

// Copies n bytes from src to dst with stores that end exactly at dst + n
// (the last one overlapping the one before).
PGCODEC_TARGET_AVX2 inline void copy_exact(char* dst, const void* from, std::size_t n) noexcept {
  const auto* src = static_cast<const char*>(from);
  if (n >= 32) {
    for (std::size_t k = 0; k + 32 < n; k += 32)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + k),
                          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + n - 32),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + n - 32)));
  } else if (n >= 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + n - 16),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + n - 16)));
  } else if (n >= 8) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(dst), _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src)));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + n - 8),
                     _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + n - 8)));
  } else if (n >= 4) {
    __builtin_memcpy(dst, src, 4);  // (a constant size: two moves, no call)
    __builtin_memcpy(dst + n - 4, src + n - 4, 4);
  } else {
    for (std::size_t k = 0; k < n; ++k) dst[k] = src[k];
  }
}


// For four 32-bit lanes, each holding the UTF-8 of a code point (one to
// four bytes, first byte lowest) and keyed by their lengths (lane j's
// length less one in bits j and 4 + j: low bit, high bit), the vpshufb
// control that lays the bytes out one after another, and their count.
inline constexpr PackTable<16> kPackUtf8 = make_pack<16, 4, 4>(
    [](unsigned key, unsigned lane) { return 1 + ((key >> lane) & 1u) + 2 * ((key >> (4 + lane)) & 1u); });


// Stores the UTF-8 of 8 code points (32-bit lanes, U+0001..U+10FFFF, no
// surrogates; below U+10000 unless Four) at d and returns its length: each
// lane's bytes built in the lane, then packed by a vpshufb per four lanes.
// Stores 16 bytes after each four lanes' bytes, so up to 12 past the end.
template <bool Four>
PGCODEC_TARGET_AVX2 inline std::size_t store_utf8_8(char* d, __m256i cp) noexcept {
  const __m256i low6 = _mm256_set1_epi32(0x3F), c080 = _mm256_set1_epi32(0x80);
  const __m256i s6 = _mm256_srli_epi32(cp, 6), s12 = _mm256_srli_epi32(cp, 12);
  const __m256i last = _mm256_or_si256(_mm256_and_si256(cp, low6), c080);
  const __m256i mid = _mm256_or_si256(_mm256_and_si256(s6, low6), c080);
  const __m256i two = _mm256_or_si256(_mm256_or_si256(s6, _mm256_set1_epi32(0xC0)), _mm256_slli_epi32(last, 8));
  const __m256i three = _mm256_or_si256(_mm256_or_si256(s12, _mm256_set1_epi32(0xE0)),
                                        _mm256_or_si256(_mm256_slli_epi32(mid, 8), _mm256_slli_epi32(last, 16)));
  const __m256i ge80 = _mm256_cmpgt_epi32(cp, _mm256_set1_epi32(0x7F));
  const __m256i ge800 = _mm256_cmpgt_epi32(cp, _mm256_set1_epi32(0x7FF));
  __m256i bytes = _mm256_blendv_epi8(_mm256_blendv_epi8(cp, two, ge80), three, ge800);
  // A lane's length less one, 0..3, as a low bit and a high bit.
  __m256i low_bit = _mm256_andnot_si256(ge800, ge80);
  if constexpr (Four) {
    const __m256i ge10000 = _mm256_cmpgt_epi32(cp, _mm256_set1_epi32(0xFFFF));
    const __m256i high = _mm256_or_si256(_mm256_and_si256(s12, low6), c080);
    const __m256i four = _mm256_or_si256(
        _mm256_or_si256(_mm256_or_si256(_mm256_srli_epi32(cp, 18), _mm256_set1_epi32(0xF0)),
                        _mm256_slli_epi32(high, 8)),
        _mm256_or_si256(_mm256_slli_epi32(mid, 16), _mm256_slli_epi32(last, 24)));
    bytes = _mm256_blendv_epi8(bytes, four, ge10000);
    low_bit = _mm256_or_si256(low_bit, ge10000);
  }
  const auto lows = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(low_bit)));
  const auto highs = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ge800)));
  const unsigned key0 = (lows & 0xFu) | ((highs & 0xFu) << 4), key1 = (lows >> 4) | (highs & 0xF0u);
  const __m256i control = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(kPackUtf8.shuffle[key1]),
                                              reinterpret_cast<const __m128i*>(kPackUtf8.shuffle[key0]));
  const __m256i packed = _mm256_shuffle_epi8(bytes, control);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm256_castsi256_si128(packed));
  const std::size_t first = kPackUtf8.count[key0];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d + first), _mm256_extracti128_si256(packed, 1));
  return first + kPackUtf8.count[key1];
}

}  // namespace pgcodec::kernels

#endif
