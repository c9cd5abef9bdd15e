#include "kernels/utf8_units.hpp"

#include "kernels/pack_avx2.hpp"

#include <cstdint>

#if defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>
#endif

namespace pgcodec::kernels {

#if defined(PGCODEC_KERNELS_X86)

namespace {

// For each 8-bit mask, the vpshufb control that moves the 16-bit lanes whose
// bit is set to the front, in order (the rest of the bytes zeroed). (How
// many lanes: kPack8.count.)
constexpr PackTable<16> kPack16 =
    make_pack<16, 8, 2>([](unsigned m, unsigned lane) { return 2 * ((m >> lane) & 1u); });

// 16 positions' code points in 16-bit lanes, each as if a character of one
// to three bytes started there (q[0..17] read); which positions do start
// one the caller knows.
PGCODEC_TARGET_AVX2 inline __m256i code_points16_avx2(const unsigned char* q) noexcept {
  const __m256i b0 = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)));
  const __m256i b1 = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 1)));
  const __m256i b2 = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 2)));
  const __m256i low6 = _mm256_set1_epi16(0x3F);
  const __m256i tail1 = _mm256_and_si256(b1, low6);
  const __m256i two = _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(b0, _mm256_set1_epi16(0x1F)), 6), tail1);
  // (b0 << 12 keeps the lead's low four bits: the rest leave the lane.)
  const __m256i three = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi16(b0, 12), _mm256_slli_epi16(tail1, 6)),
                                        _mm256_and_si256(b2, low6));
  const __m256i multi = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0x7F));
  const __m256i is_three = _mm256_cmpgt_epi16(b0, _mm256_set1_epi16(0xDF));
  return _mm256_blendv_epi8(_mm256_blendv_epi8(b0, two, multi), three, is_three);
}

// Stores the lanes of cp whose bit of `take` (16 bits) is set at o, in
// order; returns how many. Stores 16 units (32 bytes) whatever it keeps.
PGCODEC_TARGET_AVX2 inline std::size_t store_taken16(char16_t* o, __m256i cp, unsigned take) noexcept {
  const unsigned lo = take & 0xFFu, hi = (take >> 8) & 0xFFu;
  const __m256i control =
      _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(kPack16.shuffle[hi]),
                          reinterpret_cast<const __m128i*>(kPack16.shuffle[lo]));
  const __m256i packed = _mm256_shuffle_epi8(cp, control);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o), _mm256_castsi256_si128(packed));
  const std::size_t first = kPack8.count[lo];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o + first), _mm256_extracti128_si256(packed, 1));
  return first + kPack8.count[hi];
}

}  // namespace

PGCODEC_TARGET_AVX2 std::size_t utf8_to_units16_avx2(const unsigned char* p, std::size_t n, char16_t* o,
                                                     std::size_t& written) noexcept {
  // Any mix of one-, two- and three-byte characters, 32 bytes a block: every
  // position's code point computed as if a character started there, those
  // that start one packed to the front with a vpshufb per eight lanes.
  const __m256i top2 = _mm256_set1_epi8(static_cast<char>(0xC0));
  const __m256i cont = _mm256_set1_epi8(static_cast<char>(0x80));
  const __m256i four = _mm256_set1_epi8(static_cast<char>(0xF0));
  std::size_t i = 0, w = 0;
  // 34 bytes: the block and the two bytes after it (a character at 30 or 31).
  while (n - i >= 34) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    // A four-byte character (F0..FF: max_epu8(v, F0) == v): the caller's.
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, four), v))) break;
    const auto lead =
        static_cast<std::uint32_t>(~_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(v, top2), cont)));
    // The block ends at its last lead (one of 29, 30, 31 is one in UTF-8
    // that utf8_valid_run accepted), so every character it takes is whole.
    if ((lead >> 29) == 0) break;
    const unsigned end = 31u - static_cast<unsigned>(__builtin_clz(lead));
    const std::uint32_t take = lead & ((std::uint32_t{1} << end) - 1u);
    w += store_taken16(o + w, code_points16_avx2(p + i), take & 0xFFFFu);
    w += store_taken16(o + w, code_points16_avx2(p + i + 16), take >> 16);
    i += end;
  }
  written = w;
  return i;
}

namespace {

PGCODEC_TARGET_AVX2 inline __m256i widen8(const unsigned char* q) noexcept {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q)));
}

