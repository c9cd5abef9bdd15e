// The embedded-CPython reference adapter (harness/oracle/python.cpp).
#include "oracle/python.hpp"

#include <gtest/gtest.h>

#include "adapter_test_util.hpp"

namespace {

using pgcodec::harness::OutcomeKind;
using pgcodec::oracle::PythonCodec;

TEST(Python, DecodesAndEncodes) {
  PythonCodec sjis("shift_jis");
  expect_sjis_both_ways(sjis);
}

TEST(Python, FailureKindsFromReasons) {
  PythonCodec utf8("utf-8");
  auto bad = utf8.decode("ab\xc3\x28");
  EXPECT_EQ(bad.kind, OutcomeKind::InvalidByteSequence);
  EXPECT_EQ(bad.offset, 2u);
  PythonCodec cp1252("cp1252");
  EXPECT_EQ(cp1252.decode("a\x81").kind, OutcomeKind::NoEquivalent);  // maps to <undefined>
  PythonCodec latin1("iso8859-1");
  EXPECT_EQ(latin1.encode("\xe2\x82\xac").kind, OutcomeKind::NoEquivalent);
  // The CJK codecs say "illegal multibyte sequence" for both kinds.
  PythonCodec sjis("shift_jis");
  EXPECT_EQ(sjis.encode("\xe2\x82\xac").kind, OutcomeKind::Unspecified);
}

TEST(Python, UnknownCodecThrows) {
  EXPECT_THROW(PythonCodec("euc_tw"), std::runtime_error);
}

}  // namespace
