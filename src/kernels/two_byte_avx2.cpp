// The AVX2 two-byte decode kernel (see two_byte.hpp): the AVX-512 kernel's
// plan without vpcompressb, vpermi2b and masked stores. Per block of 64
// bytes: the characters found from bit masks (lead_bytes), as the scalar
// block (codecs/multibyte.cpp, decode_block64) finds them; their first and
// second bytes squeezed together eight bytes at a time with vpshufb; then 8
// characters at a time: a two- or three-byte code's value read from
// TwoByteTables::pair_values (by its bytes after any SS3; a scalar load a
// lane, pack_avx2.hpp's load_u16), a single's code point likewise, ASCII
// as it is. The block's output is built in a buffer and copied out with
// stores that end exactly at its end, so nothing is stored past what the
// kernel reports.
#include "kernels/target.hpp"
#include "kernels/two_byte.hpp"

#if defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>

#include "kernels/pack_avx2.hpp"

namespace pgcodec::kernels {
namespace {

// The bytes at in[k] and in[k + 1] (and in[k + 2] when Thirds) for each k
// whose bit of `starts` is set, in order, to firsts and seconds (and
// thirds); returns how many. Stores 8 bytes past the last (each needs 72
// bytes of room).
template <bool Thirds>
PGCODEC_TARGET_AVX2 inline unsigned squeeze(const unsigned char* in, std::uint64_t starts, unsigned char* firsts,
                                            unsigned char* seconds, unsigned char* thirds) noexcept {
  unsigned k = 0;
  for (unsigned c = 0; c < 8; ++c) {
    const unsigned m = static_cast<unsigned>(starts >> (8 * c)) & 0xFFu;
    const __m128i control = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kPack8.shuffle[m]));
    const __m128i a = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + 8 * c));
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + 8 * c + 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(firsts + k), _mm_shuffle_epi8(a, control));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(seconds + k), _mm_shuffle_epi8(b, control));
    if constexpr (Thirds) {
      const __m128i d = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + 8 * c + 2));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(thirds + k), _mm_shuffle_epi8(d, control));
    }
    k += kPack8.count[m];
  }
  return k;
}

// x > y for values below 2^31, as all here are.
PGCODEC_TARGET_AVX2 inline __m256i gt(__m256i x, __m256i y) noexcept { return _mm256_cmpgt_epi32(x, y); }

// A block of 64 bytes with no high byte and no NUL, as it is, in units of
// `unit` bytes (1, 2 or 4; UTF-8 is 1).
PGCODEC_TARGET_AVX2 inline void store_ascii(char* o, const unsigned char* in, unsigned unit) noexcept {
  for (int k = 0; k < 4; ++k) {
    const __m128i part = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * k));
    if (unit <= 1) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o + 16 * k), part);
    } else if (unit == 2) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32 * k), _mm256_cvtepu8_epi16(part));
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 64 * k), _mm256_cvtepu8_epi32(part));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 64 * k + 32),
                          _mm256_cvtepu8_epi32(_mm_srli_si128(part, 8)));
    }
  }
}

// Stores 8 code points (below U+10000, no surrogates) at d, as units of
// `unit` bytes or as UTF-8 (unit 0); returns the bytes the first `keep`
// of them take. May store up to 32 bytes past those.
PGCODEC_TARGET_AVX2 inline std::size_t store8(unsigned char* d, __m256i c, unsigned unit, unsigned keep) noexcept {
  switch (unit) {
    case 1:
    case 2: {
      const __m128i u16 = _mm_packus_epi32(_mm256_castsi256_si128(c), _mm256_extracti128_si256(c, 1));
      if (unit == 2) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d), u16);
      } else {
        _mm_storel_epi64(reinterpret_cast<__m128i*>(d), _mm_packus_epi16(u16, u16));
      }
      return keep * unit;
    }
    case 4:
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), c);
      return keep * 4;
    default: {
      const std::size_t all = store_utf8_8<false>(reinterpret_cast<char*>(d), c);
      if (keep == 8) return all;
      // The first keep lanes' lengths: one byte, a second from U+0080, a
      // third from U+0800.
      const unsigned lanes = (1u << keep) - 1u;
      const auto two = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(gt(c, _mm256_set1_epi32(0x7F)))));
      const auto three =
          static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(gt(c, _mm256_set1_epi32(0x7FF)))));
      return keep + kPack8.count[two & lanes] + kPack8.count[three & lanes];  // (bit counts)
    }
  }
}

}  // namespace

