// The one Outcome and the one comparison (harness/core/outcome.cpp).
#include "core/outcome.hpp"

#include <gtest/gtest.h>

namespace {
using pgcodec::harness::Category;
using pgcodec::harness::classify;
using pgcodec::harness::from_result;
using pgcodec::harness::Outcome;
using pgcodec::harness::OutcomeKind;

Outcome failed(OutcomeKind k, std::optional<std::size_t> at = std::nullopt) { return Outcome::failed(k, at); }

TEST(Outcome, AgreementRules) {
  const Outcome ok = Outcome::converted("x"), ok2 = Outcome::converted("y");
  const Outcome inv = failed(OutcomeKind::InvalidByteSequence, 3);
  const Outcome noeq = failed(OutcomeKind::NoEquivalent, 3);
  const Outcome unspec = failed(OutcomeKind::Unspecified);
  const Outcome inv_at_4 = failed(OutcomeKind::InvalidByteSequence, 4);
  const Outcome inv_somewhere = failed(OutcomeKind::InvalidByteSequence);
  EXPECT_EQ(classify(ok, ok), Category::Agree);
  EXPECT_EQ(classify(ok, ok2), Category::DifferentMapping);
  EXPECT_EQ(classify(ok, inv), Category::OnlyExpected);
  EXPECT_EQ(classify(inv, ok), Category::OnlyActual);
  EXPECT_EQ(classify(inv, noeq), Category::DifferentErrorKind);
  EXPECT_EQ(classify(inv, unspec), Category::Agree);
  EXPECT_EQ(classify(unspec, noeq), Category::Agree);
  EXPECT_EQ(classify(inv, inv_at_4), Category::DifferentOffset);
  EXPECT_EQ(classify(inv_somewhere, inv_at_4), Category::Agree);  // offset unknown on one side
}

TEST(Outcome, ErrorDetailsCountOnlyWhenBothSidesKnowThem) {
  Outcome pg = failed(OutcomeKind::InvalidByteSequence, 2);
  pg.bytes = "\xc3\x28";
  pg.sqlstate = "22021";
  pg.message = "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28";
  Outcome ref = failed(OutcomeKind::InvalidByteSequence, 2);  // ICU, Python: no details
  EXPECT_EQ(classify(pg, ref), Category::Agree);
  Outcome mine = pg;
  EXPECT_EQ(classify(pg, mine), Category::Agree);
  mine.bytes = "\xc3";
  EXPECT_EQ(classify(pg, mine), Category::DifferentBytes);
  mine = pg;
  mine.sqlstate = "22P05";
  EXPECT_EQ(classify(pg, mine), Category::DifferentSqlstate);
  mine = pg;
  mine.message = "invalid byte sequence for encoding \"UTF8\": 0xc3";
  EXPECT_EQ(classify(pg, mine), Category::DifferentMessage);
}

TEST(Outcome, CategoryNamesRoundTrip) {
  for (int i = 0; i <= static_cast<int>(Category::DifferentMessage); ++i) {
    Category c{};
    ASSERT_TRUE(parse_category(to_string(static_cast<Category>(i)), c));
    EXPECT_EQ(static_cast<int>(c), i);
  }
  // The names the registry files hold.
  EXPECT_STREQ(to_string(Category::OnlyExpected), "only-postgres");
  EXPECT_STREQ(to_string(Category::OnlyActual), "only-reference");
}

TEST(Outcome, FromResultKeepsEverythingPgcodecKnows) {
  const pgcodec::Codec& c = pgcodec::codec(pgcodec::Encoding::UTF8);
  std::string buf(16, '\0');
  const std::string bad = "ab\xc3\x28";
  const Outcome o = from_result(c.decode(bad, buf), buf);
  ASSERT_EQ(o.kind, OutcomeKind::InvalidByteSequence);
  EXPECT_EQ(o.offset, 2u);
  EXPECT_EQ(o.bytes, std::string("\xc3\x28"));
  EXPECT_EQ(o.sqlstate, std::string("22021"));
  EXPECT_EQ(o.message, std::string("invalid byte sequence for encoding \"UTF8\": 0xc3 0x28"));
  const Outcome ok = from_result(c.decode("abc", buf), buf);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.output, "abc");
}

TEST(Outcome, DescribeSaysWhatIsKnown) {
  EXPECT_EQ(pgcodec::harness::describe(Outcome::converted("\x82\xa0")), "converts to 82 a0");
  EXPECT_EQ(pgcodec::harness::describe(Outcome::failed(OutcomeKind::NoEquivalent)), "no equivalent");
  const pgcodec::Codec& c = pgcodec::codec(pgcodec::Encoding::UTF8);
  std::string buf(16, '\0');
  EXPECT_EQ(pgcodec::harness::describe(from_result(c.decode("ab\xc3\x28", buf), buf)),
            "invalid byte sequence at byte 2 [22021]: invalid byte sequence for encoding \"UTF8\": 0xc3 0x28");
}

}  // namespace
