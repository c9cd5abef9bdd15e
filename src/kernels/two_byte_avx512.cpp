// The AVX-512 two-byte decode kernel (see two_byte.hpp). Per block of 64
// bytes: the characters found from bit masks (lead_bytes), their first and
// second bytes squeezed into consecutive lanes with VBMI2's vpcompressb,
// then 16 characters at a time: the lead byte's row (base, lo, hi) and the
// value read with gathers, a single's code point likewise, ASCII as it is;
// stored as units, or as UTF-8 squeezed out of four bytes a lane. A
// character the kernel does not take ends the block's output before it.
// The encode kernel likewise reads 32 code units' pages and codes with
// gathers and squeezes the codes' one or two bytes together.
#include "kernels/target.hpp"
#include "kernels/two_byte.hpp"

#if defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>

namespace pgcodec::kernels {
namespace {

// values[idx] for the lanes of `mask`, 16 bits read with a 32-bit gather
// that ends at the entry (it starts at the one before, so that the last
// entry of a table is never read past); idx 0, which has no entry before
// it, from table[0].
PGCODEC_TARGET_AVX512_VBMI2 inline __m512i gather_u16(const std::uint16_t* table, __m512i idx, __mmask16 mask) {
  const __mmask16 first = _mm512_mask_cmpeq_epi32_mask(mask, idx, _mm512_setzero_si512());
  const __m512i pairs = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), static_cast<__mmask16>(mask & ~first),
                                                     _mm512_sub_epi32(idx, _mm512_set1_epi32(1)), table, 2);
  return _mm512_mask_mov_epi32(_mm512_maskz_srli_epi32(0xFFFF, pairs, 16), first, _mm512_set1_epi32(table[0]));
}

// Stores the lanes of `keep` (a prefix) of the code points c: UTF-8 when
// unit is 0, else units of `unit` bytes. Returns what it stored (bytes or
// units).
PGCODEC_TARGET_AVX512_VBMI2 inline std::size_t store(void* out, __m512i c, __mmask16 keep, unsigned unit) {
  switch (unit) {
    case 1:
      _mm512_mask_cvtepi32_storeu_epi8(out, keep, c);
      break;
    case 2:
      _mm512_mask_cvtepi32_storeu_epi16(out, keep, c);
      break;
    case 4:
      _mm512_mask_storeu_epi32(out, keep, c);
      break;
    default: {
      // Every code point here is below U+10000 and no surrogate: one, two
      // or three bytes, built in the lane's four and squeezed together.
      const __mmask16 two = _mm512_cmpge_epu32_mask(c, _mm512_set1_epi32(0x80));
      const __mmask16 three = _mm512_cmpge_epu32_mask(c, _mm512_set1_epi32(0x800));
      const __m512i low6 = _mm512_set1_epi32(0x3F), x80 = _mm512_set1_epi32(0x80);
      const __m512i last = _mm512_or_si512(x80, _mm512_and_si512(c, low6));
      const __m512i middle = _mm512_or_si512(x80, _mm512_and_si512(_mm512_maskz_srli_epi32(0xFFFF, c, 6), low6));
      const __m512i u2 = _mm512_or_si512(_mm512_or_si512(_mm512_set1_epi32(0xC0), _mm512_maskz_srli_epi32(0xFFFF, c, 6)),
                                         _mm512_maskz_slli_epi32(0xFFFF, last, 8));
      const __m512i u3 = _mm512_or_si512(
          _mm512_or_si512(_mm512_or_si512(_mm512_set1_epi32(0xE0), _mm512_maskz_srli_epi32(0xFFFF, c, 12)),
                          _mm512_maskz_slli_epi32(0xFFFF, middle, 8)),
          _mm512_maskz_slli_epi32(0xFFFF, last, 16));
      const __m512i word = _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(c, two, u2), three, u3);
      __m512i len = _mm512_set1_epi32(1);
      len = _mm512_mask_add_epi32(len, two, len, _mm512_set1_epi32(1));
      len = _mm512_mask_add_epi32(len, three, len, _mm512_set1_epi32(1));
      // Byte j of a lane is kept when j < the lane's length.
      const __m512i repeated = _mm512_mullo_epi32(len, _mm512_set1_epi32(0x01010101));
      const std::uint64_t lanes = _pdep_u64(keep, 0x1111111111111111ull) * 0xF;
      const std::uint64_t bytes =
          _mm512_cmplt_epu8_mask(_mm512_set1_epi32(0x03020100), repeated) & lanes;
      const auto count = static_cast<unsigned>(_mm_popcnt_u64(bytes));
      _mm512_mask_storeu_epi8(out, _bzhi_u64(~0ull, count), _mm512_maskz_compress_epi8(bytes, word));
      return count;
    }
  }
  return static_cast<std::size_t>(_mm_popcnt_u32(keep));
}