PGCODEC_TARGET_AVX2
std::size_t two_byte_decode_avx2(const TwoByteTables& t, const unsigned char* in, std::size_t n, void* out,
                                 std::size_t cap, unsigned unit, char32_t limit, std::size_t& written) noexcept {
  const std::size_t size = unit ? unit : 1;
  const std::size_t room = unit ? 64 : 63 * 3;
  const bool singles = t.single_lo <= t.single_hi;
  const __m256i x7f = _mm256_set1_epi32(0x7F);
  const __m256i single_below = _mm256_set1_epi32(static_cast<int>(t.single_lo) - 1);
  const __m256i single_above = _mm256_set1_epi32(static_cast<int>(t.single_hi) + 1);
  const __m256i lim = _mm256_set1_epi32(static_cast<int>(limit));
  alignas(32) unsigned char firsts[72] = {}, seconds[72] = {}, thirds[72] = {};
  alignas(32) unsigned char stage[64 * 4 + 32];
  std::size_t i = 0, w = 0;
  while (n - i >= 66 && cap - w >= room) {
    const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i + 32));
    const std::uint64_t high = static_cast<std::uint32_t>(_mm256_movemask_epi8(v0)) |
                               std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(v1))} << 32;
    const __m256i z = _mm256_setzero_si256();
    const std::uint64_t zero =
        static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, z))) |
        std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, z)))} << 32;
    char* const o = static_cast<char*>(out) + w * size;
    if ((high | zero) == 0) {
      store_ascii(o, in + i, unit);
      i += 64;
      w += 64;
      continue;
    }
    std::uint64_t single = 0;
    if (singles) {
      // single_lo <= byte <= single_hi, unsigned: byte - single_lo <= span.
      const __m256i lo8 = _mm256_set1_epi8(static_cast<char>(t.single_lo));
      const __m256i span = _mm256_set1_epi8(static_cast<char>(t.single_hi - t.single_lo));
      const __m256i o0 = _mm256_sub_epi8(v0, lo8), o1 = _mm256_sub_epi8(v1, lo8);
      single = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(o0, span), o0))) |
               std::uint64_t{static_cast<std::uint32_t>(
                   _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(o1, span), o1)))}
                   << 32;
      single &= high;
    }
    // SS3 (8F) is a three-byte code's lead wherever it is: the bytes after
    // one end a run of two-byte codes, and its two are its trails.
    std::uint64_t ss3 = 0;
    if (t.ss3_rows) {
      const __m256i x8f = _mm256_set1_epi8(static_cast<char>(0x8F));
      ss3 = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, x8f))) |
            std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, x8f)))} << 32;
    }
    const std::uint64_t lead = lead_bytes(high & ~single & ~(ss3 | ss3 << 1 | ss3 << 2));
    const std::uint64_t trail = lead << 1 | ss3 << 1 | ss3 << 2;
    // Characters that start before byte 63 (a lead there has its trail in
    // the next block), before an SS3 at 62 or 63 (likewise) and before the
    // first NUL.
    const auto stop = static_cast<unsigned>(
        __builtin_ctzll(zero | (ss3 & (std::uint64_t{3} << 62)) | (std::uint64_t{1} << 63)));
    // A block that would stop within 16 bytes is left to the family's loop
    // whole: its few characters are cheaper there.
    if (stop < 16) break;
    const std::uint64_t starts = ~trail & ((std::uint64_t{1} << stop) - 1u);
    const bool threes = (ss3 & starts) != 0;
    const unsigned count = threes ? squeeze<true>(in + i, starts, firsts, seconds, thirds)
                                  : squeeze<false>(in + i, starts, firsts, seconds, thirds);
    std::size_t bytes = 0;  // of stage
    for (unsigned g = 0; g < count; g += 8) {
      const __m256i b = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(firsts + g)));
      const __m256i b1 = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(seconds + g)));
      const __m256i high8 = gt(b, x7f);
      const __m256i single8 =
          singles ? _mm256_and_si256(gt(b, single_below), gt(single_above, b)) : _mm256_setzero_si256();
      const __m256i lead8 = _mm256_andnot_si256(single8, high8);
      // A three-byte code's lanes (its SS3 lead is a lead here too).
      const __m256i m3 = threes ? _mm256_cmpeq_epi32(b, _mm256_set1_epi32(0x8F)) : _mm256_setzero_si256();
      // A two-byte code's value in one read: (b & 0x7F) << 8 | b1.
      const __m256i pair = _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(b, x7f), 8), b1);
      __m256i c = _mm256_or_si256(_mm256_andnot_si256(high8, b),
                                  _mm256_and_si256(load_u16(t.pair_values, pair), _mm256_andnot_si256(m3, lead8)));
      if (threes && _mm256_movemask_epi8(m3)) {
        // A three-byte code 8F b1 b2: its value by b1 (from 0x80) and b2.
        const __m256i b2 = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(thirds + g)));
        const __m256i at = _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(b1, x7f), 8), b2);
        c = _mm256_or_si256(c, _mm256_and_si256(load_u16(t.pair_values + 32768, at), _mm256_and_si256(m3, gt(b1, x7f))));
      }
      if (singles && _mm256_movemask_epi8(single8))
        c = _mm256_or_si256(c, _mm256_and_si256(load_u16(t.one, _mm256_and_si256(b, x7f)), single8));
      // A character it takes: a code point (not 0: no entry, a lead whose
      // trail is not in its row, a single without one), not a wide entry's
      // index (D800..DFFF), within the limit.
      const __m256i wide = _mm256_and_si256(gt(c, _mm256_set1_epi32(0xD7FF)), gt(_mm256_set1_epi32(0xE000), c));
      const __m256i no = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi32(c, _mm256_setzero_si256()), wide),
                                         gt(c, lim));
      const unsigned valid = count - g >= 8 ? 0xFFu : (1u << (count - g)) - 1u;
      const unsigned bad = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(no))) & valid;
      // (valid is a prefix of the lanes: its bit count is kPack8.count.)
      const unsigned keep = bad ? static_cast<unsigned>(__builtin_ctz(bad)) : kPack8.count[valid];
      bytes += store8(stage + bytes, c, unit, keep);
      if (bad) {
        // The input offset of that character: the (g + keep)-th start.
        std::uint64_t s = starts;
        for (unsigned k = g + keep; k; --k) s &= s - 1;
        copy_exact(o, stage, bytes);
        written = w + bytes / size;
        return i + static_cast<std::size_t>(__builtin_ctzll(s));
      }
    }
    copy_exact(o, stage, bytes);
    i += stop + ((trail >> stop) & 1u);
    w += bytes / size;
    if (stop < 63) break;  // before a NUL
  }
  written = w;
  return i;
}

