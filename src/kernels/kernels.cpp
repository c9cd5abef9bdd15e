#include "kernels/kernels.hpp"

#include <cstdio>
#include <cstdlib>

#include "kernels/ascii.hpp"

namespace pgcodec::kernels {
namespace {

// SSE2 is part of x86-64, so a build that compiles it runs on every CPU it
// targets; kernels beyond the baseline (AVX2, ...) will also need a CPU check
// here.
constexpr Kernel kKernels[] = {
    {"scalar", &ascii_run_scalar, false},
#if defined(__SSE2__)
    {"sse2", &ascii_run_sse2, true},
#endif
};

// The kernel active() starts with: the last (most preferred) entry, or the
// one PGCODEC_FORCE_IMPL names. The only place that reads the variable.
const Kernel& initial() noexcept {
  const char* force = std::getenv("PGCODEC_FORCE_IMPL");
  if (!force || !*force) return kKernels[std::size(kKernels) - 1];
  if (const Kernel* k = find(force)) return *k;
  std::fprintf(stderr, "pgcodec: PGCODEC_FORCE_IMPL=\"%s\" names no kernel available here (available:",
               force);
  for (const Kernel& k : kKernels) std::fprintf(stderr, " %s", k.name);
  std::fprintf(stderr, ")\n");
  std::abort();
}

}  // namespace

std::span<const Kernel> available() noexcept { return kKernels; }

const Kernel* find(std::string_view name) noexcept {
  for (const Kernel& k : kKernels)
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
