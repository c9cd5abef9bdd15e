#include "kernels/ascii.hpp"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__) || defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>
#endif

namespace pgcodec::kernels {

std::size_t ascii_run_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (i < n && p[i] - 1u < 0x7Fu) ++i;  // 0x01..0x7F
  return i;
}

std::size_t ascii_run_short(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x;
    std::memcpy(&x, p + i, 8);
    // The high bit of each byte: set for a byte >= 0x80, and for 0x00 (the
    // subtraction borrows). A borrow only runs upwards from a 0x00, so the
    // lowest flag is exact even where the ones above it are not.
    const std::uint64_t stop = (x | (x - 0x0101010101010101u)) & 0x8080808080808080u;
    if (stop) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      return i + static_cast<std::size_t>(__builtin_ctzll(stop)) / 8;
#else
      break;  // the byte loop below finds it
#endif
    }
  }
  return i + ascii_run_scalar(p + i, n - i);
}

#if defined(__SSE2__)
std::size_t ascii_run_sse2(const unsigned char* p, std::size_t n) noexcept {
  if (n == 0 || p[0] - 1u >= 0x7Fu) return 0;  // as the others below
  std::size_t i = 0;
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    // High bit set, or a zero byte: the run ends in this block.
    const int stop = _mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, zero)));
    if (stop) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(stop)));
  }
  return i + ascii_run_scalar(p + i, n - i);
}
#endif

#if defined(PGCODEC_KERNELS_X86)
namespace {

PGCODEC_TARGET_AVX2 inline unsigned stop_mask32(const unsigned char* p) noexcept {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return static_cast<unsigned>(
      _mm256_movemask_epi8(_mm256_or_si256(v, _mm256_cmpeq_epi8(v, _mm256_setzero_si256()))));
}

PGCODEC_TARGET_AVX2 inline unsigned stop_mask16(const unsigned char* p) noexcept {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, _mm_setzero_si128()))));
}

}  // namespace

// Both SIMD kernels first look at one byte: the codecs call ascii_run before
// characters that are mostly not ASCII, and a vector load, mask and count
// cost a run of length 0 several nanoseconds (bench/kernel_bench.cpp,
// ascii_run on Russian).
PGCODEC_TARGET_AVX2 std::size_t ascii_run_avx2(const unsigned char* p, std::size_t n) noexcept {
  if (n == 0 || p[0] - 1u >= 0x7Fu) return 0;
  if (n < 16) return ascii_run_short(p, n);
  if (n < 32) {
    // Two overlapping 16-byte blocks cover [0, n).
    if (const unsigned m = stop_mask16(p)) return static_cast<std::size_t>(__builtin_ctz(m));
    const unsigned m = stop_mask16(p + n - 16);
    return m ? n - 16 + static_cast<std::size_t>(__builtin_ctz(m)) : n;
  }
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32)
    if (const unsigned m = stop_mask32(p + i)) return i + static_cast<std::size_t>(__builtin_ctz(m));
  if (i == n) return n;
  // The last block overlaps the one before, whose bytes are all in the run,
  // so its first stop is at i or after.
  const unsigned m = stop_mask32(p + n - 32);
  return m ? n - 32 + static_cast<std::size_t>(__builtin_ctz(m)) : n;
}

PGCODEC_TARGET_AVX512 std::size_t ascii_run_avx512(const unsigned char* p,
                                                   std::size_t n) noexcept {
  if (n == 0 || p[0] - 1u >= 0x7Fu) return 0;
  std::size_t i = 0;
  for (;; i += 64) {
    // A masked load reads only [i, n): the bytes past the end are never
    // touched (and come in as 0, which the mask then drops).
    const std::size_t left = n - i;
    const __mmask64 in = left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(in, p + i);
    const __mmask64 stop = (_mm512_movepi8_mask(v) | _mm512_testn_epi8_mask(v, v)) & in;
    if (stop) return i + static_cast<std::size_t>(__builtin_ctzll(stop));
    if (left <= 64) return n;
  }
}

namespace {

PGCODEC_TARGET_AVX2 inline __m256i load32(const unsigned char* p) noexcept {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

PGCODEC_TARGET_AVX2 inline bool has_nul(__m256i v) noexcept {
  return _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())) != 0;
}

}  // namespace

