// The divergence registry's folding and checking (tools/pgcodec/registry.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "verifier/verify.hpp"

namespace pgcodec::cli {
namespace {

RegistryRow enc(unsigned cp, const char* pg, const char* ref, const char* cat = "only-reference") {
  char in[16];
  std::snprintf(in, sizeof in, "U+%04X", cp);
  return {"encode", in, pg, ref, cat, "note"};
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
  for (unsigned cp = 0x100; cp < 0x120; ++cp) rows.push_back(enc(cp, "41", "42", "different-mapping"));
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
    rows.push_back({"decode", in, "invalid", "U+0041", "only-reference", "n"});
  }
  const auto folded = fold(rows);
  ASSERT_EQ(folded.size(), 1u);
  EXPECT_EQ(folded[0].input, "81 40..81 4f");
  const RegistryCheck check(folded);
  EXPECT_TRUE(check.registered({"decode", "81 4a", "invalid", "U+1234", "only-reference", "n"}));
  EXPECT_FALSE(check.registered({"decode", "81 50", "invalid", "U+1234", "only-reference", "n"}));
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
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pgcodec::cli