namespace {

// For each 8-bit mask of two-byte codes among 8 codes of one or two bytes
// (16-bit lanes, the code's first byte low), the vpshufb control that keeps
// each lane's first byte and a two-byte code's second, in order, and their
// count.
constexpr PackTable<16> kPackCodes =
    make_pack<16, 8, 2>([](unsigned m, unsigned lane) { return 1 + ((m >> lane) & 1u); });

PGCODEC_TARGET_AVX2 inline __m256i load8(const void* in, std::size_t i, unsigned unit) noexcept {
  if (unit == 2)
    return _mm256_cvtepu16_epi32(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const std::uint16_t*>(in) + i)));
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(static_cast<const std::uint32_t*>(in) + i));
}

// x / d in each lane, for x below 2^22 and d below 2^16: the float
// quotient truncated is off by at most one either way (x is exact as a
// float, the product's relative error under 2^-22), which the remainder
// corrects.
PGCODEC_TARGET_AVX2 inline __m256i div_small(__m256i x, int d) noexcept {
  const __m256i q = _mm256_cvttps_epi32(
      _mm256_mul_ps(_mm256_cvtepi32_ps(x), _mm256_set1_ps(1.0f / static_cast<float>(d))));
  const __m256i r = _mm256_sub_epi32(x, _mm256_mullo_epi32(q, _mm256_set1_epi32(d)));
  // (Compare masks are -1: adding "r < 0" takes one off, subtracting "r >= d" adds one.)
  return _mm256_sub_epi32(_mm256_add_epi32(q, _mm256_cmpgt_epi32(_mm256_setzero_si256(), r)),
                          _mm256_cmpgt_epi32(r, _mm256_set1_epi32(d - 1)));
}