// 8 positions' code points in 32-bit lanes, each as if a character of one
// to four bytes started there (q[0..10] read).
PGCODEC_TARGET_AVX2 inline __m256i code_points8_avx2(const unsigned char* q) noexcept {
  const __m256i b0 = widen8(q), low6 = _mm256_set1_epi32(0x3F);
  const __m256i t1 = _mm256_and_si256(widen8(q + 1), low6), t2 = _mm256_and_si256(widen8(q + 2), low6),
                t3 = _mm256_and_si256(widen8(q + 3), low6);
  const __m256i two = _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(b0, _mm256_set1_epi32(0x1F)), 6), t1);
  const __m256i three =
      _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(b0, _mm256_set1_epi32(0x0F)), 12),
                                      _mm256_slli_epi32(t1, 6)),
                      t2);
  const __m256i four =
      _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(b0, _mm256_set1_epi32(0x07)), 18),
                                      _mm256_slli_epi32(t1, 12)),
                      _mm256_or_si256(_mm256_slli_epi32(t2, 6), t3));
  __m256i cp = _mm256_blendv_epi8(b0, two, _mm256_cmpgt_epi32(b0, _mm256_set1_epi32(0x7F)));
  cp = _mm256_blendv_epi8(cp, three, _mm256_cmpgt_epi32(b0, _mm256_set1_epi32(0xDF)));
  return _mm256_blendv_epi8(cp, four, _mm256_cmpgt_epi32(b0, _mm256_set1_epi32(0xEF)));
}

}  // namespace

PGCODEC_TARGET_AVX2 std::size_t utf8_to_units32_avx2(const unsigned char* p, std::size_t n, char32_t* o,
                                                     std::size_t& written) noexcept {
  // Any mix of one- to four-byte characters, 32 bytes a block, 8 positions
  // at a time in 32-bit lanes, those that start a character packed to the
  // front with vpermd.
  const __m256i top2 = _mm256_set1_epi8(static_cast<char>(0xC0));
  const __m256i cont = _mm256_set1_epi8(static_cast<char>(0x80));
  std::size_t i = 0, w = 0;
  // 35 bytes: the block and the three bytes after it (a character at 28..31).
  while (n - i >= 35) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const auto lead =
        static_cast<std::uint32_t>(~_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(v, top2), cont)));
    // The block ends at its last lead (one of 28..31 is one in UTF-8 that
    // utf8_valid_run accepted), so every character it takes is whole.
    if ((lead >> 28) == 0) break;
    const unsigned end = 31u - static_cast<unsigned>(__builtin_clz(lead));
    const std::uint32_t take = lead & ((std::uint32_t{1} << end) - 1u);
    for (unsigned q = 0; q < 4; ++q) {
      const unsigned t = (take >> (8 * q)) & 0xFFu;
      // kPack8's positions as vpermd indices (its 0x80 fill picks lane 0:
      // those lanes are past the ones counted).
      const __m256i index = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(kPack8.shuffle[t])));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + w),
                          _mm256_permutevar8x32_epi32(code_points8_avx2(p + i + 8 * q), index));
      w += kPack8.count[t];
    }
    i += end;
  }
  written = w;
  return i;
}

namespace {

// Where a block of 8 units comes from: 16-bit units (U+0001..U+FFFF that
// are not surrogates) and 32-bit ones (U+0001..U+10FFFF likewise).
struct From16 {
  using Unit = char16_t;
  static constexpr bool kFour = false;
  PGCODEC_TARGET_AVX2 static bool good(const char16_t* q) noexcept {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const __m128i top5 = _mm_and_si128(v, _mm_set1_epi16(static_cast<short>(0xF800)));
    return _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi16(v, _mm_setzero_si128()),
                                          _mm_cmpeq_epi16(top5, _mm_set1_epi16(static_cast<short>(0xD800))))) == 0;
  }
  PGCODEC_TARGET_AVX2 static __m256i widen(const char16_t* q) noexcept {
    return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)));
  }
};

struct From32 {
  using Unit = char32_t;
  static constexpr bool kFour = true;
  // (A unit above 0x7FFFFFFF is negative to the signed compare: cp >> 16
  // catches it.)
  PGCODEC_TARGET_AVX2 static bool good(const char32_t* q) noexcept {
    const __m256i cp = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
    const __m256i bad = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi32(cp, _mm256_setzero_si256()),
                        _mm256_cmpgt_epi32(_mm256_srli_epi32(cp, 16), _mm256_set1_epi32(0x10))),
        _mm256_cmpeq_epi32(_mm256_and_si256(cp, _mm256_set1_epi32(~0x7FF)), _mm256_set1_epi32(0xD800)));
    return _mm256_movemask_epi8(bad) == 0;
  }
  PGCODEC_TARGET_AVX2 static __m256i widen(const char32_t* q) noexcept {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
  }
};

