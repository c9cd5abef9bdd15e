// `pgcodec live`: the live round trips (oracle/live.hpp) over every pair of
// server encoding and client encoding PostgreSQL allows, on a throwaway
// server (one database per server encoding, template0, locale C) or on a
// user's database (its encoding only; nothing written without
// allow_writes, and then temporary tables only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pgcodec/encoding.hpp"

namespace pgcodec::verifier {

struct LiveRunOptions {
  std::optional<std::string> dsn;          // a user's server; default: a throwaway one
  std::vector<Encoding> encodings;         // client encodings; empty: every one allowed
  std::vector<Encoding> server_encodings;  // empty: all (throwaway) / the DSN's database
  std::optional<double> duration;          // seconds: rounds over all pairs until then
  std::size_t rounds = 1;                  // rounds per pair when no duration is given
  std::uint64_t seed = 1;
  bool allow_writes = false;               // with a dsn: temporary tables may be created
  bool json = false;                       // the report as JSON on standard output
  std::size_t values = 8;                  // values per step and round
  // The divergence registry whose postgres-direct files every PostgreSQL
  // inconsistency met on a non-UTF8 database must be in (default:
  // locate_registry(), as for `pgcodec verify`).
  std::optional<std::string> registry;
  // Progress (a bar on a terminal) and report lines; standard error by default.
  std::function<void(double fraction, const std::string& what)> on_progress;
  std::function<void(const std::string&)> on_line;
  // With json: the report, one JSON object, handed over once at the end (also
  // after a fault); standard output by default. The caller checks the write.
  std::function<void(const std::string&)> on_json;
  // Asked between steps and rounds (a signal handler's flag): when true the
  // run stops, and the throwaway server is removed before run_live returns 2.
  std::function<bool()> stop_requested;
};

// 0: every round trip matched; 1: a mismatch; 2: a fault that is not about
// encodings (the connection dropped, an unrelated server error), bad usage,
// or a stop asked for. Faults are reported as "pgcodec live: fault: ..."
// naming the pair, never counted as mismatches. Other exceptions (a
// throwaway server that cannot start) propagate, after cleaning up.
int run_live(const LiveRunOptions& o);

}  // namespace pgcodec::verifier
