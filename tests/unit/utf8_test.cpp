// The UTF-8 toolkit (src/rules/utf8.hpp) against the definitions: every
// code point round-trips, and the validity rules are PostgreSQL's
// (pg_utf_mblen, pg_utf8_islegal).
#include "rules/utf8.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace {

using namespace pgcodec::detail;

const unsigned char* U(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

TEST(Utf8, EveryScalarValueRoundTrips) {
  for (std::uint32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp < 0xE000) continue;
    char b[4] = {};
    const std::size_t n = write_utf8(b, cp);
    ASSERT_EQ(n, utf8_encoded_length(cp)) << cp;
    const std::string s(b, n);
    std::string appended;
    append_utf8(appended, cp);
    ASSERT_EQ(appended, s) << cp;
    ASSERT_EQ(utf8_lead_length(U(s)[0]), n) << cp;
    if (cp >= 0x80) {
      ASSERT_EQ(utf8_multibyte_length(U(s), n), n) << cp;
      ASSERT_EQ(utf8_decode_multibyte(U(s), n), cp) << cp;
      ASSERT_TRUE(utf8_legal(U(s), n, n)) << cp;
      ASSERT_EQ(utf8_multibyte_length(U(s), n - 1), 0u) << "cut off " << cp;
    }
  }
}

TEST(Utf8, SurrogatesOverlongsAndBeyondAreMalformed) {
  for (const std::string bad : {"\xED\xA0\x80", "\xC0\x80", "\xC1\xBF", "\xE0\x9F\xBF",
                                "\xF0\x8F\xBF\xBF", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80",
                                "\x80", "\xC3\x00", "\xE2\x82"}) {
    EXPECT_EQ(utf8_multibyte_length(U(bad), bad.size()), 0u) << bad.size();
  }
  // pg_utf_mblen counts lead bytes only.
  EXPECT_EQ(utf8_lead_length(0x80), 1u);
  EXPECT_EQ(utf8_lead_length(0xF8), 1u);
  EXPECT_EQ(utf8_lead_length(0xF4), 4u);
  EXPECT_EQ(kUtf8Replacement, "\xEF\xBF\xBD");
}

}  // namespace
