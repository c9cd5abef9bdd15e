#include "core/page_end.hpp"

#include <cstring>
#include <new>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define PGCODEC_HAVE_MMAP 1
#endif

namespace pgcodec::harness {
namespace {

#if defined(PGCODEC_HAVE_MMAP)
std::size_t page_size() {
  static const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// Regions not in use, for this thread's next PageEnd; never unmapped (a
// check holds a few at a time).
thread_local std::vector<std::pair<char*, std::size_t>> free_regions;
#endif

}  // namespace

PageEnd::PageEnd(std::string_view bytes) {
  size_ = bytes.size();
#if defined(PGCODEC_HAVE_MMAP)
  for (auto it = free_regions.begin(); it != free_regions.end(); ++it) {
    if (it->second >= size_) {
      region_ = {it->first, it->second};
      free_regions.erase(it);
      break;
    }
  }
  if (!region_.base) {
    const std::size_t page = page_size();
    const std::size_t room = (size_ + page - 1) / page * page + page;  // at least a page, for small inputs
    void* m = mmap(nullptr, room + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    if (mprotect(static_cast<char*>(m) + room, page, PROT_NONE) != 0) {
      munmap(m, room + page);
      throw std::bad_alloc();
    }
    region_ = {static_cast<char*>(m), room};
  }
  char* d = region_.base + region_.room - size_;
#else
  region_ = {new char[size_ + 1], size_ + 1};
  char* d = region_.base;
#endif
  if (size_) std::memcpy(d, bytes.data(), size_);
  data_ = d;
}

PageEnd::~PageEnd() {
#if defined(PGCODEC_HAVE_MMAP)
  free_regions.emplace_back(region_.base, region_.room);
#else
  delete[] region_.base;
#endif
}

}  // namespace pgcodec::harness
