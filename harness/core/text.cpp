#include "core/text.hpp"

#include <cstdio>

namespace pgcodec::harness {

std::string hex_digits(std::string_view s, std::string_view each) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() * (2 + each.size()));
  for (char c : s) {
    const auto b = static_cast<unsigned char>(c);
    out += each;
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

std::string hex_bytes(std::string_view s) {
  if (s.empty()) return "(empty)";
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out.push_back(' ');
    out += hex_digits(s.substr(i, 1));
  }
  return out;
}

std::string code_point_text(std::uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

std::string code_points_text(std::string_view s) {
  std::string out;
  for (auto cp : code_points_of(s)) {
    if (!out.empty()) out.push_back(' ');
    out += code_point_text(cp);
  }
  return out.empty() ? "(empty)" : out;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  auto put = [&](std::uint32_t v) { out.push_back(static_cast<char>(v)); };
  if (cp < 0x80) {
    put(cp);
  } else if (cp < 0x800) {
    put(0xC0 | (cp >> 6));
    put(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    put(0xE0 | (cp >> 12));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  } else {
    put(0xF0 | (cp >> 18));
    put(0x80 | ((cp >> 12) & 0x3F));
    put(0x80 | ((cp >> 6) & 0x3F));
    put(0x80 | (cp & 0x3F));
  }
}

std::string utf8(std::uint32_t cp) {
  std::string s;
  append_utf8(s, cp);
  return s;
}

std::vector<std::uint32_t> code_points_of(std::string_view s) {
  std::vector<std::uint32_t> cps;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    std::uint32_t c = n == 1 ? b : b & (0x7Fu >> n);
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k)
      c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    cps.push_back(c);
    i += n;
  }
  return cps;
}

}  // namespace pgcodec::harness
