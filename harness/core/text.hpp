// Bytes and code points as text, the way reports, registry files and test
// failures print them. The harness keeps its own small UTF-8 routines rather
// than the library's (rules/utf8.hpp): a judge should not share code with
// what it judges.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgcodec::harness {

// "82 a0"; "(empty)" for no bytes.
std::string hex_bytes(std::string_view s);
// Each byte as two hex digits, each preceded by `each`: "82a0", or with
// each = "\\x" the "\x82\xa0" printf takes.
std::string hex_digits(std::string_view s, std::string_view each = "");
// "U+3042".
std::string code_point_text(std::uint32_t cp);
// "U+3042 U+309A" for valid UTF-8; "(empty)" for none.
std::string code_points_text(std::string_view valid_utf8);

// One code point (at most U+10FFFF) as UTF-8.
std::string utf8(std::uint32_t cp);
void append_utf8(std::string& out, std::uint32_t cp);
// The code points of valid UTF-8.
std::vector<std::uint32_t> code_points_of(std::string_view valid_utf8);

}  // namespace pgcodec::harness
