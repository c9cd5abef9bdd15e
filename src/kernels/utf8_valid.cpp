// How the SIMD kernels find the exact end of the run: they check 64-byte
// blocks, each with the last bytes of the block before (a character may
// cross the boundary), and stop at the first block with an error. Every
// byte before that block then belongs to a valid character, except that the
// last character may still be waiting for continuation bytes in the block;
// so the scalar loop takes over from the start of that last character and
// stops exactly where the twin would. The end of the input is a block of
// its own: the bytes left, then spaces (an ASCII byte, so a character cut
// off by the end is an error there), copied or loaded under a mask, never
// read past p + n.
#include "kernels/utf8_valid.hpp"

#include <cstdint>
#include <cstring>

#include "kernels/ascii.hpp"
#include "kernels/utf8_lookup.hpp"
#include "rules/utf8.hpp"

#if defined(__SSE2__) || defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>
#endif

namespace pgcodec::kernels {

std::size_t utf8_valid_run_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = p[i];
    if (c - 1u < 0x7Fu) {
      ++i;
    } else if (c >= 0x80) {
      const std::size_t l = detail::utf8_multibyte_length(p + i, n - i);
      if (!l) break;
      i += l;
    } else {
      break;  // NUL
    }
  }
  return i;
}

#if defined(__SSE2__)
std::size_t utf8_valid_run_sse2(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = p[i];
    if (c - 1u < 0x7Fu) {
      i += ascii_run_sse2(p + i, n - i);  // at least this byte
    } else if (c >= 0x80) {
      const std::size_t l = detail::utf8_multibyte_length(p + i, n - i);
      if (!l) break;
      i += l;
    } else {
      break;  // NUL
    }
  }
  return i;
}
#endif

#if defined(PGCODEC_KERNELS_X86)
namespace {

constexpr std::size_t kBlock = 64;

// The SIMD loop found an error in the block at `s` (or the input ends at s
// with a character still open): finish with the scalar loop from the start
// of the last character before s. Everything before that is valid.
std::size_t finish_scalar(const unsigned char* p, std::size_t n, std::size_t s) noexcept {
  std::size_t r = s;
  // The last character's lead is within 3 bytes of s unless that character
  // is a complete 4-byte one (then s itself starts a character).
  for (std::size_t t = s; t > 0 && s - t < 3;) {
    --t;
    if (!detail::utf8_continuation(p[t])) {
      r = t;
      break;
    }
  }
  return r + utf8_valid_run_scalar(p + r, n - r);
}

// The bytes left after the last whole block, then spaces.
struct TailBlock {
  alignas(64) unsigned char bytes[kBlock];
  TailBlock(const unsigned char* p, std::size_t left) noexcept {
    std::memset(bytes, ' ', kBlock);
    if (left) std::memcpy(bytes, p, left);
  }
};

// ---- AVX2: a block is two 32-byte vectors.

struct Avx2State {
  __m256i prev;        // the vector before
  __m256i incomplete;  // non-zero when prev ends inside a character
};

PGCODEC_TARGET_AVX2 inline __m256i table256(const utf8_lookup::Table& t) noexcept {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data())));
}

// Non-zero bytes where `in`, after `prev`, has an error.
PGCODEC_TARGET_AVX2 inline __m256i errors256(__m256i in, __m256i prev) noexcept {
  const __m256i low = _mm256_set1_epi8(0x0F);
  // [prev's high lane, in's low lane], for byte shifts across the lanes.
  const __m256i cross = _mm256_permute2x128_si256(prev, in, 0x21);
  const __m256i prev1 = _mm256_alignr_epi8(in, cross, 15);
  const __m256i prev2 = _mm256_alignr_epi8(in, cross, 14);
  const __m256i prev3 = _mm256_alignr_epi8(in, cross, 13);
  const __m256i b1h = _mm256_shuffle_epi8(table256(utf8_lookup::kByte1High),
                                          _mm256_and_si256(_mm256_srli_epi16(prev1, 4), low));
  const __m256i b1l =
      _mm256_shuffle_epi8(table256(utf8_lookup::kByte1Low), _mm256_and_si256(prev1, low));
  const __m256i b2h = _mm256_shuffle_epi8(table256(utf8_lookup::kByte2High),
                                          _mm256_and_si256(_mm256_srli_epi16(in, 4), low));
  const __m256i special = _mm256_and_si256(_mm256_and_si256(b1h, b1l), b2h);
  // The high bit where the byte 2 back is >= 0xE0 or the one 3 back >= 0xF0:
  // this byte must be a continuation, and the pair kTwoConts.
  const __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8(static_cast<char>(0xE0 - 0x80)));
  const __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8(static_cast<char>(0xF0 - 0x80)));
  const __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth),
                                          _mm256_set1_epi8(static_cast<char>(0x80)));
  return _mm256_xor_si256(must23, special);
}

// Non-zero when `in` ends inside a character (a lead in its last 3 bytes
// that wants more bytes than are left).
PGCODEC_TARGET_AVX2 inline __m256i incomplete256(__m256i in) noexcept {
  const __m256i max = _mm256_setr_epi8(
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
      -1, -1, -1, -1, -1, -1, static_cast<char>(0xF0 - 1), static_cast<char>(0xE0 - 1),
      static_cast<char>(0xC0 - 1));
  return _mm256_subs_epu8(in, max);
}

