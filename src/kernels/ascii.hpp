// The ASCII-run kernels (Kernel::ascii_run), one per implementation.
#pragma once

#include <cstddef>

namespace pgcodec::kernels {

std::size_t ascii_run_scalar(const unsigned char* p, std::size_t n) noexcept;
#if defined(__SSE2__)
std::size_t ascii_run_sse2(const unsigned char* p, std::size_t n) noexcept;
#endif

}  // namespace pgcodec::kernels
