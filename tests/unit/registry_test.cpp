// The divergence registry's folding and checking (harness/core/registry.cpp).
#include "core/registry.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace pgcodec::harness {
namespace {

RegistryRow enc(unsigned cp, const char* pg, const char* ref, Category cat = Category::OnlyActual) {
  char in[16];
  std::snprintf(in, sizeof in, "U+%04X", cp);
  return {Direction::Encode, in, pg, ref, cat, "note"};
}

std::vector<RegistryRow> run_of(unsigned first, unsigned n) {
  std::vector<RegistryRow> rows;
  for (unsigned cp = first; cp < first + n; ++cp) {
    char out[8];
    std::snprintf(out, sizeof out, "%02x", cp & 0xFF);
    rows.push_back(enc(cp, "no-equivalent", out));
  }
  return rows;
}

TEST(Registry, LongRunsFoldIntoOneRangeRowShortOnesStay) {
  auto rows = run_of(0x100, 20);
  auto more = run_of(0x200, 3);
  rows.insert(rows.end(), more.begin(), more.end());
  const auto folded = fold(rows);
  ASSERT_EQ(folded.size(), 4u);
  EXPECT_EQ(folded[0].input, "U+0100..U+0113");
  EXPECT_EQ(folded[0].reference, "converts");
  EXPECT_EQ(folded[0].postgres, "no-equivalent");
  EXPECT_EQ(folded[1].input, "U+0200");
  EXPECT_EQ(folded[1].reference, "00");
}

TEST(Registry, RunsBreakAtGapsAndAtDifferentFailures) {
  auto rows = run_of(0x100, 10);
  rows[5].postgres = "invalid";  // a different failure splits the run
  const auto folded = fold(rows);
  for (auto& r : folded) EXPECT_EQ(r.input.find(".."), std::string::npos) << r.input;
}

TEST(Registry, DifferentMappingsNeverFold) {
  std::vector<RegistryRow> rows;
  for (unsigned cp = 0x100; cp < 0x120; ++cp) rows.push_back(enc(cp, "41", "42", Category::DifferentMapping));
  EXPECT_EQ(fold(rows).size(), rows.size());
}

TEST(Registry, CheckAcceptsExactlyTheRegisteredDivergences) {
  const auto rows = run_of(0x100, 20);
  auto registered = fold(rows);
  registered.push_back(enc(0x300, "no-equivalent", "41"));
  const RegistryCheck check(registered);
  for (auto& r : rows) EXPECT_TRUE(check.registered(r)) << r.input;
  // The same input diverging another way is not registered.
  EXPECT_FALSE(check.registered(enc(0x105, "invalid", "41")));
  EXPECT_FALSE(check.registered(enc(0x114, "no-equivalent", "41")));  // outside the range
  EXPECT_FALSE(check.registered(enc(0x300, "no-equivalent", "42")));  // single rows are exact
  EXPECT_TRUE(check.lists(Direction::Encode, "U+0300"));  // ... but list their input
  EXPECT_FALSE(check.lists(Direction::Encode, "U+0301"));
  // Found everything but U+0107 and U+0300: both are stale.
  auto found = rows;
  found.erase(found.begin() + 7);
  const auto stale = check.stale(found);
  ASSERT_EQ(stale.size(), 2u);
}

TEST(Registry, DecodeRangesCountBytesAsBigEndianCodes) {
  std::vector<RegistryRow> rows;
  for (unsigned t = 0x40; t < 0x50; ++t) {
    char in[8];
    std::snprintf(in, sizeof in, "81 %02x", t);
    rows.push_back({Direction::Decode, in, "invalid", "U+0041", Category::OnlyActual, "n"});
  }
  const auto folded = fold(rows);
  ASSERT_EQ(folded.size(), 1u);
  EXPECT_EQ(folded[0].input, "81 40..81 4f");
  const RegistryCheck check(folded);
  EXPECT_TRUE(check.registered({Direction::Decode, "81 4a", "invalid", "U+1234", Category::OnlyActual, "n"}));
  EXPECT_FALSE(check.registered({Direction::Decode, "81 50", "invalid", "U+1234", Category::OnlyActual, "n"}));
  // lists(): is there any row about this input (range members included).
  EXPECT_TRUE(check.lists(Direction::Decode, "81 40"));
  EXPECT_TRUE(check.lists(Direction::Decode, "81 4f"));
  EXPECT_FALSE(check.lists(Direction::Decode, "81 50"));
  EXPECT_FALSE(check.lists(Direction::Encode, "81 4a"));
}

TEST(Registry, WrittenFilesReadBackToTheSameRows) {
  const auto dir = std::filesystem::temp_directory_path() / "pgcodec-registry-test";
  std::filesystem::create_directories(dir);
  RegistryFile f{"SJIS", "python-cp932", run_of(0x100, 12)};
  f.rows.push_back(enc(0x400, "no-equivalent", "81 40"));
  const std::string path = registry_path(dir.string(), Encoding::SJIS, "python-cp932");
  write_registry(path, f, "test");
  RegistryFile back;
  ASSERT_TRUE(read_registry(path, back));
  EXPECT_EQ(back.rows.size(), 2u);  // one range, one single row
  const RegistryCheck check(back.rows);
  for (auto& r : f.rows) EXPECT_TRUE(check.registered(r));
  EXPECT_TRUE(check.stale(f.rows).empty());
  EXPECT_EQ(back.rows[0].note, "note");
  EXPECT_EQ(back.rows[0].direction, Direction::Encode);
  EXPECT_EQ(back.rows[0].category, Category::OnlyActual);
  std::filesystem::remove_all(dir);
}

// A direct-conversion file (<FROM>.postgres-direct-<TO>.tsv): outputs are
// bytes in the target with what the target reads them as, failures as in
// any file; the rows fold and check as any, and each group's SQL reads back.
TEST(Registry, DirectConversionRowsRenderBothSidesAndReadBack) {
  EXPECT_EQ(transcoded_text(Outcome::converted("\xad\xf0"), std::string("\xe2\x89\x92")), "ad f0 [U+2252]");
  EXPECT_EQ(transcoded_text(Outcome::converted("\x8e\xa3\xc3\xb7"), std::nullopt), "8e a3 c3 b7 [unreadable]");
  EXPECT_EQ(transcoded_text(Outcome::failed(OutcomeKind::NoEquivalent, 0), std::string("x")), "no-equivalent");
  EXPECT_EQ(transcoded_text(Outcome::failed(OutcomeKind::InvalidByteSequence, 2), std::nullopt), "invalid@2");

  const auto dir = std::filesystem::temp_directory_path() / "pgcodec-registry-direct-test";
  std::filesystem::create_directories(dir);
  const std::string two = "PostgreSQL's SJIS -> EUC_JP conversion writes them with other bytes";
  const std::string sub = "PostgreSQL's SJIS -> EUC_JP conversion writes its substitute";
  RegistryFile f{"SJIS", "postgres-direct-EUC_JP", {}, "EUC_JP", {}};
  f.rows.push_back({Direction::Decode, "87 90", "ad f0 [U+2252]", "a2 e2 [U+2252]", Category::DifferentMapping, two});
  for (unsigned t = 0x40; t < 0x4a; ++t) {
    char in[8];
    std::snprintf(in, sizeof in, "fa %02x", t);
    f.rows.push_back({Direction::Decode, in, "a2 ae [U+3013]", "no-equivalent", Category::OnlyExpected, sub});
  }
  f.group_sql[two] = "SELECT convert('\\x8790'::bytea, 'SJIS', 'EUC_JP') AS direct;";
  f.group_sql[sub] = "SELECT convert('\\xfa40'::bytea, 'SJIS', 'EUC_JP') AS direct;";
  const std::string path = registry_path(dir.string(), Encoding::SJIS, "postgres-direct-EUC_JP");
  EXPECT_EQ(std::filesystem::path(path).filename(), "SJIS.postgres-direct-EUC_JP.tsv");
  write_registry(path, f, "test");

  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_NE(first.find("direct conversion SJIS -> EUC_JP"), std::string::npos) << first;

  RegistryFile back;
  ASSERT_TRUE(read_registry(path, back));
  ASSERT_EQ(back.rows.size(), 2u);  // the mapping row and one range
  EXPECT_EQ(back.rows[0].input, "87 90");
  EXPECT_EQ(back.rows[0].postgres, "ad f0 [U+2252]");
  EXPECT_EQ(back.rows[0].reference, "a2 e2 [U+2252]");
  EXPECT_EQ(back.rows[1].input, "fa 40..fa 49");
  EXPECT_EQ(back.rows[1].postgres, "converts");
  EXPECT_EQ(back.group_sql, f.group_sql);
  const RegistryCheck check(back.rows);
  for (auto& r : f.rows) EXPECT_TRUE(check.registered(r)) << r.input;
  EXPECT_TRUE(check.stale(f.rows).empty());
  // The direct side converting to other bytes is another divergence.
  EXPECT_FALSE(check.registered(
      {Direction::Decode, "87 90", "ad f1 [U+2252]", "a2 e2 [U+2252]", Category::DifferentMapping, two}));
  std::filesystem::remove_all(dir);
}

// Every row of every committed registry file reads into a typed row that
// writes back as the same line (the files are outputs of `pgcodec verify`).
TEST(Registry, CommittedRowsReadBackToTheSameLines) {
  std::size_t files = 0, rows = 0;
  for (const auto& entry : std::filesystem::directory_iterator(PGCODEC_SOURCE_REGISTRY)) {
    if (entry.path().extension() != ".tsv") continue;
    RegistryFile f;
    ASSERT_TRUE(read_registry(entry.path().string(), f));
    std::ifstream in(entry.path());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') lines.push_back(line);
    ASSERT_EQ(lines.size(), f.rows.size()) << entry.path();
    for (std::size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(f.rows[i].key(), lines[i]) << entry.path();
    ++files;
    rows += lines.size();
  }
  EXPECT_GT(files, 50u);
  EXPECT_GT(rows, 1000u);
}

}  // namespace
}  // namespace pgcodec::harness
