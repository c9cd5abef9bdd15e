// The x86-64 SIMD kernels are compiled per function for their ISA (GCC and
// Clang target attributes), never per file: a file built with -mavx2 could
// hand the linker AVX2 copies of inline functions it shares with baseline
// code. kernels.cpp lists a kernel only when the CPU has its ISA.
#pragma once

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PGCODEC_KERNELS_X86 1
#define PGCODEC_TARGET_AVX2 __attribute__((target("avx2")))
#define PGCODEC_TARGET_AVX512 __attribute__((target("avx512f,avx512bw")))
// The single-byte block kernels (single_byte_avx512.cpp) also need VBMI
// (vpermi2b: 128-byte table lookups), VBMI2 (vpcompressb) and BMI2 (pdep).
#define PGCODEC_TARGET_AVX512_VBMI2 \
  __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi,bmi2,popcnt")))
#endif
