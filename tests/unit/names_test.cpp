// The references' per-encoding names (harness/oracle/names.cpp).
#include "oracle/names.hpp"

#include <gtest/gtest.h>

#include "oracle/icu.hpp"
#include "oracle/python.hpp"

namespace {

using pgcodec::oracle::reference_names;

TEST(Names, OneRowPerEncodingInOrder) {
  ASSERT_EQ(reference_names().size(), pgcodec::encodings().size());
  for (const auto& e : pgcodec::encodings()) EXPECT_EQ(reference_names(e.id).id, e.id) << e.name;
}

TEST(Names, EveryIcuConverterOpens) {
  for (const auto& n : reference_names()) {
    if (n.icu.empty()) continue;
    EXPECT_NO_THROW(pgcodec::oracle::IcuConverter(std::string(n.icu))) << n.icu;
  }
}

// The drivers' choices may name codecs Python lacks (asyncpg's "euc_tw",
// "mule_internal"); psycopg's and the others must all exist.
TEST(Names, PsycopgAndOtherPythonCodecsExist) {
  for (const auto& n : reference_names()) {
    for (auto name : {n.python_psycopg3, n.python_psycopg2}) {
      if (name.empty()) continue;
      EXPECT_FALSE(pgcodec::oracle::python_codec_name(std::string(name)).empty()) << name;
    }
    for (auto name : n.python_others)
      EXPECT_FALSE(pgcodec::oracle::python_codec_name(std::string(name)).empty()) << name;
  }
}

}  // namespace
