// The AVX2 GB18030 run kernel (see two_byte.hpp): ASCII and the four-byte
// codes of the supplementary run and the BMP, 64 bytes at a time. Per
// window: the characters found from bit masks, then 8 byte positions at a
// time, each position's four bytes in a 32-bit lane, the code's linear
// index by two multiply-adds (a BMP code's code point then read with a
// gather), the lanes where a character starts moved to the front with
// vpermd. The window's output is built in a buffer and copied out with
// stores that end exactly at its end, so nothing is stored past what the
// kernel reports.
#include "kernels/target.hpp"
#include "kernels/two_byte.hpp"

#if defined(PGCODEC_KERNELS_X86)
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "kernels/pack_avx2.hpp"

namespace pgcodec::kernels {
namespace {

// The bytes a window reads: its 64 and 12 more, for its last positions'
// codes (rounded up).
constexpr std::size_t kGb18030RunBytes = 80;

// Bit i of the result is the parity of bits 0..i of x.
constexpr std::uint64_t prefix_xor(std::uint64_t x) noexcept {
  for (unsigned shift = 1; shift < 64; shift *= 2) x ^= x << shift;
  return x;
}

// Bit j of the result: byte j of the 64 in v0, v1 is set in `bytes`.
PGCODEC_TARGET_AVX2 inline std::uint64_t bits(__m256i bytes0, __m256i bytes1) noexcept {
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(bytes0)) |
         std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(bytes1))} << 32;
}

// The bits of the bytes of v0, v1 in lo..hi (as signed bytes, lo <= hi < 127).
PGCODEC_TARGET_AVX2 inline std::uint64_t in_range(__m256i v0, __m256i v1, signed char lo, signed char hi) noexcept {
  const __m256i below_lo = _mm256_set1_epi8(static_cast<char>(lo - 1));
  const __m256i above_hi = _mm256_set1_epi8(static_cast<char>(hi + 1));
  return bits(_mm256_and_si256(_mm256_cmpgt_epi8(v0, below_lo), _mm256_cmpgt_epi8(above_hi, v0)),
              _mm256_and_si256(_mm256_cmpgt_epi8(v1, below_lo), _mm256_cmpgt_epi8(above_hi, v1)));
}

// The bits of the bytes 01..7F.
PGCODEC_TARGET_AVX2 inline std::uint64_t positive(__m256i v0, __m256i v1) noexcept {
  const __m256i z = _mm256_setzero_si256();
  return bits(_mm256_cmpgt_epi8(v0, z), _mm256_cmpgt_epi8(v1, z));
}

}  // namespace

