#include "kernels/ascii.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace pgcodec::kernels {

std::size_t ascii_run_scalar(const unsigned char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (i < n && p[i] - 1u < 0x7Fu) ++i;  // 0x01..0x7F
  return i;
}

#if defined(__SSE2__)
std::size_t ascii_run_sse2(const unsigned char* p, std::size_t n) noexcept {
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

}  // namespace pgcodec::kernels
