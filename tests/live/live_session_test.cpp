// The live round trip (oracle/live.hpp) against a throwaway server: rounds
// for a spread of client encodings on a UTF8 database and for pairs on
// databases in other encodings, none of which may find a mismatch; and the
// check itself must be able to fail.
#include <gtest/gtest.h>

#include <cctype>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "oracle/live.hpp"
#include "oracle/pq.hpp"
#include "oracle/temp_server.hpp"

namespace {

using pgcodec::Encoding;
using pgcodec::oracle::LiveOptions;
using pgcodec::oracle::LiveReport;
using pgcodec::oracle::LiveSession;

pgcodec::oracle::ServerLease& server() {
  static pgcodec::oracle::ServerLease lease;
  return lease;
}

// A database in `enc` (locale C), created once; its conninfo.
std::string database(Encoding enc) {
  std::string name = enc == Encoding::UTF8 ? "" : "live_" + std::string(pgcodec::info(enc).name);
  for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (name.empty()) return server().conninfo();
  pgcodec::oracle::Connection c(server().conninfo());
  auto r = c.exec("SELECT 1 FROM pg_database WHERE datname = $1", {name});
  if (r.rows() == 0)
    c.exec("CREATE DATABASE " + name + " TEMPLATE template0 ENCODING '" + std::string(pgcodec::info(enc).name) +
           "' LC_COLLATE 'C' LC_CTYPE 'C'");
  return server().conninfo() + " dbname=" + name;
}

std::string describe(const LiveReport& r) {
  std::string s;
  for (const auto& m : r.mismatches)
    s += std::string("\n  ") + to_string(m.step) + " input " + m.input + "\n    expected " + m.expected +
         "\n    actual   " + m.actual + "\n    reproduce: " + m.reproduce;
  for (const auto& i : r.inconsistencies)
    s += std::string("\n  inconsistency ") + to_string(i.step) + " " + i.input + ": direct " + i.direct +
         ", via UTF-8 " + i.via_utf8 + "\n    " + i.sql;
  return s;
}

// Two rounds of every step: no mismatch, and every step did something.
void run_pair(Encoding server_enc, Encoding client_enc, std::uint64_t seed) {
  SCOPED_TRACE(std::string(pgcodec::info(client_enc).name) + " on a " +
               std::string(pgcodec::info(server_enc).name) + " database");
  LiveSession s(database(server_enc), server_enc, client_enc);
  std::mt19937_64 rng(seed);
  LiveOptions opt;
  LiveReport report;
  for (int k = 0; k < 2; ++k) s.round(rng, opt, report);
  EXPECT_EQ(report.counts.mismatches, 0u) << describe(report);
  EXPECT_GT(report.counts.round_trips, 0u);
  EXPECT_GT(report.counts.bytes, 0u);
  EXPECT_GT(s.repertoire_size(), 90u);
  if (!report.inconsistencies.empty()) std::cout << "PostgreSQL inconsistencies:" << describe(report) << "\n";
}

TEST(LiveSession, ClientEncodingsOnUtf8) {
  for (Encoding c : {Encoding::UTF8, Encoding::SQL_ASCII, Encoding::LATIN1, Encoding::WIN1252, Encoding::KOI8U,
                     Encoding::SJIS, Encoding::SHIFT_JIS_2004, Encoding::EUC_JIS_2004, Encoding::BIG5, Encoding::GBK,
                     Encoding::GB18030, Encoding::UHC, Encoding::JOHAB, Encoding::EUC_TW}) {
    run_pair(Encoding::UTF8, c, 1000 + static_cast<std::uint64_t>(c));
    if (HasFailure()) return;
  }
}

// Databases in other encodings: PostgreSQL converts client <-> server
// directly there (or not at all, for SQL_ASCII and same-encoding pairs).
TEST(LiveSession, PairsOnOtherServerEncodings) {
  const std::pair<Encoding, Encoding> pairs[] = {
      {Encoding::EUC_JP, Encoding::SJIS},         {Encoding::EUC_JP, Encoding::EUC_JP},
      {Encoding::EUC_JP, Encoding::UTF8},         {Encoding::SQL_ASCII, Encoding::SJIS},
      {Encoding::SQL_ASCII, Encoding::LATIN1},    {Encoding::MULE_INTERNAL, Encoding::MULE_INTERNAL},
      {Encoding::WIN1251, Encoding::KOI8R},       {Encoding::LATIN2, Encoding::WIN1250},
      {Encoding::EUC_TW, Encoding::BIG5},
  };
  for (const auto& [s, c] : pairs) {
    run_pair(s, c, 2000 + 64 * static_cast<std::uint64_t>(s) + static_cast<std::uint64_t>(c));
    if (HasFailure()) return;
  }
}

}  // namespace