// table.hpp's gb18030_code in each lane (linear below 2^22).
PGCODEC_TARGET_AVX2 inline __m256i gb18030_code8(__m256i linear) noexcept {
  const __m256i q10 = div_small(linear, 10), q1260 = div_small(linear, 1260), q12600 = div_small(linear, 12600);
  const __m256i b4 = _mm256_sub_epi32(linear, _mm256_mullo_epi32(q10, _mm256_set1_epi32(10)));
  const __m256i b3 = _mm256_sub_epi32(q10, _mm256_mullo_epi32(q1260, _mm256_set1_epi32(126)));
  const __m256i b2 = _mm256_sub_epi32(q1260, _mm256_mullo_epi32(q12600, _mm256_set1_epi32(10)));
  const __m256i code = _mm256_or_si256(_mm256_or_si256(_mm256_slli_epi32(q12600, 24), _mm256_slli_epi32(b2, 16)),
                                       _mm256_or_si256(_mm256_slli_epi32(b3, 8), b4));
  return _mm256_add_epi32(code, _mm256_set1_epi32(static_cast<int>(0x81308130u)));
}

// Of 8 code points, those that are no character (NUL, a surrogate, above
// U+10FFFF: as unsigned, so a unit above 0x7FFFFFFF too) or the second of
// a pair; a movemask_ps.
PGCODEC_TARGET_AVX2 inline unsigned look_ahead8(const TwoByteEncodeTables& t, __m256i cp) noexcept {
  const __m256i z = _mm256_setzero_si256();
  __m256i m = _mm256_or_si256(
      _mm256_or_si256(_mm256_cmpeq_epi32(cp, z),
                      _mm256_cmpeq_epi32(_mm256_srli_epi32(cp, 11), _mm256_set1_epi32(0xD800 >> 11))),
      gt(_mm256_srli_epi32(cp, 16), _mm256_set1_epi32(0x10)));
  for (unsigned s = 0; s < t.second_count; ++s)
    m = _mm256_or_si256(m, _mm256_cmpeq_epi32(cp, _mm256_set1_epi32(static_cast<int>(t.seconds[s]))));
  return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(m)));
}

}  // namespace

