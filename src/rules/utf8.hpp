// The one UTF-8 toolkit: PostgreSQL's UTF-8 rules (pg_utf_mblen,
// pg_utf8_islegal: shortest form only, no surrogates, nothing above
// U+10FFFF) and the encoders/decoders of code points, inline for the hot
// loops. rules/grammar.cpp uses it for UTF8's grammar; every codec family
// uses it for the UTF-8 side of its conversions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pgcodec::detail {

// U+FFFD, what Replace mode writes for each error when decoding.
inline constexpr std::string_view kUtf8Replacement = "\xEF\xBF\xBD";

constexpr bool utf8_continuation(unsigned c) noexcept { return (c & 0xC0u) == 0x80u; }

// PostgreSQL's pg_utf_mblen: the length the lead byte claims (1 for a
// stray continuation byte and for 0xF8..0xFF). Not a validity check.
constexpr std::size_t utf8_lead_length(unsigned char lead) noexcept {
  if ((lead & 0x80U) == 0x00U) return 1;
  if ((lead & 0xE0U) == 0xC0U) return 2;
  if ((lead & 0xF0U) == 0xE0U) return 3;
  if ((lead & 0xF8U) == 0xF0U) return 4;
  return 1;
}

// Length of the valid multibyte character at p (p[0] >= 0x80) within n
// bytes, or 0 when it is malformed or cut off.
inline std::size_t utf8_multibyte_length(const unsigned char* p, std::size_t n) noexcept {
  const unsigned c = p[0];
  if (c < 0xC2) return 0;
  if (c < 0xE0) return n >= 2 && utf8_continuation(p[1]) ? 2 : 0;
  if (c < 0xF0) {
    if (n < 3) return 0;
    const unsigned c1 = p[1];
    const bool ok1 = c == 0xE0 ? (c1 >= 0xA0 && c1 <= 0xBF)
                   : c == 0xED ? (c1 >= 0x80 && c1 <= 0x9F)
                               : utf8_continuation(c1);
    return ok1 && utf8_continuation(p[2]) ? 3 : 0;
  }
  if (c < 0xF5) {
    if (n < 4) return 0;
    const unsigned c1 = p[1];
    const bool ok1 = c == 0xF0 ? (c1 >= 0x90 && c1 <= 0xBF)
                   : c == 0xF4 ? (c1 >= 0x80 && c1 <= 0x8F)
                               : utf8_continuation(c1);
    return ok1 && utf8_continuation(p[2]) && utf8_continuation(p[3]) ? 4 : 0;
  }
  return 0;
}

// PostgreSQL's pg_utf8_islegal() on the character at s, of the length its
// lead byte claims (utf8_lead_length), with avail bytes readable.
inline bool utf8_legal(const unsigned char* s, std::size_t claimed, std::size_t avail) noexcept {
  if (s[0] < 0x80) return true;
  return claimed <= avail && utf8_multibyte_length(s, avail) == claimed;
}

// The code point of a valid multibyte character of length len.
inline std::uint32_t utf8_decode_multibyte(const unsigned char* p, std::size_t len) noexcept {
  std::uint32_t cp = p[0] & (0x7Fu >> len);
  for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (p[k] & 0x3Fu);
  return cp;
}

// Bytes of the UTF-8 form of code point cp (cp <= U+10FFFF).
constexpr std::size_t utf8_encoded_length(std::uint32_t cp) noexcept {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

// Stores the UTF-8 of cp at out (utf8_encoded_length(cp) bytes, no more)
// and returns that length.
inline std::size_t write_utf8(char* out, std::uint32_t cp) noexcept {
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  if (cp < 0x800) {
    out[0] = static_cast<char>(0xC0 | (cp >> 6));
    out[1] = static_cast<char>(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (cp >> 12));
    out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (cp >> 18));
  out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (cp & 0x3F));
  return 4;
}

// Appends the UTF-8 of code point cp (cp <= U+10FFFF).
inline void append_utf8(std::string& out, std::uint32_t cp) {
  char b[4];
  out.append(b, write_utf8(b, cp));
}

}  // namespace pgcodec::detail
