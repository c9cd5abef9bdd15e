// Input placed to end where memory that may not be read begins, so that a
// conversion reading past its input faults instead of reading whatever
// follows a std::string. The SIMD kernels read in wide loads, masked at
// the input's end; AddressSanitizer does not look into those, a page that
// may not be read does. The checks (checks.hpp) convert through it.
#pragma once

#include <cstddef>
#include <string_view>

namespace pgcodec::harness {

class PageEnd {
 public:
  // A copy of `bytes` whose last byte is the last before a page mapped with
  // no access (on systems without mmap: a plain copy). Regions are reused
  // (per thread), so a check that places every input costs a copy.
  explicit PageEnd(std::string_view bytes);
  ~PageEnd();
  PageEnd(const PageEnd&) = delete;
  PageEnd& operator=(const PageEnd&) = delete;

  std::string_view view() const noexcept { return {data_, size_}; }
  const char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  struct Region {
    char* base = nullptr;     // readable bytes, then the guard page
    std::size_t room = 0;     // readable bytes
  };
  Region region_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace pgcodec::harness
