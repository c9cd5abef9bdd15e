// The AVX-512 single-byte decode kernel (see single_byte.hpp). Per block of
// 64 bytes: three 128-entry table lookups (VBMI's vpermi2b: the high
// byte's low seven bits index the two 64-byte halves of a plane), the
// UTF-8 of every byte laid out as a pair (ASCII: the byte and a slot left
// unused; high: lead, trail), and the unused slots squeezed out with VBMI2's
// vpcompressb before a masked store of exactly the bytes made. The code-unit
// kernel needs only AVX-512F and BW (vpermi2w over the table's upper half).
#include "kernels/single_byte.hpp"
#include "kernels/target.hpp"

#if defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>

namespace pgcodec::kernels {
namespace {

// Byte indices for permutex2var that interleave a[base + j] and b[base + j]
// for j in [0, 32): the output pairs of input bytes base..base+31, in order.
struct InterleaveIndex {
  alignas(64) std::uint8_t lo[64];
  alignas(64) std::uint8_t hi[64];
  constexpr InterleaveIndex() : lo{}, hi{} {
    for (int j = 0; j < 32; ++j) {
      lo[2 * j] = static_cast<std::uint8_t>(j);
      lo[2 * j + 1] = static_cast<std::uint8_t>(64 + j);
      hi[2 * j] = static_cast<std::uint8_t>(32 + j);
      hi[2 * j + 1] = static_cast<std::uint8_t>(96 + j);
    }
  }
};
constexpr InterleaveIndex kInterleave{};

constexpr std::uint64_t kEven = 0x5555555555555555ull, kOdd = 0xAAAAAAAAAAAAAAAAull;

PGCODEC_TARGET_AVX512_VBMI2 inline std::size_t squeeze_store(char* out, __m512i pairs, std::uint64_t keep) {
  const __m512i packed = _mm512_maskz_compress_epi8(keep, pairs);
  const auto count = static_cast<unsigned>(_mm_popcnt_u64(keep));
  _mm512_mask_storeu_epi8(out, _bzhi_u64(~0ull, count), packed);
  return count;
}

}  // namespace

PGCODEC_TARGET_AVX512_VBMI2
std::size_t single_byte_decode_avx512(const SingleBytePlanes& t, const unsigned char* in,
                                      std::size_t n, char* out, std::size_t cap,
                                      std::size_t& written) noexcept {
  const __m512i lead0 = _mm512_loadu_si512(t.lead), lead1 = _mm512_loadu_si512(t.lead + 64);
  const __m512i trail0 = _mm512_loadu_si512(t.trail), trail1 = _mm512_loadu_si512(t.trail + 64);
  const __m512i two0 = _mm512_loadu_si512(t.two), two1 = _mm512_loadu_si512(t.two + 64);
  const __m512i lo_index = _mm512_load_si512(kInterleave.lo);
  const __m512i hi_index = _mm512_load_si512(kInterleave.hi);
  std::size_t i = 0, w = 0;
  while (n - i >= 64 && cap - w >= 128) {
    const __m512i v = _mm512_loadu_si512(in + i);
    const std::uint64_t high = _mm512_movepi8_mask(v);
    if (_mm512_testn_epi8_mask(v, v)) break;  // a NUL: the family reports it
    if (!high) {
      _mm512_storeu_si512(out + w, v);
      i += 64;
      w += 64;
      continue;
    }
    const __m512i two = _mm512_permutex2var_epi8(two0, v, two1);
    if (high & ~static_cast<std::uint64_t>(_mm512_test_epi8_mask(two, two))) break;
    const __m512i lead = _mm512_permutex2var_epi8(lead0, v, lead1);
    const __m512i trail = _mm512_permutex2var_epi8(trail0, v, trail1);
    const __m512i first = _mm512_mask_blend_epi8(high, v, lead);
    const __m512i lo = _mm512_permutex2var_epi8(first, lo_index, trail);
    const __m512i hi = _mm512_permutex2var_epi8(first, hi_index, trail);
    w += squeeze_store(out + w, lo, kEven | _pdep_u64(high & 0xFFFFFFFFu, kOdd));
    w += squeeze_store(out + w, hi, kEven | _pdep_u64(high >> 32, kOdd));
    i += 64;
  }
  written = w;
  return i;
}

namespace {

// Stores the lanes of `keep` of the 32 units c (16-bit lanes) as units of U
// bytes. (The maskz_ forms with every lane set: GCC 12 warns,
// maybe-uninitialized, on the undefined source of the plain ones.)
template <unsigned U>
PGCODEC_TARGET_AVX512 inline void store_units(void* out, __m512i c, std::uint32_t keep) {
  if constexpr (U == 1) {
    _mm512_mask_cvtepi16_storeu_epi8(out, keep, c);
  } else if constexpr (U == 2) {
    _mm512_mask_storeu_epi16(out, keep, c);
  } else {
    auto* o = static_cast<char*>(out);
    _mm512_mask_storeu_epi32(o, static_cast<__mmask16>(keep), _mm512_maskz_cvtepu16_epi32(0xFFFF, _mm512_maskz_extracti64x4_epi64(0xF, c, 0)));
    _mm512_mask_storeu_epi32(o + 64, static_cast<__mmask16>(keep >> 16),
                             _mm512_maskz_cvtepu16_epi32(0xFFFF, _mm512_maskz_extracti64x4_epi64(0xF, c, 1)));
  }
}

// Per 32 bytes (the last fewer: a masked load reads only the text's): the
// bytes widened to 16-bit lanes, the high ones looked up in the table's
// upper half (two 64-entry permutes, bit 6 choosing), ASCII kept as it is;
// a lane that is 0 (NUL, unmapped) or above the limit ends the run, and
// only the lanes before it are stored.
template <unsigned U>
PGCODEC_TARGET_AVX512 std::size_t units_loop(const char16_t* cp, const unsigned char* in, std::size_t n,
                                             void* out, char32_t limit) {
  const __m512i t0 = _mm512_loadu_si512(cp + 128), t1 = _mm512_loadu_si512(cp + 160);
  const __m512i t2 = _mm512_loadu_si512(cp + 192), t3 = _mm512_loadu_si512(cp + 224);
  const __m512i lim = _mm512_set1_epi16(static_cast<short>(limit > 0xFFFF ? 0xFFFF : limit));
  const __m512i x80 = _mm512_set1_epi16(0x80), x40 = _mm512_set1_epi16(0x40);
  std::size_t i = 0;
  while (i < n) {
    const std::uint32_t valid = n - i >= 32 ? ~0u : (1u << (n - i)) - 1u;
    const __m512i v = _mm512_maskz_cvtepu8_epi16(
        ~0u, _mm512_maskz_extracti64x4_epi64(0xF, _mm512_maskz_loadu_epi8(valid, in + i), 0));
    const __m512i lo = _mm512_permutex2var_epi16(t0, v, t1);  // code_point[128 + (v & 63)]
    const __m512i hi = _mm512_permutex2var_epi16(t2, v, t3);  // code_point[192 + (v & 63)]
    __m512i c = _mm512_mask_blend_epi16(_mm512_test_epi16_mask(v, x40), lo, hi);
    c = _mm512_mask_blend_epi16(_mm512_cmpge_epu16_mask(v, x80), v, c);
    const std::uint32_t bad = (_mm512_testn_epi16_mask(c, c) | _mm512_cmpgt_epu16_mask(c, lim)) & valid;
    const std::uint32_t keep = bad ? (1u << __builtin_ctz(bad)) - 1u : valid;
    store_units<U>(static_cast<char*>(out) + i * U, c, keep);
    if (bad) return i + static_cast<std::size_t>(__builtin_ctz(bad));
    i += n - i >= 32 ? 32 : n - i;
  }
  return i;
}

}  // namespace

PGCODEC_TARGET_AVX512
std::size_t single_byte_units_avx512(const char16_t* code_point, const unsigned char* in, std::size_t n,
                                     void* out, unsigned unit, char32_t limit) noexcept {
  switch (unit) {
    case 1: return units_loop<1>(code_point, in, n, out, limit);
    case 2: return units_loop<2>(code_point, in, n, out, limit);
    default: return units_loop<4>(code_point, in, n, out, limit);
  }
}

// Per block of 64 bytes of UTF-8: the block must be ASCII and well-formed
// two-byte characters only (each lead C2..DF followed by exactly one
// continuation byte; a lead in the last byte is left for the next block). For each distinct lead byte
// in the block (at most four, else the family's loop takes the block), one
// 64-entry lookup (vpermb) of the next bytes' low six bits in that lead's
// row gives the encoded byte at the lead's position; continuation bytes are
// then squeezed out.
PGCODEC_TARGET_AVX512_VBMI2
std::size_t single_byte_encode_avx512(const SingleBytePlanes& t, const unsigned char* in,
                                      std::size_t n, char* out, std::size_t cap,
                                      std::size_t& written) noexcept {
  const __m512i c2 = _mm512_set1_epi8(static_cast<char>(0xC2));
  const __m512i df = _mm512_set1_epi8(static_cast<char>(0xDF));
  const __m512i c0 = _mm512_set1_epi8(static_cast<char>(0xC0));
  std::size_t i = 0, w = 0;
  // 65 bytes readable: each block also loads the byte after it.
  while (n - i >= 65 && cap - w >= 64) {
    const __m512i v = _mm512_loadu_si512(in + i);
    const std::uint64_t high = _mm512_movepi8_mask(v);
    if (_mm512_testn_epi8_mask(v, v)) break;  // a NUL
    if (!high) {
      _mm512_storeu_si512(out + w, v);
      i += 64;
      w += 64;
      continue;
    }
    const std::uint64_t leads = _mm512_cmpge_epu8_mask(v, c2) & _mm512_cmple_epu8_mask(v, df);
    const std::uint64_t cont = high & _mm512_cmplt_epu8_mask(v, c0);
    // Anything else high (C0, C1, three- and four-byte leads, F5..FF) or a
    // continuation without its lead: the family's loop decides.
    if ((leads | cont) != high || cont != (leads << 1)) break;
    // A lead in the last byte has its continuation in the next block: this
    // block is then 63 bytes long.
    const std::uint64_t cut = leads & (std::uint64_t{1} << 63);
    const std::uint64_t lead = leads & ~cut;
    const __m512i next = _mm512_loadu_si512(in + i + 1);
    __m512i bytes = v;
    std::uint64_t left = lead;
    int rounds = 0;
    while (left && ++rounds <= 4) {
      const unsigned l = in[i + static_cast<std::size_t>(__builtin_ctzll(left))];
      const std::uint64_t same = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(l))) & lead;
      const __m512i row = _mm512_loadu_si512(t.from_two[l & 0x1Fu]);
      bytes = _mm512_mask_mov_epi8(bytes, same, _mm512_maskz_permutexvar_epi8(~std::uint64_t{0}, next, row));
      left &= ~same;
    }
    if (left) break;  // more than four distinct leads
    if (_mm512_testn_epi8_mask(bytes, bytes) & lead) break;  // a character it lacks
    const std::uint64_t keep = ~cont & ~cut;
    const __m512i packed = _mm512_maskz_compress_epi8(keep, bytes);
    const auto count = static_cast<unsigned>(_mm_popcnt_u64(keep));
    _mm512_mask_storeu_epi8(out + w, _bzhi_u64(~0ull, count), packed);
    i += cut ? 63 : 64;
    w += count;
  }
  written = w;
  return i;
}

}  // namespace pgcodec::kernels
#endif
