// pgcodec_bench: every benchmark of bench/ in one process, so the ratios
// between pgcodec and its peers come from one run.
//
//   build/release/bench/pgcodec_bench --benchmark_filter='^codec/' --benchmark_min_time=0.1
//   ci/bench                      # everything, and bench/RESULTS.md from it
//
// The groups (see each file): codec/ (codec_bench.cpp), seed/
// (seed_bench.cpp), fixed/ and find_codec/ (overhead_bench.cpp), cpython/
// (cpython_bench.cpp), simdutf/ (simdutf_bench.cpp, when built with
// simdutf). First-call latency is a program of its own (first_call.cpp).
#include "py.hpp"

#include <gnu/libc-version.h>
#include <unicode/uversion.h>

#include <cstdio>
#include <exception>
#include <string>

#include "common.hpp"
#include "kernels/kernels.hpp"

#ifdef PGCODEC_BENCH_HAVE_SIMDUTF
#include <simdutf.h>
#endif

void pgbench::py::init() {
  if (!Py_IsInitialized()) Py_InitializeEx(0);  // no signal handlers
}

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  pgbench::py::init();
  // For bench/report.py: which kernel ran, and whether simdutf is in.
  std::string kernels;
  for (const pgcodec::kernels::Kernel& k : pgcodec::kernels::available())
    kernels += std::string(kernels.empty() ? "" : ",") + k.name;
  benchmark::AddCustomContext("pgcodec_kernel", pgcodec::kernels::active().name);
  benchmark::AddCustomContext("pgcodec_kernels_available", kernels);
  benchmark::AddCustomContext("python", Py_GetVersion());
  benchmark::AddCustomContext("icu", U_ICU_VERSION);
  benchmark::AddCustomContext("glibc", gnu_get_libc_version());
#ifdef PGCODEC_BENCH_HAVE_SIMDUTF
  benchmark::AddCustomContext("simdutf", std::string(SIMDUTF_VERSION) + " (" +
                                             std::string(simdutf::get_active_implementation()->name()) + ")");
#else
  benchmark::AddCustomContext("simdutf", "absent");
#endif
#ifdef PGCODEC_BENCH_ENCODING_RS_VERSION
  benchmark::AddCustomContext("encoding_rs", PGCODEC_BENCH_ENCODING_RS_VERSION);
#else
  benchmark::AddCustomContext("encoding_rs", "absent");
#endif
  try {
    pgbench::register_codec_benchmarks();
    pgbench::register_seed_benchmarks();
    pgbench::register_overhead_benchmarks();
    pgbench::register_cpython_benchmarks();
    pgbench::register_simdutf_benchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pgcodec_bench: setting up the inputs failed: %s\n", e.what());
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
