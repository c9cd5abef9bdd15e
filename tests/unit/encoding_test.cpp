// The encoding registry: numbering, names, and PostgreSQL's name rule. The
// name rule is also compared with libpq's own pg_char_to_encoding(), which is
// PostgreSQL's encnames.c compiled into the client library.
#include "pgcodec/encoding.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

extern "C" int pg_char_to_encoding(const char* name);  // exported by libpq

namespace {

using pgcodec::Encoding;

TEST(Registry, FortyTwoEncodingsInPostgresOrder) {
  auto all = pgcodec::encodings();
  ASSERT_EQ(all.size(), 42u);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(pgcodec::to_int(all[i].id), static_cast<int>(i));
  EXPECT_EQ(pgcodec::info(Encoding::SQL_ASCII).name, "SQL_ASCII");
  EXPECT_EQ(pgcodec::info(Encoding::KOI8U).name, "KOI8U");
  EXPECT_EQ(pgcodec::info(Encoding::SHIFT_JIS_2004).name, "SHIFT_JIS_2004");
  int server = 0;
  for (auto& e : all) server += e.server;
  EXPECT_EQ(server, 35);  // SQL_ASCII .. KOI8U
  EXPECT_FALSE(pgcodec::info(Encoding::SJIS).server);
  EXPECT_TRUE(pgcodec::info(Encoding::KOI8U).server);
}

TEST(Registry, EveryEncodingHasItsOwnAliasesAndTheyResolveBack) {
  std::set<std::string_view> seen;
  for (auto& e : pgcodec::encodings()) {
    EXPECT_FALSE(e.aliases.empty()) << e.name;
    for (auto a : e.aliases) {
      EXPECT_TRUE(seen.insert(a).second) << a;
      EXPECT_EQ(pgcodec::lookup(a), e.id) << a;
    }
    // The canonical name resolves to itself.
    EXPECT_EQ(pgcodec::lookup(e.name), e.id) << e.name;
  }
  EXPECT_EQ(seen.size(), pgcodec::aliases().size());
  EXPECT_EQ(pgcodec::aliases().size(), 81u);
}

TEST(Registry, PostgresNameRule) {
  EXPECT_EQ(pgcodec::lookup("Shift-JIS"), Encoding::SJIS);
  EXPECT_EQ(pgcodec::lookup("shift_jis"), Encoding::SJIS);
  EXPECT_EQ(pgcodec::lookup("S.J.I.S"), Encoding::SJIS);
  EXPECT_EQ(pgcodec::lookup("u t f 8"), Encoding::UTF8);
  EXPECT_EQ(pgcodec::lookup("Unicode"), Encoding::UTF8);
  EXPECT_EQ(pgcodec::lookup("WIN"), Encoding::WIN1251);
  EXPECT_EQ(pgcodec::lookup("abc"), Encoding::WIN1258);
  EXPECT_EQ(pgcodec::lookup("Latin-1"), Encoding::LATIN1);
  EXPECT_EQ(pgcodec::lookup("ISO_8859-15"), Encoding::LATIN9);
  EXPECT_FALSE(pgcodec::lookup("CP1252"));
  EXPECT_FALSE(pgcodec::lookup("ascii"));
  EXPECT_FALSE(pgcodec::lookup("cp932"));
  EXPECT_FALSE(pgcodec::lookup(""));
  EXPECT_FALSE(pgcodec::lookup("---"));
  // 63 bytes still resolve, 64 are "certainly not in the table".
  EXPECT_EQ(pgcodec::lookup("utf8" + std::string(59, '-')), Encoding::UTF8);
  EXPECT_FALSE(pgcodec::lookup("utf8" + std::string(60, '-')));
  EXPECT_EQ(pgcodec::normalize_name("Shift-JIS_2004"), "shiftjis2004");
}

// Random respellings: insert separators, change case, append junk, and
// compare with libpq's copy of PostgreSQL's rule, lengths 64+ included.
TEST(Registry, AgreesWithLibpqOnRandomRespellings) {
  std::mt19937 rng(20261130);
  const std::string junk = " -_.,/+:;()'\"\t\xc3\xa9\x80";
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  int checked = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string base;
    if (pick(10) == 0) {
      base = "x" + std::to_string(pick(100000));
    } else {
      auto al = pgcodec::aliases();
      base = std::string(al[pick(al.size())].name);
    }
    std::string s;
    for (char c : base) {
      while (pick(4) == 0) s.push_back(junk[pick(junk.size())]);
      s.push_back(pick(2) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    }
    if (pick(20) == 0) s += std::string(pick(80), '-');
    if (pick(30) == 0) s.push_back('z');
    const int theirs = pg_char_to_encoding(s.c_str());
    const auto ours = pgcodec::lookup(s);
    ASSERT_EQ(ours ? pgcodec::to_int(*ours) : -1, theirs) << "name: " << s;
    ++checked;
  }
  EXPECT_EQ(checked, 20000);
}

}  // namespace
