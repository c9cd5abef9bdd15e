// The input generators (harness/core/generators.cpp).
#include "core/generators.hpp"

#include <gtest/gtest.h>

#include "core/text.hpp"

namespace {

using namespace pgcodec::harness;
using pgcodec::Encoding;

TEST(Generators, DecodeCandidatesCoverTheByteSpaces) {
  EXPECT_EQ(decode_candidates(Encoding::LATIN1).size(), 256u + 128u * 256u);
  EXPECT_EQ(decode_candidates(Encoding::EUC_JP).size(), 256u + 128u * 256u + 128u * 128u);
  EXPECT_EQ(decode_candidates(Encoding::GB18030).size(), 256u + 128u * 256u + 126u * 10u * 126u * 10u);
}

TEST(Generators, AllCodePointsSkipTheSurrogates) {
  const auto cps = all_code_points();
  EXPECT_EQ(cps.size(), 0x10FFFFu - 0x800u);
  EXPECT_EQ(cps.front(), 1u);
  EXPECT_EQ(cps.back(), 0x10FFFFu);
}

TEST(Generators, SingleChar) {
  EXPECT_TRUE(single_char(Encoding::SJIS, "\x82\xa0"));
  EXPECT_FALSE(single_char(Encoding::SJIS, "\x82"));
  EXPECT_FALSE(single_char(Encoding::SJIS, "ab"));
}

TEST(Generators, RandomStringsAreReproducibleAndShaped) {
  StringMaker m{{"\xe3\x81\x82"}, {"\xff"}};
  std::mt19937_64 r1(5), r2(5);
  const auto a = m.make(r1, 50, false), b = m.make(r2, 50, false);
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), 50u);
  std::mt19937 rng(3);
  const std::vector<std::uint32_t> rep = {0x3042, 0x20AC};
  for (int i = 0; i < 200; ++i) {
    const std::string t = random_text(rng, rep, 30);
    EXPECT_FALSE(t.empty());
    EXPECT_LE(code_points_of(t).size(), 30u);
    EXPECT_LE(random_bytes(rng, {0x82a0}, 40).size(), 80u);
  }
}

}  // namespace
