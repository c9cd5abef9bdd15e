// What every reference adapter's unit test checks first: one SJIS character
// and one ASCII character convert both ways (ICU calls the codec
// "windows-31j", Python "shift_jis").
#pragma once

#include <gtest/gtest.h>

template <class Adapter>
void expect_sjis_both_ways(Adapter& sjis) {
  const auto d = sjis.decode("\x82\xa0" "A");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d.output, "\xe3\x81\x82" "A");
  const auto e = sjis.encode("\xe3\x81\x82" "A");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e.output, "\x82\xa0" "A");
}
