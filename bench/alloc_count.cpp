// Counts the heap allocations of the whole process for allocs_per_call:
// malloc, calloc, realloc and the aligned allocations are replaced by
// counting wrappers around glibc's own (__libc_*), which glibc supports for
// exactly this. libstdc++'s operator new calls malloc, so every new is
// counted too, as are ICU's, iconv's and CPython's large objects (CPython
// serves small objects from its own arenas, which are not seen).
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "common.hpp"

extern "C" {
void* __libc_malloc(std::size_t n);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t n);
void* __libc_memalign(std::size_t alignment, std::size_t n);
void __libc_free(void* p);
}

namespace {
std::atomic<std::uint64_t> g_allocations{0};
void count() noexcept { g_allocations.fetch_add(1, std::memory_order_relaxed); }
}  // namespace

std::uint64_t pgbench::allocations() noexcept {
  return g_allocations.load(std::memory_order_relaxed);
}

extern "C" {

void* malloc(std::size_t n) noexcept {
  count();
  return __libc_malloc(n);
}

void* calloc(std::size_t n, std::size_t size) noexcept {
  count();
  return __libc_calloc(n, size);
}

void* realloc(void* p, std::size_t n) noexcept {
  count();
  return __libc_realloc(p, n);
}

void free(void* p) noexcept { __libc_free(p); }

void* memalign(std::size_t alignment, std::size_t n) noexcept {
  count();
  return __libc_memalign(alignment, n);
}

void* aligned_alloc(std::size_t alignment, std::size_t n) noexcept {
  count();
  return __libc_memalign(alignment, n);
}

int posix_memalign(void** out, std::size_t alignment, std::size_t n) noexcept {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
  count();
  void* p = __libc_memalign(alignment, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"
