// What this machine's CPU runs, read by the judge on its own: Linux's
// /proc/cpuinfo flags, not the library's __builtin_cpu_supports calls, so a
// test can say which kernel the library should have chosen.
#pragma once

#include <string>
#include <string_view>

namespace pgcodec::harness {

// Whether the CPU (as the kernel reports it, so with the OS saving the
// vector state) has the feature /proc/cpuinfo calls `flag` ("avx2",
// "avx512bw", "avx512_vbmi2"). False where /proc/cpuinfo is not readable.
bool cpu_has(std::string_view flag);

// The kernel the library should prefer on this machine, by its policy
// (src/kernels/kernels.hpp): "avx512" with AVX-512F and BW, else "avx2"
// with AVX2, else "sse2" (part of x86-64), else "scalar".
std::string best_kernel_name();

}  // namespace pgcodec::harness
