// The table model (harness/core/model.cpp) on small tables written here,
// independent of the generated ones.
#include "core/model.hpp"
#include "core/checks.hpp"

#include <gtest/gtest.h>

namespace {

using namespace pgcodec::harness;
using pgcodec::Encoding;
using pgcodec::detail::LinearRun;
using pgcodec::detail::MappingTable;
using pgcodec::detail::Pair;
using TableRun = pgcodec::detail::Run;
using pgcodec::detail::TableKind;

TEST(Model, RunsPairsAndTheWholeInputRule) {
  // SJIS-shaped: 82 a0..82 a2 -> U+3042..U+3044, 82 f5 -> U+304B U+309A.
  static constexpr TableRun dec[] = {{0x41, 0x41, 1}, {0x82a0, 0x3042, 3}};
  static constexpr Pair dec_pairs[] = {{0x82f5, 0x304B, 0x309A}};
  static constexpr TableRun enc[] = {{0x41, 0x41, 1}, {0x82a0, 0x3042, 3}};
  static constexpr Pair enc_pairs[] = {{0x82f5, 0x304B, 0x309A}};
  const MappingTable t{Encoding::SJIS, TableKind::Mapped, dec, dec_pairs, {}, enc, enc_pairs, {}, "test"};
  const TableModel m(t);
  EXPECT_EQ(m.decode("A\x82\xa1").output, "A\xe3\x81\x83");
  EXPECT_EQ(m.decode("\x82\xf5").output, "\xe3\x81\x8b\xe3\x82\x9a");
  EXPECT_EQ(m.decode("\x82\xa3").kind, OutcomeKind::NoEquivalent);  // well formed, no entry
  EXPECT_EQ(m.decode("\x82").kind, OutcomeKind::InvalidByteSequence);
  // An invalid sequence anywhere wins over an unmappable character before it.
  EXPECT_EQ(m.decode("\x82\xa3\x82").kind, OutcomeKind::InvalidByteSequence);
  EXPECT_FALSE(m.decode("\x82").offset);  // convert() reports none
  EXPECT_EQ(m.encode("\xe3\x81\x8b\xe3\x82\x9a").output, "\x82\xf5");  // the pair
  EXPECT_EQ(m.encode("\xe3\x81\x82").output, "\x82\xa0");
  EXPECT_EQ(m.encode("\xe3\x81\x8b").kind, OutcomeKind::NoEquivalent);  // half a pair alone
}

TEST(Model, Gb18030FourByteCodesGoThroughTheLinearRuns) {
  // 81 30 81 30 is linear 0; map it and the next 9 to U+0080...
  static constexpr LinearRun lin[] = {{0, 0x80, 10}};
  const MappingTable t{Encoding::GB18030, TableKind::Mapped, {}, {}, lin, {}, {}, lin, "test"};
  const TableModel m(t);
  EXPECT_EQ(m.decode("\x81\x30\x81\x39").output, "\xc2\x89");
  EXPECT_EQ(m.decode("\x81\x30\x82\x30").kind, OutcomeKind::NoEquivalent);
  EXPECT_EQ(m.encode("\xc2\x85").output, "\x81\x30\x81\x35");
  EXPECT_EQ(m.encode_code_point(0x8A), std::nullopt);
}

TEST(Model, IdentityTablesPassValidUtf8) {
  const MappingTable t{Encoding::UTF8, TableKind::Identity, {}, {}, {}, {}, {}, {}, "test"};
  const TableModel m(t);
  EXPECT_EQ(m.decode("a\xc3\xa9").output, "a\xc3\xa9");
  EXPECT_EQ(m.decode("a\xc3").kind, OutcomeKind::InvalidByteSequence);
}

TEST(Model, CommittedModelsAreBuiltOnce) {
  EXPECT_EQ(&model(Encoding::SJIS), &model(Encoding::SJIS));
  EXPECT_EQ(model_decode(*pgcodec::detail::mapping_table(Encoding::SJIS), "\x82\xa0").output, "\xe3\x81\x82");
}

// encode_fuzzer/5ff6a8b1293dacff: check_units copied an empty text with
// memcpy from a null pointer (UBSan under the sanitize preset); an empty
// input is checked like any other, in every form, both directions.
TEST(Regression, CheckUnitsTakesAnEmptyInput) {
  for (const Encoding e : {Encoding::UTF8, Encoding::SJIS, Encoding::LATIN1}) {
    for (const bool decoding : {true, false}) {
      const auto r = pgcodec::harness::check_units(pgcodec::codec(e), decoding, pgcodec::ErrorMode::Strict, "", 0);
      EXPECT_FALSE(r) << *r;
    }
  }
}

// decode_fuzzer/f54e78f48c1a5c49 (found by Props.CodeUnitsEqualUtf8 with a
// fresh seed): EUC_JIS_2004's AB C4 is one character of two code points,
// U+00E6 U+0300; into Latin-1 units the library rightly stops before it
// (the second does not fit, and a character is stored whole), while
// check_units wanted U+00E6 stored first. Now it accepts the stop before a
// pair whose second code point alone is too wide, and still rejects a
// stop anywhere else.
TEST(Regression, CheckUnitsStopsBeforeAPairWhoseSecondIsTooWide) {
  for (const std::string_view in : {std::string_view("\xAB\xC4"), std::string_view("a\xAB\xC4" "b")}) {
    const auto r = pgcodec::harness::check_units(pgcodec::codec(Encoding::EUC_JIS_2004), true,
                                                 pgcodec::ErrorMode::Strict, in, 0);
    EXPECT_FALSE(r) << *r;
  }
}

}  // namespace