// The 16 bytes at p (64-byte aligned storage), one a lane.
PGCODEC_TARGET_AVX512_VBMI2 inline __m512i widen16(const unsigned char* p) {
  return _mm512_maskz_cvtepu8_epi32(0xFFFF, _mm_load_si128(reinterpret_cast<const __m128i*>(p)));
}

// The k-th 64 bytes of t.row_bytes.
PGCODEC_TARGET_AVX512_VBMI2 inline __m512i plane(const TwoByteTables& t, unsigned k) {
  return _mm512_loadu_si512(t.row_bytes + 64 * k);
}

// A block of 64 bytes with no high byte and no NUL, as it is.
PGCODEC_TARGET_AVX512_VBMI2 inline void store_ascii(void* out, __m512i v, unsigned unit) {
  auto* o = static_cast<char*>(out);
  if (unit <= 1) {
    _mm512_storeu_si512(o, v);
  } else {
    const __m128i parts[4] = {_mm512_maskz_extracti32x4_epi32(0xF, v, 0), _mm512_maskz_extracti32x4_epi32(0xF, v, 1),
                              _mm512_maskz_extracti32x4_epi32(0xF, v, 2), _mm512_maskz_extracti32x4_epi32(0xF, v, 3)};
    for (int k = 0; k < 4; ++k) {
      if (unit == 2) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32 * k), _mm256_cvtepu8_epi16(parts[k]));
      } else {
        _mm512_storeu_si512(o + 64 * k, _mm512_maskz_cvtepu8_epi32(0xFFFF, parts[k]));
      }
    }
  }
}

}  // namespace

