// Bytes and code points as text (harness/core/text.cpp).
#include "core/text.hpp"

#include <gtest/gtest.h>

namespace {

using namespace pgcodec::harness;

TEST(Text, HexBytes) {
  EXPECT_EQ(hex_bytes("\x82\xa0"), "82 a0");
  EXPECT_EQ(hex_bytes(std::string("\0", 1)), "00");
  EXPECT_EQ(hex_bytes(""), "(empty)");
  EXPECT_EQ(hex_digits("\x82\xa0"), "82a0");
  EXPECT_EQ(hex_digits("\x82\xa0", "\\x"), "\\x82\\xa0");
}

TEST(Text, CodePoints) {
  EXPECT_EQ(code_point_text(0x41), "U+0041");
  EXPECT_EQ(code_point_text(0x1F600), "U+1F600");
  EXPECT_EQ(code_points_text("\xe3\x81\x8b\xe3\x82\x9a"), "U+304B U+309A");
  EXPECT_EQ(code_points_text(""), "(empty)");
}

TEST(Text, Utf8RoundTripsEveryCodePoint) {
  for (std::uint32_t cp = 1; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const std::string s = utf8(cp);
    ASSERT_EQ(s.size(), cp < 0x80 ? 1u : cp < 0x800 ? 2u : cp < 0x10000 ? 3u : 4u) << cp;
    const auto back = code_points_of(s);
    ASSERT_EQ(back.size(), 1u);
    ASSERT_EQ(back[0], cp);
  }
  EXPECT_EQ(utf8(0x20AC), "\xe2\x82\xac");
}

}  // namespace
