#include "kernels/kernels.hpp"

#include <cstdio>
#include <cstdlib>

#include "kernels/ascii.hpp"
#include "kernels/single_byte.hpp"
#include "kernels/target.hpp"
#include "kernels/utf8_valid.hpp"

namespace pgcodec::kernels {
namespace {

// Every kernel this build has, in order of preference. SSE2 is part of
// x86-64, so it runs on every CPU the build targets; AVX2 and AVX-512 need
// the CPU check in listed().
constexpr Kernel kCompiled[] = {
    {"scalar", &ascii_run_scalar, &utf8_valid_run_scalar, false},
#if defined(__SSE2__)
    {"sse2", &ascii_run_sse2, &utf8_valid_run_sse2, true},
#endif
#if defined(PGCODEC_KERNELS_X86)
    {"avx2", &ascii_run_avx2, &utf8_valid_run_avx2, true, nullptr, nullptr, &utf8_to_units16_avx2,
     &units16_to_utf8_avx2, &copy_until_nul_avx2, &single_byte_units_avx2, &utf8_to_units32_avx2,
     &units32_to_utf8_avx2,
     &two_byte_decode_avx2, &two_byte_encode_avx2, true, &gb18030_run_decode_avx2},
    {"avx512", &ascii_run_avx512, &utf8_valid_run_avx512, true, nullptr, nullptr, &utf8_to_units16_avx2,
     &units16_to_utf8_avx2, &copy_until_nul_avx512, &single_byte_units_avx512,
     &utf8_to_units32_avx512, &units32_to_utf8_avx2, &two_byte_decode_avx2, &two_byte_encode_avx2, true,
     &gb18030_run_decode_avx2},
#endif
};

bool cpu_runs(const Kernel& k) noexcept {
#if defined(PGCODEC_KERNELS_X86)
  const std::string_view name = k.name;
  // __builtin_cpu_supports also checks that the OS saves the vector state
  // (XCR0), not only the CPUID bits.
  if (name == "avx2") return __builtin_cpu_supports("avx2");
  // The avx512 kernel shares the AVX2 kernels for three-byte UTF-8.
  if (name == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx2");
#else
  (void)k;
#endif
  return true;
}

struct Listed {
  Kernel kernels[std::size(kCompiled)];
  std::size_t count = 0;
};

// The kernels of kCompiled this CPU runs, in the same order; built once.
const Listed& listed() noexcept {
  static const Listed list = [] {
#if defined(PGCODEC_KERNELS_X86)
    __builtin_cpu_init();
#endif
    Listed l{};
    for (const Kernel& k : kCompiled)
      if (cpu_runs(k)) l.kernels[l.count++] = k;
#if defined(PGCODEC_KERNELS_X86)
    // The avx512 kernel's single-byte block kernels and its UTF-8 <-> 16-bit
    // unit blocks need VBMI and VBMI2 as well (Ice Lake and later, Zen 4):
    // where the CPU lacks them the single-byte family goes byte by byte and
    // UTF-8 takes the AVX2 blocks.
    const bool vbmi2 = __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
                       __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    for (std::size_t i = 0; i < l.count; ++i)
      if (vbmi2 && std::string_view(l.kernels[i].name) == "avx512") {
        l.kernels[i].single_byte_decode = &single_byte_decode_avx512;
        l.kernels[i].single_byte_encode = &single_byte_encode_avx512;
        l.kernels[i].utf8_to_units16 = &utf8_to_units16_avx512;
        l.kernels[i].units16_to_utf8 = &units16_to_utf8_avx512;
        l.kernels[i].units32_to_utf8 = &units32_to_utf8_avx512;
        l.kernels[i].two_byte_decode = &two_byte_decode_avx512;
        l.kernels[i].two_byte_encode = &two_byte_encode_avx512;
        l.kernels[i].two_byte_flat_tables = false;  // its registers hold the rows
      }
#endif
    return l;
  }();
  return list;
}

// The kernel active() starts with: the last (most preferred) entry, or the
// one PGCODEC_FORCE_IMPL names. The only place that reads the variable.
const Kernel& initial() noexcept {
  const std::span<const Kernel> all = available();
  const char* force = std::getenv("PGCODEC_FORCE_IMPL");
  if (!force || !*force) return all.back();
  if (const Kernel* k = find(force)) return *k;
  std::fprintf(stderr, "pgcodec: PGCODEC_FORCE_IMPL=\"%s\" names no kernel available here (available:",
               force);
  for (const Kernel& k : all) std::fprintf(stderr, " %s", k.name);
  std::fprintf(stderr, ")\n");
  std::abort();
}

}  // namespace

std::span<const Kernel> available() noexcept {
  const Listed& l = listed();
  return {l.kernels, l.count};
}

const Kernel* find(std::string_view name) noexcept {
  for (const Kernel& k : available())
    if (name == k.name) return &k;
  return nullptr;
}

void set_active(const Kernel& k) noexcept {
  detail::active_kernel.store(&k, std::memory_order_relaxed);
}

}  // namespace pgcodec::kernels

namespace pgcodec::detail {

constinit std::atomic<const kernels::Kernel*> active_kernel{nullptr};

const kernels::Kernel& resolve_active_kernel() noexcept {
  static const kernels::Kernel& chosen = kernels::initial();  // once, thread-safe
  const kernels::Kernel* expected = nullptr;
  // A set_active() that came first wins.
  active_kernel.compare_exchange_strong(expected, &chosen, std::memory_order_relaxed);
  return *active_kernel.load(std::memory_order_relaxed);
}

}  // namespace pgcodec::detail
