// The ASCII-run kernels (Kernel::ascii_run), one per implementation.
#pragma once

#include <cstddef>

#include "kernels/target.hpp"

namespace pgcodec::kernels {

std::size_t ascii_run_scalar(const unsigned char* p, std::size_t n) noexcept;
#if defined(__SSE2__)
std::size_t ascii_run_sse2(const unsigned char* p, std::size_t n) noexcept;
#endif
#if defined(PGCODEC_KERNELS_X86)
// Only for a CPU with AVX2 (resp. AVX-512F and BW): kernels.cpp checks.
std::size_t ascii_run_avx2(const unsigned char* p, std::size_t n) noexcept;
std::size_t ascii_run_avx512(const unsigned char* p, std::size_t n) noexcept;
// Kernel::copy_until_nul.
std::size_t copy_until_nul_avx2(const unsigned char* src, unsigned char* dst, std::size_t n) noexcept;
std::size_t copy_until_nul_avx512(const unsigned char* src, unsigned char* dst, std::size_t n) noexcept;
#endif

// The run within fewer than 16 bytes, eight at a time (baseline code, for
// the SIMD kernels' tails).
std::size_t ascii_run_short(const unsigned char* p, std::size_t n) noexcept;

}  // namespace pgcodec::kernels
