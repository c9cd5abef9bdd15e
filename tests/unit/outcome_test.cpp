#include "core/outcome.hpp"

#include <gtest/gtest.h>

namespace {
using pgcodec::oracle::agree;
using pgcodec::oracle::Outcome;
using pgcodec::oracle::OutcomeKind;

TEST(Outcome, AgreementRules) {
  Outcome ok{OutcomeKind::Ok, "x", 0, false};
  Outcome ok2{OutcomeKind::Ok, "y", 0, false};
  Outcome inv{OutcomeKind::InvalidByteSequence, "", 3, true};
  Outcome noeq{OutcomeKind::NoEquivalent, "", 3, true};
  Outcome unspec{OutcomeKind::Unspecified, "", 0, false};
  Outcome inv_at_4{OutcomeKind::InvalidByteSequence, "", 4, true};
  EXPECT_TRUE(agree(ok, ok));
  EXPECT_FALSE(agree(ok, ok2));
  EXPECT_FALSE(agree(ok, inv));
  EXPECT_FALSE(agree(inv, noeq));
  EXPECT_TRUE(agree(inv, unspec));
  EXPECT_TRUE(agree(unspec, noeq));
  EXPECT_FALSE(agree(inv, inv_at_4));
}
}  // namespace