// True when the 64 bytes at b, after the state's, are not all valid.
PGCODEC_TARGET_AVX2 inline bool block_fails_avx2(const unsigned char* b, Avx2State& st) noexcept {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 32));
  const __m256i zero = _mm256_setzero_si256();
  // 0xFF where lo or hi has a NUL (at that position in one of the two).
  const __m256i nul = _mm256_cmpeq_epi8(_mm256_min_epu8(lo, hi), zero);
  const __m256i high_or_nul = _mm256_or_si256(_mm256_or_si256(lo, hi), nul);
  if (!_mm256_movemask_epi8(high_or_nul)) {
    // ASCII without NUL: valid, unless the block before left a character open.
    if (!_mm256_testz_si256(st.incomplete, st.incomplete)) return true;
    st.prev = hi;
    return false;
  }
  const __m256i err =
      _mm256_or_si256(_mm256_or_si256(errors256(lo, st.prev), errors256(hi, lo)), nul);
  st.prev = hi;
  st.incomplete = incomplete256(hi);
  return !_mm256_testz_si256(err, err);
}

// ---- AVX-512: a block is one vector.

struct Avx512State {
  __m512i prev;
  bool incomplete;
};

PGCODEC_TARGET_AVX512 inline __m512i table512(const utf8_lookup::Table& t) noexcept {
  // The maskz_ forms here and below: GCC 12 warns (maybe-uninitialized) on
  // the undefined source register of the plain ones.
  return _mm512_maskz_broadcast_i32x4(0xFFFF,
                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data())));
}

PGCODEC_TARGET_AVX512 inline bool block_fails_avx512(__m512i in, Avx512State& st) noexcept {
  const __mmask64 nul = _mm512_testn_epi8_mask(in, in);
  if (!(_mm512_movepi8_mask(in) | nul)) {
    if (st.incomplete) return true;
    st.prev = in;
    return false;
  }
  if (nul) return true;
  const __m512i low = _mm512_set1_epi8(0x0F);
  // Lane i of `cross` is lane i - 1 of (prev, in): byte shifts across lanes.
  const __m512i cross = _mm512_maskz_alignr_epi64(0xFF, in, st.prev, 6);
  const __m512i prev1 = _mm512_alignr_epi8(in, cross, 15);
  const __m512i prev2 = _mm512_alignr_epi8(in, cross, 14);
  const __m512i prev3 = _mm512_alignr_epi8(in, cross, 13);
  const __m512i b1h = _mm512_shuffle_epi8(table512(utf8_lookup::kByte1High),
                                          _mm512_and_si512(_mm512_srli_epi16(prev1, 4), low));
  const __m512i b1l =
      _mm512_shuffle_epi8(table512(utf8_lookup::kByte1Low), _mm512_and_si512(prev1, low));
  const __m512i b2h = _mm512_shuffle_epi8(table512(utf8_lookup::kByte2High),
                                          _mm512_and_si512(_mm512_srli_epi16(in, 4), low));
  const __m512i special = _mm512_and_si512(_mm512_and_si512(b1h, b1l), b2h);
  const __m512i third = _mm512_subs_epu8(prev2, _mm512_set1_epi8(static_cast<char>(0xE0 - 0x80)));
  const __m512i fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8(static_cast<char>(0xF0 - 0x80)));
  const __m512i must23 = _mm512_and_si512(_mm512_or_si512(third, fourth),
                                          _mm512_set1_epi8(static_cast<char>(0x80)));
  const __m512i err = _mm512_xor_si512(must23, special);
  st.prev = in;
  // Open at the end: a lead >= 0xC0 last, >= 0xE0 one before, >= 0xF0 two before.
  const __mmask64 tail = _mm512_cmpgt_epu8_mask(
      in, _mm512_set_epi64(static_cast<long long>(0xBFDFEFFFFFFFFFFFu), -1, -1, -1, -1, -1, -1,
                           -1));
  st.incomplete = tail != 0;
  return _mm512_test_epi8_mask(err, err) != 0;
}

}  // namespace

PGCODEC_TARGET_AVX2 std::size_t utf8_valid_run_avx2(const unsigned char* p,
                                                    std::size_t n) noexcept {
  if (n < 16) return utf8_valid_run_scalar(p, n);
  Avx2State st{_mm256_setzero_si256(), _mm256_setzero_si256()};
  std::size_t i = 0;
  for (; n - i >= kBlock; i += kBlock)
    if (block_fails_avx2(p + i, st)) return finish_scalar(p, n, i);
  const TailBlock tail(p + i, n - i);
  if (block_fails_avx2(tail.bytes, st)) return finish_scalar(p, n, i);
  return n;
}

PGCODEC_TARGET_AVX512 std::size_t utf8_valid_run_avx512(const unsigned char* p,
                                                        std::size_t n) noexcept {
  Avx512State st{_mm512_setzero_si512(), false};
  const __m512i spaces = _mm512_set1_epi8(' ');
  std::size_t i = 0;
  for (; n - i >= kBlock; i += kBlock)
    if (block_fails_avx512(_mm512_loadu_si512(p + i), st)) return finish_scalar(p, n, i);
  // The tail under a mask: bytes past n are never read; spaces stand for them.
  const __mmask64 left = (__mmask64{1} << (n - i)) - 1;
  if (block_fails_avx512(_mm512_mask_loadu_epi8(spaces, left, p + i), st))
    return finish_scalar(p, n, i);
  return n;
}
#endif

}  // namespace pgcodec::kernels
