// The live round trip (oracle/live.hpp) against a throwaway server: rounds
// for a spread of client encodings on a UTF8 database and for pairs on
// databases in other encodings, none of which may find a mismatch; and the
// check itself must be able to fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "oracle/live.hpp"
#include "oracle/pq.hpp"
#include "live_server.hpp"
#include "oracle/temp_server.hpp"

namespace {

using pgcodec::Encoding;
using pgcodec::oracle::LiveOptions;
using pgcodec::oracle::LiveReport;
using pgcodec::oracle::LiveSession;

pgcodec::oracle::ServerLease& server() { return pgcodec::testing::live_server(); }

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

// Rounds per pair: 2, times PGCODEC_LIVE_SCALE.
long rounds() {
  const char* s = std::getenv("PGCODEC_LIVE_SCALE");
  const long k = s ? std::strtol(s, nullptr, 10) : 1;
  return 2 * (k > 0 ? k : 1);
}

// The source tree's registry, as `pgcodec live` reads it: is this character
// registered for PostgreSQL's direct conversion from -> to?
bool registered(Encoding from, Encoding to, std::string_view character) {
  static std::map<std::pair<Encoding, Encoding>, pgcodec::harness::RegistryCheck> checks;
  auto it = checks.find({from, to});
  if (it == checks.end()) {
    pgcodec::harness::RegistryFile f;
    pgcodec::harness::read_registry(
        pgcodec::harness::registry_path(PGCODEC_SOURCE_REGISTRY, from,
                                        "postgres-direct-" + std::string(pgcodec::info(to).name)),
        f);
    it = checks.emplace(std::pair(from, to), pgcodec::harness::RegistryCheck(f.rows)).first;
  }
  using pgcodec::harness::Direction;
  return it->second.lists(Direction::Decode, pgcodec::harness::input_text(character, Direction::Decode));
}

// Two rounds of every step: no mismatch, and every step did something.
void run_pair(Encoding server_enc, Encoding client_enc, std::uint64_t seed) {
  SCOPED_TRACE(std::string(pgcodec::info(client_enc).name) + " on a " +
               std::string(pgcodec::info(server_enc).name) + " database");
  LiveSession s(database(server_enc), server_enc, client_enc);
  std::mt19937_64 rng(seed);
  LiveOptions opt;
  opt.registered_direct = registered;
  LiveReport report;
  const auto t0 = std::chrono::steady_clock::now();
  s.round(rng, opt, report);  // the first round also builds the pair's repertoire
  const auto t1 = std::chrono::steady_clock::now();
  for (long k = 1; k < rounds(); ++k) s.round(rng, opt, report);
  const auto t2 = std::chrono::steady_clock::now();
  std::cout << pgcodec::info(client_enc).name << " on " << pgcodec::info(server_enc).name << ": first round "
            << std::chrono::duration_cast<std::chrono::milliseconds>(t1 - t0).count() << " ms, then "
            << std::chrono::duration_cast<std::chrono::milliseconds>(t2 - t1).count() / std::max(1L, rounds() - 1)
            << " ms a round, "
            << report.counts.round_trips << " round trips, " << report.counts.errors_compared << " errors compared, "
            << report.counts.inconsistencies << " inconsistencies\n";
  EXPECT_EQ(report.counts.mismatches, 0u) << describe(report);
  EXPECT_GT(report.counts.round_trips, 0u);
  for (std::size_t k = 0; k < pgcodec::oracle::kLiveSteps; ++k) {
    const auto step = static_cast<pgcodec::oracle::LiveStep>(k);
    // bad-result needs characters the server has and the client lacks
    // (or, on SQL_ASCII, bytes the client's encoding refuses); the report
    // says when there are none.
    const bool said = std::any_of(report.notes.begin(), report.notes.end(), [](const std::string& n) {
      return n.rfind("bad-result skipped", 0) == 0;
    });
    if (step == pgcodec::oracle::LiveStep::BadResult && said) continue;
    EXPECT_GT(report.counts.step_round_trips[k], 0u) << to_string(step);
  }
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

// What a UTF8 database allows: every encoding but MULE_INTERNAL.
TEST(LiveSession, AllowedClientEncodingsOnUtf8) {
  const auto v = pgcodec::oracle::allowed_client_encodings(database(Encoding::UTF8));
  EXPECT_EQ(v.size(), 41u);
  EXPECT_EQ(std::count(v.begin(), v.end(), Encoding::MULE_INTERNAL), 0);
  const auto m = pgcodec::oracle::allowed_client_encodings(database(Encoding::MULE_INTERNAL));
  EXPECT_EQ(std::count(m.begin(), m.end(), Encoding::MULE_INTERNAL), 1);
  EXPECT_EQ(std::count(m.begin(), m.end(), Encoding::UTF8), 0);
}

// Every server encoding with every client encoding it allows, two rounds
// each (about 20 s): beyond what Live.AllPairsShortRound (the CLI, no
// mismatch) asks, every step of every pair must have done something or
// said why not.
TEST(LiveSession, EveryPairEveryStep) {
  for (const auto& si : pgcodec::encodings()) {
    if (!si.server) continue;
    const std::string db = database(si.id);
    for (Encoding c : pgcodec::oracle::allowed_client_encodings(db)) {
      run_pair(si.id, c, 3000 + 64 * static_cast<std::uint64_t>(si.id) + static_cast<std::uint64_t>(c));
      if (HasFailure()) return;
    }
  }
}

// The check can fail: with every expectation made wrong, every step
// reports mismatches (with the input, both sides and a reproduction), and
// none of them is taken for a PostgreSQL inconsistency on a UTF8 database.
TEST(LiveSession, WrongExpectationsAreMismatches) {
  for (Encoding c : {Encoding::LATIN1, Encoding::SJIS}) {
    LiveSession s(database(Encoding::UTF8), Encoding::UTF8, c);
    std::mt19937_64 rng(7);
    LiveOptions opt;
    opt.keep = 10000;
    opt.alter_expected = [](pgcodec::oracle::LiveStep, std::string& e) { e += "!"; };
    LiveReport report;
    s.round(rng, opt, report);
    EXPECT_EQ(report.counts.inconsistencies, 0u);
    std::set<pgcodec::oracle::LiveStep> seen;
    for (const auto& m : report.mismatches) {
      seen.insert(m.step);
      EXPECT_FALSE(m.input.empty() || m.expected.empty() || m.actual.empty() || m.reproduce.empty())
          << to_string(m.step);
    }
    EXPECT_EQ(seen.size(), pgcodec::oracle::kLiveSteps) << describe(report);
    EXPECT_EQ(report.counts.mismatches, report.mismatches.size());
  }
}

// PostgreSQL's inconsistencies count as such only when the registry lists
// one of their characters: with a registry that lists nothing, every one
// is a mismatch; with the source tree's, none is.
TEST(LiveSession, UnregisteredInconsistenciesAreMismatches) {
  for (const auto& [srv, cl] : {std::pair(Encoding::EUC_JP, Encoding::SJIS), std::pair(Encoding::KOI8R, Encoding::WIN866),
                                std::pair(Encoding::MULE_INTERNAL, Encoding::LATIN2)}) {
    SCOPED_TRACE(std::string(pgcodec::info(cl).name) + " on " + std::string(pgcodec::info(srv).name));
    for (const bool known : {true, false}) {
      LiveSession s(database(srv), srv, cl);
      std::mt19937_64 rng(11);
      LiveOptions opt;
      if (known)
        opt.registered_direct = registered;
      else
        opt.registered_direct = [](Encoding, Encoding, std::string_view) { return false; };
      LiveReport report;
      for (int k = 0; k < 6; ++k) s.round(rng, opt, report);
      if (known) {
        EXPECT_EQ(report.counts.mismatches, 0u) << describe(report);
        EXPECT_GT(report.counts.inconsistencies, 0u);
      } else {
        EXPECT_EQ(report.counts.inconsistencies, 0u);
        EXPECT_GT(report.counts.mismatches, 0u);
      }
    }
  }
}

// Without writes the COPY FROM steps are skipped (and said so); the rest
// still runs, the repertoire sent with each statement.
TEST(LiveSession, ReadOnlySkipsCopyFrom) {
  LiveSession s(database(Encoding::UTF8), Encoding::UTF8, Encoding::GBK);
  std::mt19937_64 rng(9);
  LiveOptions opt;
  opt.writes = false;
  LiveReport report;
  s.round(rng, opt, report);
  EXPECT_EQ(report.counts.mismatches, 0u) << describe(report);
  EXPECT_EQ(report.counts.skipped, 2u);
  EXPECT_EQ(report.notes.size(), 1u);
  using pgcodec::oracle::LiveStep;
  EXPECT_EQ(report.counts.step_round_trips[static_cast<std::size_t>(LiveStep::CopyFrom)], 0u);
  EXPECT_GT(report.counts.step_round_trips[static_cast<std::size_t>(LiveStep::Result)], 0u);
  EXPECT_GT(report.counts.step_round_trips[static_cast<std::size_t>(LiveStep::CopyTo)], 0u);
}

// A server that goes away is a fault, never a mismatch.
TEST(LiveSession, LostConnectionIsAFault) {
  LiveSession s(database(Encoding::UTF8), Encoding::UTF8, Encoding::LATIN1);
  std::mt19937_64 rng(3);
  LiveOptions opt;
  LiveReport report;
  s.round(rng, opt, report);
  {
    pgcodec::oracle::Connection c(server().conninfo());
    c.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND "
           "datname = current_database() AND backend_type = 'client backend'");
  }
  EXPECT_THROW(s.round(rng, opt, report), pgcodec::oracle::LiveFault);
  EXPECT_EQ(report.counts.mismatches, 0u);
}

}  // namespace
