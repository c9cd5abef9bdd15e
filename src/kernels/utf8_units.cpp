#include "kernels/utf8_units.hpp"

#include <cstdint>

#if defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>
#endif

namespace pgcodec::kernels {

#if defined(PGCODEC_KERNELS_X86)

PGCODEC_TARGET_AVX2 std::size_t utf8_to_units16_avx2(const unsigned char* p, std::size_t n, char16_t* o,
                                                     std::size_t& written) noexcept {
  // Character k of the block in 16-bit lane k: its two continuation bytes
  // (c1 high, c2 low), and its lead byte; lanes 5..7 are zero and ignored.
  // The input is valid UTF-8, so a block whose bytes 0, 3, 6, 9 and 12 are
  // three-byte leads (E0..EF) is five whole three-byte characters.
  const __m128i take_cont = _mm_setr_epi8(2, 1, 5, 4, 8, 7, 11, 10, 14, 13, -1, -1, -1, -1, -1, -1);
  const __m128i take_lead = _mm_setr_epi8(0, -1, 3, -1, 6, -1, 9, -1, 12, -1, -1, -1, -1, -1, -1, -1);
  const __m128i lead_bits = _mm_set1_epi16(0x00F0), lead_want = _mm_set1_epi16(0x00E0);
  const __m128i low6 = _mm_set1_epi16(0x003F), mid6 = _mm_set1_epi16(0x3F00), low4 = _mm_set1_epi16(0x000F);
  std::size_t i = 0, w = 0;
  while (n - i >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i lead = _mm_shuffle_epi8(v, take_lead);
    const __m128i three = _mm_cmpeq_epi16(_mm_and_si128(lead, lead_bits), lead_want);
    if ((_mm_movemask_epi8(three) & 0x3FF) != 0x3FF) break;
    const __m128i cont = _mm_shuffle_epi8(v, take_cont);
    const __m128i cp = _mm_or_si128(
        _mm_or_si128(_mm_slli_epi16(_mm_and_si128(lead, low4), 12), _mm_srli_epi16(_mm_and_si128(cont, mid6), 2)),
        _mm_and_si128(cont, low6));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + w), cp);
    i += 15;
    w += 5;
  }
  written = w;
  return i;
}

PGCODEC_TARGET_AVX2 std::size_t units16_to_utf8_avx2(const char16_t* u, std::size_t n, char* o,
                                                     std::size_t& written) noexcept {
  // Per unit, in its 16-bit lane: the lead byte and the middle byte (A),
  // the last byte (B); two shuffles lay them out as three bytes a unit.
  const __m128i a_first = _mm_setr_epi8(0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10);
  const __m128i b_first = _mm_setr_epi8(-1, -1, 0, -1, -1, 2, -1, -1, 4, -1, -1, 6, -1, -1, 8, -1);
  const __m128i a_rest = _mm_setr_epi8(11, -1, 12, 13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i b_rest = _mm_setr_epi8(-1, 10, -1, -1, 12, -1, -1, 14, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m128i top5 = _mm_set1_epi16(static_cast<short>(0xF800));
  const __m128i surrogate = _mm_set1_epi16(static_cast<short>(0xD800));
  const __m128i low6 = _mm_set1_epi16(0x003F), cont = _mm_set1_epi16(0x0080), lead = _mm_set1_epi16(0x00E0);
  const __m128i zero = _mm_setzero_si128();
  std::size_t i = 0;
  char* d = o;
  for (; n - i >= 8; i += 8, d += 24) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(u + i));
    const __m128i top = _mm_and_si128(v, top5);
    const __m128i bad = _mm_or_si128(_mm_cmpeq_epi16(top, zero), _mm_cmpeq_epi16(top, surrogate));
    if (_mm_movemask_epi8(bad) != 0) break;
    const __m128i first = _mm_or_si128(_mm_srli_epi16(v, 12), lead);
    const __m128i middle = _mm_or_si128(_mm_and_si128(_mm_srli_epi16(v, 6), low6), cont);
    const __m128i a = _mm_or_si128(first, _mm_slli_epi16(middle, 8));
    const __m128i b = _mm_or_si128(_mm_and_si128(v, low6), cont);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d),
                     _mm_or_si128(_mm_shuffle_epi8(a, a_first), _mm_shuffle_epi8(b, b_first)));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(d + 16),
                     _mm_or_si128(_mm_shuffle_epi8(a, a_rest), _mm_shuffle_epi8(b, b_rest)));
  }
  written = static_cast<std::size_t>(d - o);
  return i;
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