// Units to UTF-8, 8 a block, storing nothing past the bytes it reports:
// a block is stored straight at the output only while two more blocks
// are known to be characters (their 16 bytes at least cover the 12 a
// block may store past its end); the last two go through a buffer and
// are copied exactly.
template <class From>
PGCODEC_TARGET_AVX2 inline std::size_t units_to_utf8_avx2(const typename From::Unit* u, std::size_t n, char* o,
                                                          std::size_t& written) noexcept {
  std::size_t i = 0, checked = 0;
  char* d = o;
  for (;;) {
    while (checked - i < 24 && n - checked >= 8 && From::good(u + checked)) checked += 8;
    if (checked - i < 24) break;
    d += store_utf8_8<From::kFour>(d, From::widen(u + i));
    i += 8;
  }
  char tail[2 * 32 + 16];
  std::size_t t = 0;
  for (; checked - i >= 8; i += 8) t += store_utf8_8<From::kFour>(tail + t, From::widen(u + i));
  copy_exact(d, tail, t);
  written = static_cast<std::size_t>(d - o) + t;
  return i;
}

}  // namespace

PGCODEC_TARGET_AVX2 std::size_t units16_to_utf8_avx2(const char16_t* u, std::size_t n, char* o,
                                                     std::size_t& written) noexcept {
  return units_to_utf8_avx2<From16>(u, n, o, written);
}

PGCODEC_TARGET_AVX2 std::size_t units32_to_utf8_avx2(const char32_t* u, std::size_t n, char* o,
                                                     std::size_t& written) noexcept {
  return units_to_utf8_avx2<From32>(u, n, o, written);
}

namespace {

// The maskz_ forms of shifts and widenings with every lane set: GCC 12
// warns (maybe-uninitialized) on the undefined source of the plain ones.
constexpr __mmask32 all32 = 0xFFFFFFFFu;
constexpr __mmask16 all16 = 0xFFFF;

// 32 positions' code points, each as if a character of one to three bytes
// started there (b0, b1, b2: the position's byte and the next two, widened
// to 16 bits); which positions do start one the caller knows.
PGCODEC_TARGET_AVX512_VBMI2 inline __m512i code_points32(const unsigned char* q) noexcept {
  const __m512i b0 = _mm512_maskz_cvtepu8_epi16(all32, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q)));
  const __m512i b1 = _mm512_maskz_cvtepu8_epi16(all32, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 1)));
  const __m512i b2 = _mm512_maskz_cvtepu8_epi16(all32, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q + 2)));
  const __m512i low6 = _mm512_set1_epi16(0x3F);
  const __m512i tail1 = _mm512_and_si512(b1, low6);
  const __m512i two = _mm512_or_si512(_mm512_maskz_slli_epi16(all32, _mm512_and_si512(b0, _mm512_set1_epi16(0x1F)), 6), tail1);
  const __m512i three =
      _mm512_or_si512(_mm512_or_si512(_mm512_maskz_slli_epi16(all32, b0, 12), _mm512_maskz_slli_epi16(all32, tail1, 6)),
                      _mm512_and_si512(b2, low6));
  const __mmask32 one = _mm512_cmplt_epu16_mask(b0, _mm512_set1_epi16(0x80));
  const __mmask32 is_three = _mm512_cmpge_epu16_mask(b0, _mm512_set1_epi16(0xE0));
  return _mm512_mask_mov_epi16(_mm512_mask_mov_epi16(two, one, b0), is_three, three);
}

}  // namespace

PGCODEC_TARGET_AVX512_VBMI2 std::size_t utf8_to_units16_avx512(const unsigned char* p, std::size_t n,
                                                               char16_t* o, std::size_t& written) noexcept {
  const __m512i top2 = _mm512_set1_epi8(static_cast<char>(0xC0));
  const __m512i cont = _mm512_set1_epi8(static_cast<char>(0x80));
  const __m512i four = _mm512_set1_epi8(static_cast<char>(0xF0));
  std::size_t i = 0, w = 0;
  // 66 bytes: the block and the two bytes after it (a character at 62 or 63).
  while (n - i >= 66) {
    const __m512i v = _mm512_loadu_si512(p + i);
    if (_mm512_cmpge_epu8_mask(v, four)) break;  // a four-byte character: the caller's
    const __mmask64 lead = _mm512_cmpneq_epi8_mask(_mm512_and_si512(v, top2), cont);
    if (lead == 0) break;  // not UTF-8 that utf8_valid_run accepted
    // The block ends at its last lead (a character of three bytes at most:
    // one of 61, 62, 63 is a lead), so every character it takes is whole.
    const unsigned end = 63u - static_cast<unsigned>(__builtin_clzll(lead));
    const std::uint64_t take = lead & ((std::uint64_t{1} << end) - 1u);
    const auto take0 = static_cast<__mmask32>(take), take1 = static_cast<__mmask32>(take >> 32);
    _mm512_storeu_si512(o + w, _mm512_maskz_compress_epi16(take0, code_points32(p + i)));
    w += static_cast<std::size_t>(__builtin_popcount(take0));
    _mm512_storeu_si512(o + w, _mm512_maskz_compress_epi16(take1, code_points32(p + i + 32)));
    w += static_cast<std::size_t>(__builtin_popcount(take1));
    i += end;
  }
  written = w;
  return i;
}

