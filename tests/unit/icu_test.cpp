// The ICU reference adapter (harness/oracle/icu.cpp): strict in both directions, and it does not let
// ICU skip default-ignorable code points silently.
#include "oracle/icu.hpp"

#include <gtest/gtest.h>

#include "adapter_test_util.hpp"

namespace {

using pgcodec::oracle::IcuConverter;
using pgcodec::harness::OutcomeKind;

TEST(Icu, DecodesAndEncodes) {
  IcuConverter sjis("windows-31j");
  expect_sjis_both_ways(sjis);
}

TEST(Icu, FailuresHaveKinds) {
  IcuConverter latin1("ISO-8859-1");
  EXPECT_EQ(latin1.encode("\xe2\x82\xac").kind, OutcomeKind::NoEquivalent);  // euro sign
  IcuConverter utf8("UTF-8");
  EXPECT_EQ(utf8.decode("\xc3\x28").kind, OutcomeKind::InvalidByteSequence);
  EXPECT_EQ(utf8.decode("\xe3\x81").kind, OutcomeKind::InvalidByteSequence);  // truncated
  IcuConverter sjis("windows-31j");
  EXPECT_FALSE(sjis.decode("\x82").ok());
}

// ICU's stock STOP callback turns an unassigned default-ignorable code point
// (U+200B ZERO WIDTH SPACE) into a silent skip; the adapter must fail.
TEST(Icu, DefaultIgnorablesAreNotSkipped) {
  IcuConverter latin1("ISO-8859-1");
  auto r = latin1.encode("a\xe2\x80\x8b" "b");
  EXPECT_EQ(r.kind, OutcomeKind::NoEquivalent) << "output: " << r.output;
}

TEST(Icu, UnknownConverterThrows) {
  EXPECT_THROW(IcuConverter("no-such-charset"), std::runtime_error);
}

}  // namespace
