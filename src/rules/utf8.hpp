// Inline UTF-8 character checks for the hot loops. The rules are
// PostgreSQL's (pg_utf8_islegal): shortest form only, no surrogates, nothing
// above U+10FFFF; verify.cpp keeps the general per-encoding rules.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pgcodec::detail {

// Length of the valid multibyte character at p (p[0] >= 0x80) within n
// bytes, or 0 when it is malformed or cut off.
inline std::size_t utf8_multibyte_length(const unsigned char* p, std::size_t n) noexcept {
  const unsigned c = p[0];
  auto cont = [](unsigned b) { return (b & 0xC0u) == 0x80u; };
  if (c < 0xC2) return 0;
  if (c < 0xE0) return n >= 2 && cont(p[1]) ? 2 : 0;
  if (c < 0xF0) {
    if (n < 3) return 0;
    const unsigned c1 = p[1];
    const bool ok1 = c == 0xE0 ? (c1 >= 0xA0 && c1 <= 0xBF)
                   : c == 0xED ? (c1 >= 0x80 && c1 <= 0x9F)
                               : cont(c1);
    return ok1 && cont(p[2]) ? 3 : 0;
  }
  if (c < 0xF5) {
    if (n < 4) return 0;
    const unsigned c1 = p[1];
    const bool ok1 = c == 0xF0 ? (c1 >= 0x90 && c1 <= 0xBF)
                   : c == 0xF4 ? (c1 >= 0x80 && c1 <= 0x8F)
                               : cont(c1);
    return ok1 && cont(p[2]) && cont(p[3]) ? 4 : 0;
  }
  return 0;
}

// The code point of a valid multibyte character of length len.
inline std::uint32_t utf8_decode_multibyte(const unsigned char* p, std::size_t len) noexcept {
  std::uint32_t cp = p[0] & (0x7Fu >> len);
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (p[k] & 0x3Fu);
  return cp;
}

// Appends the UTF-8 of code point cp (cp <= U+10FFFF).
inline void append_utf8(std::string& out, std::uint32_t cp) {
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


}  // namespace pgcodec::detail