namespace {

// 16 positions' code points in 32-bit lanes, each as if a character of one
// to four bytes started there (q[0..18] read).
PGCODEC_TARGET_AVX512 inline __m512i widen16(const unsigned char* q) noexcept {
  return _mm512_maskz_cvtepu8_epi32(all16, _mm_loadu_si128(reinterpret_cast<const __m128i*>(q)));
}

PGCODEC_TARGET_AVX512 inline __m512i code_points16(const unsigned char* q) noexcept {
  const __m512i b0 = widen16(q), b1 = widen16(q + 1), b2 = widen16(q + 2), b3 = widen16(q + 3);
  const __m512i low6 = _mm512_set1_epi32(0x3F);
  const __m512i t1 = _mm512_and_si512(b1, low6), t2 = _mm512_and_si512(b2, low6), t3 = _mm512_and_si512(b3, low6);
  const __m512i two = _mm512_or_si512(_mm512_maskz_slli_epi32(all16, _mm512_and_si512(b0, _mm512_set1_epi32(0x1F)), 6), t1);
  const __m512i three = _mm512_or_si512(
      _mm512_or_si512(_mm512_maskz_slli_epi32(all16, _mm512_and_si512(b0, _mm512_set1_epi32(0x0F)), 12),
                      _mm512_maskz_slli_epi32(all16, t1, 6)),
      t2);
  const __m512i four = _mm512_or_si512(
      _mm512_or_si512(_mm512_maskz_slli_epi32(all16, _mm512_and_si512(b0, _mm512_set1_epi32(0x07)), 18),
                      _mm512_maskz_slli_epi32(all16, t1, 12)),
      _mm512_or_si512(_mm512_maskz_slli_epi32(all16, t2, 6), t3));
  __m512i cp = _mm512_mask_mov_epi32(b0, _mm512_cmpge_epu32_mask(b0, _mm512_set1_epi32(0xC0)), two);
  cp = _mm512_mask_mov_epi32(cp, _mm512_cmpge_epu32_mask(b0, _mm512_set1_epi32(0xE0)), three);
  return _mm512_mask_mov_epi32(cp, _mm512_cmpge_epu32_mask(b0, _mm512_set1_epi32(0xF0)), four);
}

}  // namespace

PGCODEC_TARGET_AVX512 std::size_t utf8_to_units32_avx512(const unsigned char* p, std::size_t n, char32_t* o,
                                                         std::size_t& written) noexcept {
  const __m512i top2 = _mm512_set1_epi8(static_cast<char>(0xC0));
  const __m512i cont = _mm512_set1_epi8(static_cast<char>(0x80));
  std::size_t i = 0, w = 0;
  // 67 bytes: the block and the three bytes after it (a character at 61..63).
  while (n - i >= 67) {
    const __m512i v = _mm512_loadu_si512(p + i);
    const std::uint64_t lead = _mm512_cmpneq_epi8_mask(_mm512_and_si512(v, top2), cont);
    // The block ends at its last lead (a character of four bytes at most:
    // one of 60..63 is a lead in UTF-8 that utf8_valid_run accepted), so
    // every character it takes is whole.
    if ((lead >> 60) == 0) break;
    const unsigned end = 63u - static_cast<unsigned>(__builtin_clzll(lead));
    const std::uint64_t whole = lead & ((std::uint64_t{1} << end) - 1u);  // the characters it takes
    for (unsigned q = 0; q < 4; ++q) {
      const auto t = static_cast<__mmask16>(whole >> (16 * q));
      _mm512_storeu_si512(o + w, _mm512_maskz_compress_epi32(t, code_points16(p + i + 16 * q)));
      w += static_cast<std::size_t>(__builtin_popcount(t));
    }
    i += end;
  }
  written = w;
  return i;
}