PGCODEC_TARGET_AVX2
std::size_t two_byte_encode_avx2(const TwoByteEncodeTables& t, const void* in, std::size_t n, unsigned unit,
                                 char* out, std::size_t cap, std::size_t& written) noexcept {
  const bool pairs = t.seconds != nullptr;
  const std::size_t need = pairs ? 9 : 8;
  const __m256i one = _mm256_set1_epi32(1), z = _mm256_setzero_si256();
  const __m256i pages = _mm256_set1_epi32(static_cast<int>(t.page_count));
  std::size_t i = 0, w = 0;
  while (n - i >= need && cap - w >= 64) {
    const __m256i cp = load8(in, i, unit);
    // 1..7F, signed: a unit above 0x7FFFFFFF is negative.
    const __m256i ascii = _mm256_and_si256(gt(cp, z), gt(_mm256_set1_epi32(0x80), cp));
    const unsigned ascii_bits = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ascii)));
    __m256i v = cp;
    __m256i four = z;  // lanes whose v is a GB18030 four-byte code
    unsigned two = 0, wide = 0, ok = 0xFF;
    if (ascii_bits != 0xFF) {
      // The page entries: from bmp, one read a lane, for the BMP (a unit of
      // 2 bytes always is); from page_of and then the page for the rest.
      // The BMP's by eight scalar loads, not a gather: the bench's 1 KB
      // pieces of BIG5, EUC_KR, EUC_JP and SJIS from Python encoded in
      // 1,110, 1,061, 1,069 and 1,074 ns against 1,288, 1,252, 1,239 and
      // 1,253 with vpgatherdd (38 % of the kernel's samples on the
      // instruction after it; Zen 3's gather issues a load a lane anyway).
      __m256i rest = _mm256_andnot_si256(ascii, _mm256_cmpeq_epi32(z, z));
      __m256i entry = z;
      // Signed: a unit above 0x7FFFFFFF is no BMP lane.
      const __m256i bmp = _mm256_andnot_si256(
          ascii, _mm256_and_si256(gt(cp, _mm256_set1_epi32(-1)), gt(_mm256_set1_epi32(0x10000), cp)));
      if (t.bmp) {
        entry = _mm256_and_si256(load_u16(t.bmp, _mm256_and_si256(cp, _mm256_set1_epi32(0xFFFF))), bmp);
        rest = _mm256_andnot_si256(bmp, rest);
      }
      // (Only for a page there is: GB18030's U+10000 and up have none.)
      const __m256i page = _mm256_srli_epi32(cp, 8);
      const __m256i paged = _mm256_and_si256(rest, gt(pages, page));
      if (_mm256_movemask_ps(_mm256_castsi256_ps(paged))) {
        const __m256i e = gather_u16(t.page_of, page, paged);
        const __m256i has = _mm256_andnot_si256(_mm256_cmpeq_epi32(e, z), paged);
        const __m256i at = _mm256_add_epi32(_mm256_slli_epi32(_mm256_sub_epi32(e, one), 8),
                                            _mm256_and_si256(cp, _mm256_set1_epi32(0xFF)));
        entry = _mm256_or_si256(entry, gather_u16(t.pages, at, has));
      }
      v = _mm256_blendv_epi8(entry, cp, ascii);
      // GB18030's four-byte codes (no page entry): a BMP code point's linear
      // index from bmp_linear, a supplementary one's from its offset in
      // their run; the code computed.
      if (t.bmp_linear) {
        const __m256i none = _mm256_andnot_si256(ascii, _mm256_cmpeq_epi32(entry, z));
        if (_mm256_movemask_ps(_mm256_castsi256_ps(none))) {
          // (Every BMP lane read, not only those with no entry: 0 where a
          // page has one, and the read need not wait for the entries.)
          const __m256i lin1 = gather_u16(t.bmp_linear, cp, bmp);
          const __m256i supplementary = _mm256_and_si256(
              none, _mm256_and_si256(gt(cp, _mm256_set1_epi32(0xFFFF)), gt(_mm256_set1_epi32(0x110000), cp)));
          const __m256i linear = _mm256_blendv_epi8(
              _mm256_sub_epi32(lin1, one),
              _mm256_add_epi32(cp, _mm256_set1_epi32(static_cast<int>(t.supplementary_linear) - 0x10000)),
              supplementary);
          four = _mm256_or_si256(_mm256_andnot_si256(_mm256_cmpeq_epi32(lin1, z), _mm256_and_si256(none, bmp)),
                                 supplementary);
          v = _mm256_blendv_epi8(v, gb18030_code8(linear), four);
        }
      }
      // Entries: 0x8000 and up a two-byte code, 0x100..0x7FFF a wide code's
      // index from 0x100, 1..0xFF a one-byte code, 0 none; and the four-byte
      // codes just computed.
      const __m256i two8 = _mm256_andnot_si256(four, gt(v, _mm256_set1_epi32(0x7FFF)));
      const __m256i wide8 = _mm256_and_si256(gt(v, _mm256_set1_epi32(0xFF)), gt(_mm256_set1_epi32(0x8000), v));
      const __m256i ok8 = _mm256_andnot_si256(_mm256_cmpeq_epi32(v, z), _mm256_or_si256(two8, gt(_mm256_set1_epi32(0x100), v)));
      const unsigned fours = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(four)));
      two = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(two8)));
      wide = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(wide8)));
      ok = (static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(ok8))) & ~fours) | wide | fours;
      if (wide)
        v = _mm256_mask_i32gather_epi32(v, reinterpret_cast<const int*>(t.wide_codes),
                                        _mm256_sub_epi32(v, _mm256_set1_epi32(0x100)), wide8, 4);
      wide |= fours;  // (codes of three or four bytes, packed alike)
    }
    // A character is taken when the next unit is a character and no pair's
    // second (the family's loop looks ahead as encode() does).
    if (pairs) ok &= ~look_ahead8(t, load8(in, i + 1, unit));
    const unsigned refused = ~ok & 0xFFu;
    const unsigned keep = refused ? static_cast<unsigned>(__builtin_ctz(refused)) : 8u;  // the prefix taken
    const unsigned lanes = (1u << keep) - 1u;
    if (wide == 0) {
      // One or two bytes each: 16-bit lanes, the code's first byte low.
      const __m256i swapped =
          _mm256_blendv_epi8(v, _mm256_or_si256(_mm256_srli_epi32(v, 8), _mm256_slli_epi32(_mm256_and_si256(v, _mm256_set1_epi32(0xFF)), 8)),
                             gt(v, _mm256_set1_epi32(0x7FFF)));
      const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(swapped), _mm256_extracti128_si256(swapped, 1));
      const unsigned key = two & lanes;
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + w),
                       _mm_shuffle_epi8(words, _mm_load_si128(reinterpret_cast<const __m128i*>(kPackCodes.shuffle[key]))));
      w += keep + kPack8.count[key];
    } else {
      // Codes of three or four bytes among them: each code's bytes first
      // byte low in its lane (shifted to the lane's top, then reversed),
      // packed by their lengths as UTF-8 is.
      // (Unsigned: a four-byte code from 0x80000000 on, EUC_TW's 8E A1..,
      // is negative to the signed compare.)
      const __m256i all = _mm256_cmpeq_epi32(z, z);
      const __m256i ge100 = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_srli_epi32(v, 8), z), all);
      const __m256i ge10000 = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_srli_epi32(v, 16), z), all);
      const __m256i ge1000000 = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_srli_epi32(v, 24), z), all);
      // Length less one (0..3) as a low bit and a high bit, and the shift
      // that brings the code's first byte to the lane's top: 8 * (3 - it).
      const __m256i low_bit = _mm256_or_si256(_mm256_andnot_si256(ge10000, ge100), ge1000000);
      const __m256i high_bit = ge10000;
      const __m256i len1 = _mm256_sub_epi32(z, _mm256_add_epi32(_mm256_add_epi32(ge100, ge10000), ge1000000));
      const __m256i top = _mm256_sllv_epi32(v, _mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(3), len1), 3));
      const __m256i reversed = _mm256_shuffle_epi8(
          top, _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9,
                                8, 15, 14, 13, 12));
      const unsigned lows = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(low_bit))) & lanes;
      const unsigned highs = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(high_bit))) & lanes;
      const unsigned key0 = (lows & 0xFu) | ((highs & 0xFu) << 4), key1 = (lows >> 4) | (highs & 0xF0u);
      const __m256i control = _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(kPackUtf8.shuffle[key1]),
                                                  reinterpret_cast<const __m128i*>(kPackUtf8.shuffle[key0]));
      const __m256i packed = _mm256_shuffle_epi8(reversed, control);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + w), _mm256_castsi256_si128(packed));
      // Lanes past keep count as one byte each in the keys (their bits are
      // cleared): the bytes of the kept lanes are the first ones.
      const std::size_t first = keep >= 4 ? kPackUtf8.count[key0] : 0;
      std::size_t kept = 0;
      if (keep >= 4) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + w + first), _mm256_extracti128_si256(packed, 1));
        kept = first + (keep - 4) + kPack8.count[lows >> 4] + 2 * kPack8.count[highs >> 4];
      } else {
        kept = keep + kPack8.count[lows & 0xFu] + 2 * kPack8.count[highs & 0xFu];
      }
      w += kept;
    }
    if (keep != 8) {
      i += keep;
      break;
    }
    i += 8;
  }
  written = w;
  return i;
}

}  // namespace pgcodec::kernels

#endif
