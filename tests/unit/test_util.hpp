// Small helpers shared by the unit tests.
#pragma once

#include <string>
#include <string_view>

namespace pgcodec::test {

inline const std::string kFFFD = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// "c3 28 " style dump for failure messages.
inline std::string Hex(std::string_view s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    out += digits[c >> 4];
    out += digits[c & 15];
    out += ' ';
  }
  return out;
}

}  // namespace pgcodec::test