PGCODEC_TARGET_AVX512_VBMI2
std::size_t two_byte_decode_avx512(const TwoByteTables& t, const unsigned char* in, std::size_t n, void* out,
                                   std::size_t cap, unsigned unit, char32_t limit, std::size_t& written) noexcept {
  const std::size_t size = unit ? unit : 1;
  const std::size_t room = unit ? 64 : 63 * 3;
  const bool singles = t.single_lo <= t.single_hi;
  const __m512i single_lo = _mm512_set1_epi8(static_cast<char>(t.single_lo));
  const __m512i single_hi = _mm512_set1_epi8(static_cast<char>(t.single_hi));
  const __m512i lim = _mm512_set1_epi32(static_cast<int>(limit));
  const __m512i lead_ok0 = _mm512_loadu_si512(t.lead_ok), lead_ok1 = _mm512_loadu_si512(t.lead_ok + 64);
  const __m512i trail_ok0 = _mm512_loadu_si512(t.trail_ok), trail_ok1 = _mm512_loadu_si512(t.trail_ok + 64);
  const __m512i trail_ok2 = _mm512_loadu_si512(t.trail_ok + 128), trail_ok3 = _mm512_loadu_si512(t.trail_ok + 192);
  const auto* rows3 = static_cast<const char*>(t.rows3);
  // The rows as byte planes (lo, hi, base's low and high byte), looked up
  // with vpermi2b per block: two gathers fewer per 16 characters.
  const __m512i lo0 = plane(t, 0), lo1 = plane(t, 1), hi0 = plane(t, 2), hi1 = plane(t, 3);
  const __m512i bl0 = plane(t, 4), bl1 = plane(t, 5), bh0 = plane(t, 6), bh1 = plane(t, 7);
  alignas(64) unsigned char firsts[64], seconds[64], thirds[64];
  alignas(64) unsigned char los[64], his[64], base_lows[64], base_highs[64];
  std::size_t i = 0, w = 0;
  while (n - i >= 66 && cap - w >= room) {
    const __m512i v = _mm512_loadu_si512(in + i);
    const std::uint64_t high = _mm512_movepi8_mask(v);
    const std::uint64_t zero = _mm512_testn_epi8_mask(v, v);
    char* const o = static_cast<char*>(out) + w * size;
    if ((high | zero) == 0) {
      store_ascii(o, v, unit);
      i += 64;
      w += 64;
      continue;
    }
    const std::uint64_t single =
        singles ? _mm512_mask_cmple_epu8_mask(_mm512_cmpge_epu8_mask(v, single_lo), v, single_hi) : 0;
    // SS3 (8F) is a three-byte code's lead wherever it is: the bytes after
    // one end a run of two-byte codes, and its two are its trails.
    const std::uint64_t ss3 = t.ss3_rows ? _mm512_mask_cmpeq_epi8_mask(high, v, _mm512_set1_epi8(static_cast<char>(0x8F))) : 0;
    const std::uint64_t lead2 = lead_bytes(high & ~single & ~(ss3 | ss3 << 1 | ss3 << 2));
    const std::uint64_t lead = lead2 | ss3;
    const std::uint64_t trail = lead2 << 1 | ss3 << 1 | ss3 << 2;
    const __m512i next = _mm512_loadu_si512(in + i + 1);
    // Lead bytes with no two-byte row, or followed by a byte no row has
    // (128-entry lookups: vpermi2b's index is the low seven bits).
    const std::uint64_t no_row =
        _mm512_testn_epi8_mask(_mm512_permutex2var_epi8(lead_ok0, v, lead_ok1), _mm512_set1_epi8(1));
    const __m512i trail_low = _mm512_permutex2var_epi8(trail_ok0, next, trail_ok1);
    const __m512i trail_high = _mm512_permutex2var_epi8(trail_ok2, next, trail_ok3);
    const std::uint64_t no_trail = _mm512_testn_epi8_mask(
        _mm512_mask_blend_epi8(_mm512_movepi8_mask(next), trail_low, trail_high), _mm512_set1_epi8(1));
    // Characters that start before byte 63 (a lead there has its trail in
    // the next block), before the first NUL and before the first lead byte
    // those say no to.
    const auto stop = static_cast<unsigned>(__builtin_ctzll(zero | (lead2 & (no_row | no_trail)) |
                                                            (ss3 & (std::uint64_t{3} << 62)) | (std::uint64_t{1} << 63)));
    // A block that would stop within 16 bytes is left to the family's loop
    // whole: its few characters are cheaper there than the gathers.
    if (stop < 16) break;
    const std::uint64_t starts = ~trail & _bzhi_u64(~0ull, stop);
    const auto count = static_cast<unsigned>(_mm_popcnt_u64(starts));
    const __m512i first_bytes = _mm512_maskz_compress_epi8(starts, v);
    _mm512_store_si512(firsts, first_bytes);
    _mm512_store_si512(los, _mm512_permutex2var_epi8(lo0, first_bytes, lo1));
    _mm512_store_si512(his, _mm512_permutex2var_epi8(hi0, first_bytes, hi1));
    _mm512_store_si512(base_lows, _mm512_permutex2var_epi8(bl0, first_bytes, bl1));
    _mm512_store_si512(base_highs, _mm512_permutex2var_epi8(bh0, first_bytes, bh1));
    _mm512_store_si512(seconds, _mm512_maskz_compress_epi8(starts, next));
    const std::uint64_t leads = _pext_u64(lead, starts), singles_at = _pext_u64(single, starts);
    const std::uint64_t threes = _pext_u64(ss3, starts);
    if (threes) _mm512_store_si512(thirds, _mm512_maskz_compress_epi8(starts, _mm512_loadu_si512(in + i + 2)));
    std::size_t wrote = 0;
    for (unsigned g = 0; g < count; g += 16) {
      const auto valid = static_cast<__mmask16>(_bzhi_u32(0xFFFF, count - g));
      const auto lm = static_cast<__mmask16>(leads >> g);
      const auto sm = static_cast<__mmask16>(singles_at >> g);
      const __m512i b = _mm512_maskz_cvtepu8_epi32(0xFFFF, _mm_load_si128(reinterpret_cast<const __m128i*>(firsts + g)));
      const __m512i b1 =
          _mm512_maskz_cvtepu8_epi32(0xFFFF, _mm_load_si128(reinterpret_cast<const __m128i*>(seconds + g)));
      // The lead byte's row: base, then lo and hi; for a three-byte code,
      // the row its second byte picks, and its third byte in it.
      const auto m3 = static_cast<__mmask16>(threes >> g);
      const __m512i low8 = _mm512_set1_epi32(0xFF);
      __m512i lo = widen16(los + g), hi = widen16(his + g);
      __m512i base =
          _mm512_or_si512(widen16(base_lows + g), _mm512_maskz_slli_epi32(0xFFFF, widen16(base_highs + g), 8));
      __m512i last = b1;
      if (m3) {
        const __m512i row = gather_u16(t.ss3_rows, b1, m3);
        base = _mm512_mask_i32gather_epi32(base, m3, row, rows3, 8);
        const __m512i lohi = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m3, row, rows3 + 4, 8);
        lo = _mm512_mask_mov_epi32(lo, m3, _mm512_and_si512(lohi, low8));
        hi = _mm512_mask_mov_epi32(hi, m3, _mm512_and_si512(_mm512_maskz_srli_epi32(0xFFFF, lohi, 8), low8));
        last = _mm512_mask_mov_epi32(b1, m3, widen16(thirds + g));
      }
      const __mmask16 in_row = _mm512_mask_cmple_epu32_mask(_mm512_mask_cmpge_epu32_mask(lm, last, lo), last, hi);
      // A two-byte row's base is kept mod 2^16 in the planes.
      const __m512i idx = _mm512_mask_and_epi32(_mm512_add_epi32(base, last), static_cast<__mmask16>(~m3),
                                                _mm512_add_epi32(base, last), _mm512_set1_epi32(0xFFFF));
      __m512i c = _mm512_maskz_mov_epi32(static_cast<__mmask16>(~(lm | sm)), b);  // ASCII
      c = _mm512_mask_mov_epi32(c, in_row, gather_u16(t.values, idx, in_row));
      if (sm) {
        c = _mm512_mask_mov_epi32(c, sm, gather_u16(t.one, _mm512_and_si512(b, _mm512_set1_epi32(0x7F)), sm));
      }
      // A character it takes: a code point (not 0: no entry, a lead whose
      // trail is not in its row, a single without one), not a wide entry's
      // index, within the limit.
      const __mmask16 ok = _mm512_test_epi32_mask(c, c) &
                           _mm512_cmpge_epu32_mask(_mm512_sub_epi32(c, _mm512_set1_epi32(0xD800)),
                                                   _mm512_set1_epi32(0x800)) &
                           _mm512_cmple_epu32_mask(c, lim);
      const auto bad = static_cast<__mmask16>(valid & ~ok);
      const auto keep = static_cast<__mmask16>(bad ? _bzhi_u32(valid, static_cast<unsigned>(__builtin_ctz(bad))) : valid);
      wrote += store(o + wrote * size, c, keep, unit);
      if (bad) {
        // The input offset of that character: its bit among the starts.
        const unsigned k = g + static_cast<unsigned>(__builtin_ctz(bad));
        written = w + wrote;
        return i + static_cast<std::size_t>(__builtin_ctzll(_pdep_u64(std::uint64_t{1} << k, starts)));
      }
    }
    i += stop + ((trail >> stop) & 1u);
    w += wrote;
    if (stop < 63) break;  // before a NUL or a character the tables would not take
  }
  written = w;
  return i;
}

