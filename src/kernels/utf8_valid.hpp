// The UTF-8 validation kernels (Kernel::utf8_valid_run), one per
// implementation.
#pragma once

#include <cstddef>

#include "kernels/target.hpp"

namespace pgcodec::kernels {

// The plain loop, one character at a time: the twin the others must match.
std::size_t utf8_valid_run_scalar(const unsigned char* p, std::size_t n) noexcept;
#if defined(__SSE2__)
// SSE2 has no byte shuffle: ASCII runs 16 bytes at a time, other
// characters as the scalar loop does.
std::size_t utf8_valid_run_sse2(const unsigned char* p, std::size_t n) noexcept;
#endif
#if defined(PGCODEC_KERNELS_X86)
// The lookup algorithm (kernels/utf8_lookup.hpp) on 64-byte blocks; only for
// a CPU with AVX2 (resp. AVX-512F and BW): kernels.cpp checks.
std::size_t utf8_valid_run_avx2(const unsigned char* p, std::size_t n) noexcept;
std::size_t utf8_valid_run_avx512(const unsigned char* p, std::size_t n) noexcept;
#endif

}  // namespace pgcodec::kernels