// LATIN1's copy. From 256 bytes: the first 32 stored unaligned, then 128
// bytes an iteration (one test of the four blocks' bytewise minimum) stored
// at 32-byte boundaries of dst (a str's data starts 8 bytes past one, and
// every other unaligned store crossed a cache line), then 32 at a time; a
// block with a NUL stops them, and the tail copies up to it.
PGCODEC_TARGET_AVX2 std::size_t copy_until_nul_avx2(const unsigned char* src, unsigned char* dst,
                                                    std::size_t n) noexcept {
  std::size_t i = 0;
  if (n >= 256) {
    const __m256i first = load32(src);
    if (!has_nul(first)) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), first);
      i = 32 - (reinterpret_cast<std::uintptr_t>(dst) & 31u);  // dst + i is aligned; [i, 32) stored twice
      for (; n - i >= 128; i += 128) {
        const __m256i a = load32(src + i), b = load32(src + i + 32), c = load32(src + i + 64),
                      d = load32(src + i + 96);
        if (has_nul(_mm256_min_epu8(_mm256_min_epu8(a, b), _mm256_min_epu8(c, d)))) break;
        _mm256_store_si256(reinterpret_cast<__m256i*>(dst + i), a);
        _mm256_store_si256(reinterpret_cast<__m256i*>(dst + i + 32), b);
        _mm256_store_si256(reinterpret_cast<__m256i*>(dst + i + 64), c);
        _mm256_store_si256(reinterpret_cast<__m256i*>(dst + i + 96), d);
      }
    }
  }
  for (; n - i >= 32; i += 32) {
    const __m256i v = load32(src + i);
    if (has_nul(v)) break;
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), v);
  }
  if (n >= 32 && i < n && n - i < 32) {
    // The last bytes as the block that ends at n (what it repeats of the
    // bytes before i was stored already, and is stored again the same): no
    // tail loop or call, whose length-dependent branches a text of another
    // length mispredicts.
    const __m256i v = load32(src + n - 32);
    const auto nuls = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())));
    if (!(nuls >> (32 - (n - i)))) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + n - 32), v);
      return n;
    }
  }
  const void* nul = std::memchr(src + i, 0, n - i);
  const std::size_t run = nul ? static_cast<std::size_t>(static_cast<const unsigned char*>(nul) - src) : n;
  if (run > i) std::memcpy(dst + i, src + i, run - i);
  return run;
}

// 256 bytes an iteration while they are there (one test of the four
// blocks' bytewise minimum), stored at 64-byte boundaries of dst (the head
// up to the first one masked), then masked loads and stores: the tail and a
// short input take no second loop. Masked by 64 bytes all the way, a 64 KiB
// copy took 1.4 times memcpy's time; stored unaligned (a str's data starts 8
// bytes past a boundary), 1.1 times (into fresh memory as a str is: 925 ns
// against 895 aligned, memcpy 845).
PGCODEC_TARGET_AVX512 std::size_t copy_until_nul_avx512(const unsigned char* src, unsigned char* dst,
                                                        std::size_t n) noexcept {
  std::size_t i = 0;
  const std::size_t head = (64 - (reinterpret_cast<std::uintptr_t>(dst) & 63u)) & 63u;
  if (n >= 512 && head) {
    const __mmask64 m = (__mmask64{1} << head) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(m, src);
    if (!(_mm512_testn_epi8_mask(v, v) & m)) {  // else the loop below finds the NUL
      _mm512_mask_storeu_epi8(dst, m, v);
      i = head;
    }
  }
  if (n >= 512 && i == head) {
    for (; n - i >= 256; i += 256) {
      const __m512i a = _mm512_loadu_si512(src + i);
      const __m512i b = _mm512_loadu_si512(src + i + 64);
      const __m512i c = _mm512_loadu_si512(src + i + 128);
      const __m512i d = _mm512_loadu_si512(src + i + 192);
      const __m512i low = _mm512_min_epu8(_mm512_min_epu8(a, b), _mm512_min_epu8(c, d));
      if (_mm512_testn_epi8_mask(low, low)) break;  // a NUL in these 256: the loop below finds it
      _mm512_store_si512(dst + i, a);
      _mm512_store_si512(dst + i + 64, b);
      _mm512_store_si512(dst + i + 128, c);
      _mm512_store_si512(dst + i + 192, d);
    }
  }
  for (; i < n; i += 64) {
    const std::size_t left = n - i;
    const __mmask64 in = left >= 64 ? ~__mmask64{0} : (__mmask64{1} << left) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(in, src + i);
    const __mmask64 nul = _mm512_testn_epi8_mask(v, v) & in;
    if (nul) {
      const auto k = static_cast<unsigned>(__builtin_ctzll(nul));
      _mm512_mask_storeu_epi8(dst + i, (__mmask64{1} << k) - 1, v);
      return i + k;
    }
    _mm512_mask_storeu_epi8(dst + i, in, v);
  }
  return n;
}
#endif

}  // namespace pgcodec::kernels