namespace {

// Stores the UTF-8 of 16 code points (32-bit lanes, U+0001..U+10FFFF, no
// surrogates; below U+10000 unless Four) at o and returns its length: each
// lane's UTF-8 built in the lane, first byte lowest, the bytes after the
// last zero; UTF-8 of those code points has no zero byte, so the bytes to
// keep are exactly those that are not zero. Stores exactly those bytes.
template <bool Four>
PGCODEC_TARGET_AVX512_VBMI2 inline std::size_t store_utf8_lanes(char* o, __m512i cp) noexcept {
  const __m512i low6 = _mm512_set1_epi32(0x3F);
  const __m512i c080 = _mm512_set1_epi32(0x80);
  const __m512i s6 = _mm512_maskz_srli_epi32(all16, cp, 6), s12 = _mm512_maskz_srli_epi32(all16, cp, 12);
  const __m512i last = _mm512_or_si512(_mm512_and_si512(cp, low6), c080);
  const __m512i mid = _mm512_or_si512(_mm512_and_si512(s6, low6), c080);
  const __m512i two =
      _mm512_or_si512(_mm512_or_si512(s6, _mm512_set1_epi32(0xC0)), _mm512_maskz_slli_epi32(all16, last, 8));
  const __m512i three =
      _mm512_or_si512(_mm512_or_si512(s12, _mm512_set1_epi32(0xE0)),
                      _mm512_or_si512(_mm512_maskz_slli_epi32(all16, mid, 8), _mm512_maskz_slli_epi32(all16, last, 16)));
  __m512i bytes = _mm512_mask_mov_epi32(cp, _mm512_cmpge_epu32_mask(cp, c080), two);
  bytes = _mm512_mask_mov_epi32(bytes, _mm512_cmpge_epu32_mask(cp, _mm512_set1_epi32(0x800)), three);
  if constexpr (Four) {
    const __m512i high = _mm512_or_si512(_mm512_and_si512(s12, low6), c080);
    const __m512i four = _mm512_or_si512(
        _mm512_or_si512(_mm512_or_si512(_mm512_maskz_srli_epi32(all16, cp, 18), _mm512_set1_epi32(0xF0)),
                        _mm512_maskz_slli_epi32(all16, high, 8)),
        _mm512_or_si512(_mm512_maskz_slli_epi32(all16, mid, 16), _mm512_maskz_slli_epi32(all16, last, 24)));
    bytes = _mm512_mask_mov_epi32(bytes, _mm512_cmpge_epu32_mask(cp, _mm512_set1_epi32(0x10000)), four);
  }
  const __mmask64 keep = _mm512_test_epi8_mask(bytes, bytes);
  const auto count = static_cast<unsigned>(__builtin_popcountll(keep));
  _mm512_mask_storeu_epi8(o, _bzhi_u64(~std::uint64_t{0}, count), _mm512_maskz_compress_epi8(keep, bytes));
  return count;
}

}  // namespace

PGCODEC_TARGET_AVX512_VBMI2 std::size_t units16_to_utf8_avx512(const char16_t* u, std::size_t n, char* o,
                                                               std::size_t& written) noexcept {
  std::size_t i = 0, w = 0;
  for (; n - i >= 16; i += 16) {
    const __m256i units = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(u + i));
    // U+0001..U+FFFF without the surrogates D800..DFFF.
    const __m256i top5 = _mm256_and_si256(units, _mm256_set1_epi16(static_cast<short>(0xF800)));
    if (_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi16(units, _mm256_setzero_si256()),
                                             _mm256_cmpeq_epi16(top5, _mm256_set1_epi16(static_cast<short>(0xD800))))))
      break;
    w += store_utf8_lanes<false>(o + w, _mm512_maskz_cvtepu16_epi32(all16, units));
  }
  written = w;
  return i;
}

PGCODEC_TARGET_AVX512_VBMI2 std::size_t units32_to_utf8_avx512(const char32_t* u, std::size_t n, char* o,
                                                               std::size_t& written) noexcept {
  std::size_t i = 0, w = 0;
  for (; n - i >= 16; i += 16) {
    const __m512i cp = _mm512_loadu_si512(u + i);
    // U+0001..U+10FFFF without the surrogates D800..DFFF.
    const __mmask16 bad = _mm512_testn_epi32_mask(cp, cp) |
                          _mm512_cmpgt_epu32_mask(cp, _mm512_set1_epi32(0x10FFFF)) |
                          _mm512_cmpeq_epi32_mask(_mm512_and_si512(cp, _mm512_set1_epi32(~0x7FF)),
                                                  _mm512_set1_epi32(0xD800));
    if (bad) break;
    w += store_utf8_lanes<true>(o + w, cp);
  }
  written = w;
  return i;
}

#endif

}  // namespace pgcodec::kernels