namespace {

// The codes of 16 code points as encode_avx512 writes them: ASCII as
// itself, else the page entry (a one- or two-byte code), a wide code's
// index replaced by the code (`wide`: those lanes); 0 where there is none.
// `two`: the lanes of two-byte codes; `ok`: the lanes with a code.
PGCODEC_TARGET_AVX512_VBMI2 inline __m512i codes16(const TwoByteEncodeTables& t, __m512i cp, __mmask16& two,
                                                   __mmask16& wide, __mmask16& ok) {
  const __m512i one = _mm512_set1_epi32(1);
  const __mmask16 ascii = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(cp, one), _mm512_set1_epi32(0x7F));
  if (ascii == 0xFFFF) {
    two = wide = 0;
    ok = 0xFFFF;
    return cp;
  }
  const __m512i page = _mm512_maskz_srli_epi32(0xFFFF, cp, 8);
  const __mmask16 paged =
      _mm512_mask_cmplt_epu32_mask(static_cast<__mmask16>(~ascii), page, _mm512_set1_epi32(static_cast<int>(t.page_count)));
  const __m512i e = gather_u16(t.page_of, page, paged);
  const __mmask16 has = _mm512_mask_test_epi32_mask(paged, e, e);
  const __m512i at = _mm512_add_epi32(_mm512_maskz_slli_epi32(0xFFFF, _mm512_sub_epi32(e, one), 8),
                                      _mm512_and_si512(cp, _mm512_set1_epi32(0xFF)));
  __m512i v = _mm512_mask_mov_epi32(gather_u16(t.pages, at, has), ascii, cp);
  two = _mm512_cmpge_epu32_mask(v, _mm512_set1_epi32(0x8000));
  const __m512i index = _mm512_sub_epi32(v, _mm512_set1_epi32(0x100));
  wide = _mm512_cmplt_epu32_mask(index, _mm512_set1_epi32(0x8000 - 0x100));
  ok = static_cast<__mmask16>(two | wide | _mm512_cmplt_epu32_mask(_mm512_sub_epi32(v, one), _mm512_set1_epi32(0xFF)));
  if (wide) v = _mm512_mask_i32gather_epi32(v, wide, index, t.wide_codes, 4);
  return v;
}

