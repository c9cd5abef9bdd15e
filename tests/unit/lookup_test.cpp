// One-character lookups over the generated run tables (src/tables/lookup.cpp):
// every entry of every table is found, and gaps are not.
#include "tables/lookup.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "pgcodec/encoding.hpp"
#include "tables/table.hpp"

namespace {

using namespace pgcodec::detail;

TEST(Lookup, EveryRunEntryBothWays) {
  for (const auto& inf : pgcodec::encodings()) {
    const MappingTable* t = mapping_table(inf.id);
    ASSERT_NE(t, nullptr) << inf.name;
    for (const pgcodec::detail::Run& r : t->decode) {
      for (std::uint32_t k = 0; k < r.length; k += 1 + r.length / 64) {
        std::uint32_t cp1 = 0, cp2 = 1;
        ASSERT_TRUE(lookup_decode(*t, r.code + k, cp1, cp2)) << inf.name << " " << r.code + k;
        EXPECT_EQ(cp1, r.cp + k);
        EXPECT_EQ(cp2, 0u);
      }
    }
    for (const pgcodec::detail::Run& r : t->encode) {
      for (std::uint32_t k = 0; k < r.length; k += 1 + r.length / 64) {
        std::uint32_t code = 0;
        ASSERT_TRUE(lookup_encode(*t, r.cp + k, code)) << inf.name << " U+" << r.cp + k;
        EXPECT_EQ(code, r.code + k);
      }
    }
    for (const Pair& p : t->decode_pairs) {
      std::uint32_t cp1 = 0, cp2 = 0;
      ASSERT_TRUE(lookup_decode(*t, p.code, cp1, cp2)) << inf.name;
      EXPECT_EQ(cp1, p.cp1);
      EXPECT_EQ(cp2, p.cp2);
    }
    for (const Pair& p : t->encode_pairs) {
      std::uint32_t code = 0;
      ASSERT_TRUE(lookup_encode_pair(*t, p.cp1, p.cp2, code)) << inf.name;
      EXPECT_EQ(code, p.code);
    }
    for (const LinearRun& r : t->encode_linear) {
      std::uint32_t code = 0;
      ASSERT_TRUE(lookup_encode(*t, r.cp, code)) << inf.name;
      EXPECT_EQ(gb18030_linear(code), r.linear);
      std::uint32_t cp1 = 0, cp2 = 0;
      ASSERT_TRUE(lookup_decode(*t, code, cp1, cp2)) << inf.name;
      EXPECT_EQ(cp1, r.cp);
    }
  }
}

TEST(Lookup, GapsHaveNoMapping) {
  const MappingTable& t = *mapping_table(pgcodec::Encoding::WIN1252);
  std::uint32_t cp1 = 0, cp2 = 0, code = 0;
  EXPECT_FALSE(lookup_decode(t, 0x81, cp1, cp2));  // WIN1252 0x81 is unassigned
  EXPECT_FALSE(lookup_encode(t, 0x4E00, code));    // no CJK in WIN1252
  EXPECT_FALSE(lookup_encode_pair(t, 0x41, 0x300, code));
}

}  // namespace
