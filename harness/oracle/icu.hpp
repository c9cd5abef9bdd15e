// ICU as a reference: ucnv converters with fully strict callbacks (no
// substitution, no fallbacks, and no silent skipping of default-ignorable
// code points, which ICU's stock STOP callback does when encoding).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/outcome.hpp"

namespace pgcodec::oracle {

class IcuConverter {
 public:
  // Opens `name` (e.g. "windows-31j"); throws std::runtime_error if ICU
  // cannot open it.
  explicit IcuConverter(const std::string& name);
  ~IcuConverter();
  IcuConverter(const IcuConverter&) = delete;
  IcuConverter& operator=(const IcuConverter&) = delete;

  // bytes in the converter's charset -> UTF-8
  harness::Outcome decode(std::string_view bytes);
  // UTF-8 (valid) -> bytes in the converter's charset
  harness::Outcome encode(std::string_view utf8);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pgcodec::oracle