// Stores the codes c of the lanes `keep` (a prefix), each of its length
// (1 to 4 bytes, high byte first), at out; returns the bytes. 64 bytes
// may be written.
PGCODEC_TARGET_AVX512_VBMI2 inline std::size_t store_codes(char* out, __m512i c, __mmask16 keep) {
  const __m512i x100 = _mm512_set1_epi32(0x100);
  __m512i len = _mm512_set1_epi32(1);
  len = _mm512_mask_add_epi32(len, _mm512_cmpge_epu32_mask(c, x100), len, _mm512_set1_epi32(1));
  len = _mm512_mask_add_epi32(len, _mm512_cmpge_epu32_mask(c, _mm512_set1_epi32(0x10000)), len, _mm512_set1_epi32(1));
  len = _mm512_mask_add_epi32(len, _mm512_cmpge_epu32_mask(c, _mm512_set1_epi32(0x1000000)), len, _mm512_set1_epi32(1));
  // The code's first byte to the lane's top, then the lane's bytes reversed.
  const __m512i top =
      _mm512_maskz_sllv_epi32(0xFFFF, c, _mm512_maskz_slli_epi32(0xFFFF, _mm512_sub_epi32(_mm512_set1_epi32(4), len), 3));
  const __m512i reversed = _mm512_shuffle_epi8(
      top, _mm512_set4_epi32(0x0C0D0E0F, 0x08090A0B, 0x04050607, 0x00010203));
  const __m512i repeated = _mm512_mullo_epi32(len, _mm512_set1_epi32(0x01010101));
  const std::uint64_t lanes = _pdep_u64(keep, 0x1111111111111111ull) * 0xF;
  const std::uint64_t bytes = _mm512_cmplt_epu8_mask(_mm512_set1_epi32(0x03020100), repeated) & lanes;
  _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(bytes, reversed));
  return static_cast<std::size_t>(_mm_popcnt_u64(bytes));
}

// Of 16 code points, those that are no character (NUL, a surrogate, above
// U+10FFFF) or the second of a pair.
PGCODEC_TARGET_AVX512_VBMI2 inline __mmask16 look_ahead16(const TwoByteEncodeTables& t, __m512i cp) {
  __mmask16 m = _mm512_cmpeq_epi32_mask(cp, _mm512_setzero_si512()) |
                _mm512_cmplt_epu32_mask(_mm512_sub_epi32(cp, _mm512_set1_epi32(0xD800)), _mm512_set1_epi32(0x800)) |
                _mm512_cmpgt_epu32_mask(cp, _mm512_set1_epi32(0x10FFFF));
  for (unsigned s = 0; s < t.second_count; ++s)
    m |= _mm512_cmpeq_epi32_mask(cp, _mm512_set1_epi32(static_cast<int>(t.seconds[s])));
  return m;
}