PGCODEC_TARGET_AVX2 std::size_t gb18030_run_decode_avx2(const Gb18030Runs& runs, const unsigned char* in,
                                                        std::size_t n, char32_t* out, std::size_t cap,
                                                        std::size_t& written) noexcept {
  // A lane's four bytes b1 b2 b3 b4 give b1 * 12600 + b2 * 1260 + b3 * 10
  // + b4 (vpmaddubsw: b1 * 10 + b2 and b3 * 10 + b4; vpmaddwd: the first
  // times 1260 plus the second); less kZero that is the linear index, less
  // `bias` the index in the run.
  constexpr std::uint32_t kZero = 0x81u * 12600 + 0x30u * 1260 + 0x81u * 10 + 0x30u;
  const __m256i zero = _mm256_set1_epi32(static_cast<int>(kZero));
  const __m256i bias = _mm256_set1_epi32(static_cast<int>(kZero + runs.linear));
  const __m256i last = _mm256_set1_epi32(static_cast<int>(runs.length - 1));
  const __m256i first_cp = _mm256_set1_epi32(static_cast<int>(runs.cp));
  const __m256i low_last = _mm256_set1_epi32(0xFFFF);
  const std::uint16_t* const low = runs.low;
  const __m256i tens = _mm256_set1_epi16(0x010A);  // bytes 10, 1
  const __m256i weights = _mm256_set1_epi32(0x000104EC);  // words 1260, 1
  // Lane j of each half: the bytes j .. j + 3 of that half's 8.
  const __m256i spread = _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6,  //
                                          0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6);
  const __m256i low_byte = _mm256_set1_epi32(0xFF), c7f = _mm256_set1_epi32(0x7F);
  std::size_t i = 0, w = 0;
  // A window is 64 bytes (the masks' serial work, from the load to where
  // the next window starts, is most of a window's time: 32-byte windows
  // took twice as long a byte); it reads 12 more, for its last positions.
  // The last bytes, fewer than that, are a window read from a copy padded
  // with NUL, which stops it (no code spans a NUL): the family's loop then
  // has only what the kernel refuses, not the input's last 80 bytes (16 %
  // of a 1 KB decode, at 17 cycles a character).
  unsigned char pad[kGb18030RunBytes];
  while (i < n && cap - w >= std::min(n - i, kGb18030RunRoom)) {
    const unsigned char* src = in + i;
    if (n - i < kGb18030RunBytes) {
      std::memset(pad, 0, sizeof pad);
      std::memcpy(pad, in + i, n - i);
      src = pad;
    }
    const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 32));
    const std::uint64_t high = in_range(v0, v1, static_cast<signed char>(0x81 - 256), static_cast<signed char>(0xFE - 256));
    const std::uint64_t digit = in_range(v0, v1, 0x30, 0x39);
    const std::uint64_t ascii = positive(v0, v1);  // 01..7F
    // A four-byte code is high, digit, high, digit: with only ASCII and such
    // codes before it, a lead byte is the first, third, ... high byte.
    const std::uint64_t leads = high & prefix_xor(high);
    const std::uint64_t whole = (digit >> 1) & (high >> 2) & (digit >> 3);  // (none for leads 61..63)
    const std::uint64_t covered = leads | (leads << 1) | (leads << 2) | (leads << 3);
    const std::uint64_t bad = (leads & ~whole) | (~covered & ~ascii);
    const unsigned stop = bad ? static_cast<unsigned>(__builtin_ctzll(bad)) : 64u;
    const std::uint64_t starts = (leads | (ascii & ~covered)) & (stop == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << stop) - 1u);
    char32_t buf[kGb18030RunRoom + 8];
    unsigned k = 0, took = stop;
    for (unsigned g = 0; g < 8 && 8 * g < took; ++g) {
      unsigned m = static_cast<unsigned>(starts >> (8 * g)) & 0xFFu;
      const unsigned char* at = src + 8 * g;
      const __m256i bytes = _mm256_shuffle_epi8(
          _mm256_loadu2_m128i(reinterpret_cast<const __m128i*>(at + 4), reinterpret_cast<const __m128i*>(at)),
          spread);
      const __m256i sum = _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, tens), weights);
      const __m256i index = _mm256_sub_epi32(sum, bias);
      const __m256i b1 = _mm256_and_si256(bytes, low_byte);
      const __m256i lead = _mm256_cmpgt_epi32(b1, c7f);
      // Unsigned index <= length - 1: in the run.
      const __m256i in_run = _mm256_cmpeq_epi32(_mm256_min_epu32(index, last), index);
      const __m256i off = _mm256_andnot_si256(in_run, lead);
      unsigned outside = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(off))) & m;
      __m256i cps = _mm256_blendv_epi8(b1, _mm256_add_epi32(index, first_cp), lead);
      if (outside && low) {  // a BMP code's code point, if it has one
        const __m256i linear = _mm256_sub_epi32(sum, zero);
        const __m256i small = _mm256_and_si256(off, _mm256_cmpeq_epi32(_mm256_min_epu32(linear, low_last), linear));
        const __m256i got = gather_u16(low, linear, small);
        const __m256i found = _mm256_xor_si256(_mm256_cmpeq_epi32(got, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
        cps = _mm256_blendv_epi8(cps, got, found);
        outside &= ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(found)));
      }
      if (outside) {  // a four-byte code of no run given: stop before it
        const auto f = static_cast<unsigned>(__builtin_ctz(outside));
        m &= (1u << f) - 1u;
        took = 8 * g + f;
      }
      const __m256i order = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(kPack8.shuffle[m])));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(buf + k), _mm256_permutevar8x32_epi32(cps, order));
      k += kPack8.count[m];
    }
    copy_exact(reinterpret_cast<char*>(out + w), buf, k * sizeof(char32_t));
    w += k;
    i += took;
    // Past 60 a lead's code reaches into the next window: go on from it.
    // (A padded window stops at the first NUL of the padding or before.)
    if (took < 61 || src == pad) break;
  }
  written = w;
  return i;
}

}  // namespace pgcodec::kernels

#endif