// The codes c with the lanes of two-byte codes (`two`) in memory order:
// the high byte low.
PGCODEC_TARGET_AVX512_VBMI2 inline __m512i swap_two(__m512i c, __mmask16 two) {
  return _mm512_mask_mov_epi32(
      c, two,
      _mm512_or_si512(_mm512_maskz_srli_epi32(0xFFFF, c, 8),
                      _mm512_maskz_slli_epi32(0xFFFF, _mm512_and_si512(c, _mm512_set1_epi32(0xFF)), 8)));
}

PGCODEC_TARGET_AVX512_VBMI2 inline __m512i load16(const void* in, std::size_t i, unsigned unit) {
  if (unit == 2)
    return _mm512_maskz_cvtepu16_epi32(
        0xFFFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(static_cast<const std::uint16_t*>(in) + i)));
  return _mm512_loadu_si512(static_cast<const std::uint32_t*>(in) + i);
}

}  // namespace

PGCODEC_TARGET_AVX512_VBMI2
std::size_t two_byte_encode_avx512(const TwoByteEncodeTables& t, const void* in, std::size_t n, unsigned unit,
                                   char* out, std::size_t cap, std::size_t& written) noexcept {
  // The low 16 bits of each 32-bit lane of two vectors.
  const __m512i evens = _mm512_set_epi16(62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32, 30, 28, 26,
                                         24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  const bool pairs = t.seconds != nullptr;
  const std::size_t need = pairs ? 33 : 32;
  std::size_t i = 0, w = 0;
  while (n - i >= need && cap - w >= 128) {
    const __m512i cp0 = load16(in, i, unit), cp1 = load16(in, i + 16, unit);
    __mmask16 two0, wide0, ok0, two1, wide1, ok1;
    const __m512i c0 = codes16(t, cp0, two0, wide0, ok0);
    const __m512i c1 = codes16(t, cp1, two1, wide1, ok1);
    std::uint32_t ok = ok0 | std::uint32_t{ok1} << 16;
    if (pairs) {
      // A character is taken when the next unit is a character and no
      // pair's second (the family's loop looks ahead as encode() does).
      const std::uint32_t after = look_ahead16(t, load16(in, i + 1, unit)) |
                                  std::uint32_t{look_ahead16(t, load16(in, i + 17, unit))} << 16;
      ok &= ~after;
    }
    const std::uint32_t keep = ~ok ? _bzhi_u32(~0u, static_cast<unsigned>(__builtin_ctz(~ok))) : ~0u;
    if ((wide0 | wide1) == 0) {
      // One or two bytes each: 32 lanes of 16 bits, the code's first byte
      // low; a character's first byte is kept, its second when it has one.
      const std::uint32_t two = (two0 | std::uint32_t{two1} << 16) & keep;
      const __m512i words = _mm512_permutex2var_epi16(swap_two(c0, two0), evens, swap_two(c1, two1));
      const std::uint64_t bytes = _pdep_u64(keep, 0x5555555555555555ull) | _pdep_u64(two, 0xAAAAAAAAAAAAAAAAull);
      _mm512_storeu_si512(out + w, _mm512_maskz_compress_epi8(bytes, words));
      w += static_cast<std::size_t>(_mm_popcnt_u64(bytes));
    } else {
      // Codes of three or four bytes among them: four bytes a lane.
      w += store_codes(out + w, c0, static_cast<__mmask16>(keep));
      w += store_codes(out + w, c1, static_cast<__mmask16>(keep >> 16));
    }
    if (keep != ~0u) {
      i += static_cast<std::size_t>(_mm_popcnt_u32(keep));
      break;
    }
    i += 32;
  }
  written = w;
  return i;
}

}  // namespace pgcodec::kernels
#endif
