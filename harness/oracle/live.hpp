// The live round trip: pgcodec on the path a driver takes, against a running
// server, for one (server encoding, client encoding) pair. A session holds
// one connection to a database whose encoding is `server`, with
// client_encoding set to `client`, and each round runs every step with
// random text:
//   parameter   text encoded by pgcodec goes as a text parameter; what the
//               server stored (as UTF-8) must be pgcodec's decode of it
//   result      text the server makes (random characters of the pair's
//               repertoire, chosen in SQL) arrives in a text column; pgcodec's
//               decode of it must be what the server holds
//   copy-from   COPY ... FROM STDIN with data from a StreamEncoder, sent in
//               random chunk sizes; the table must hold the text
//   copy-to     COPY ... TO STDOUT decoded by a StreamDecoder in the chunks
//               libpq hands over; it must be the text the server holds
//   bad-parameter / bad-copy / bad-result
//               bytes with invalid sequences and unmappable characters at
//               random places (and text the client encoding lacks, sent
//               back); the server's error (SQLSTATE, the bytes its message
//               quotes, and COPY's line) must be the first error pgcodec
//               reports for the same input
// Where the server encoding is not UTF8, PostgreSQL converts client <->
// server directly; where that disagrees with going through UTF-8 (what
// pgcodec does, and what PostgreSQL does for the same bytes with convert()
// to and from UTF8) the difference is PostgreSQL's own inconsistency, counted
// and shown with the SQL that shows it, never a mismatch. (MULE_INTERNAL has
// no conversion to UTF8 on the server; there pgcodec's composition through
// the member encoding stands for "through UTF-8".)
// Where PostgreSQL does not convert at all (the same encoding on both sides,
// or SQL_ASCII on either) it only verifies: the server's encoding's verifier
// for parameters, the client's for COPY FROM and for results sent from a
// SQL_ASCII database, and on a SQL_ASCII database a client-only encoding's
// parameters may hold no non-ASCII byte (mbutils.c pg_any_to_server); the
// expectations model exactly that.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pgcodec/encoding.hpp"

namespace pgcodec::oracle {

// Not about encodings: the connection dropped, or the server raised an error
// whose SQLSTATE is not a conversion error's (or at a step where none was
// expected and the SQLSTATE says it is not the input's fault). The live mode
// reports it as such and exits 2; it is never counted as a mismatch.
class LiveFault : public std::runtime_error {
 public:
  LiveFault(const std::string& what, std::string sqlstate = {})
      : std::runtime_error(what), sqlstate_(std::move(sqlstate)) {}
  const std::string& sqlstate() const noexcept { return sqlstate_; }

 private:
  std::string sqlstate_;
};

// The steps, in the order a round runs them.
enum class LiveStep : std::uint8_t { Parameter, Result, CopyFrom, CopyTo, BadParameter, BadCopy, BadResult };
const char* to_string(LiveStep s) noexcept;  // "parameter", "result", "copy-from", ...
inline constexpr std::size_t kLiveSteps = 7;

struct LiveMismatch {
  LiveStep step{};
  std::string input;     // what was sent or asked for: hex bytes, or U+ text
  std::string expected;  // what had to come back (describe() of an Outcome, or text)
  std::string actual;    // what came back
  std::string reproduce; // a shell command or SQL that shows it
};

// PostgreSQL's direct client <-> server conversion against going through UTF-8.
struct LiveInconsistency {
  LiveStep step{};
  std::string input;     // hex bytes (in the client encoding, or the server's)
  std::string direct;    // what the direct conversion gives
  std::string via_utf8;  // what converting through UTF-8 gives
  std::string sql;       // statements that show both
};

struct LiveCounts {
  std::size_t round_trips = 0;      // values sent and checked, all steps
  std::size_t bytes = 0;            // bytes sent and received in the client encoding
  std::size_t errors_compared = 0;  // bad-input cases whose error was compared
  std::size_t mismatches = 0;
  std::size_t inconsistencies = 0;
  std::size_t skipped = 0;          // steps skipped (no writes allowed, empty repertoire)
  std::array<std::size_t, kLiveSteps> step_round_trips{};  // round_trips by step, in LiveStep order
  LiveCounts& operator+=(const LiveCounts& o) noexcept;
};

struct LiveReport {
  LiveCounts counts;
  std::vector<LiveMismatch> mismatches;            // the first `keep` of them
  std::vector<LiveInconsistency> inconsistencies;  // the first `keep` distinct inputs
  std::vector<std::string> notes;                  // steps skipped and why, once each
};

struct LiveOptions {
  std::size_t values = 8;     // values per step and round
  std::size_t max_chars = 48; // characters per value, at most
  bool writes = true;         // may create TEMPORARY tables (COPY FROM); else those steps are skipped
  std::size_t keep = 5;       // mismatches / inconsistencies kept per report
  // For tests of the check itself: called with every expectation before it
  // is compared (the expected bytes, or the bytes an expected error
  // quotes), so that a test can make it wrong and see the mismatch reported.
  void (*alter_expected)(LiveStep step, std::string& expected) = nullptr;
  // Whether PostgreSQL's direct conversion `from` -> `to` is registered as
  // disagreeing with UTF-8 on this one character (bytes in `from`): the
  // divergence registry's postgres-direct files (oracle/direct.hpp). When
  // set, an inconsistency (on a pair whose ends are not UTF8) must contain
  // a registered character, or it is a mismatch: the registry lacks it.
  // Unset, a difference counts as PostgreSQL's only where the server's own
  // convert() through UTF-8 confirms it, which it cannot for MULE_INTERNAL.
  std::function<bool(Encoding from, Encoding to, std::string_view character)> registered_direct;
};

class LiveSession {
 public:
  // Connects to `conninfo` (a database whose encoding is `server`) and sets
  // client_encoding to `client`. Throws LiveFault when the server refuses
  // the connection or the pair (PostgreSQL has no conversion between them).
  LiveSession(const std::string& conninfo, Encoding server, Encoding client);
  ~LiveSession();
  LiveSession(LiveSession&&) noexcept;
  LiveSession& operator=(LiveSession&&) noexcept;

  Encoding server() const noexcept;
  Encoding client() const noexcept;
  // How many characters the pair's repertoire has (what the result and copy
  // steps choose from), known after the first round.
  std::size_t repertoire_size() const noexcept;

  // One round: every step once, with opt.values values each, drawn from rng.
  // Adds to `report`; throws LiveFault (see above).
  void round(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& report);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The client encodings PostgreSQL lets a connection to `conninfo` (a
// database in `server`) use: it asks the server, with SET client_encoding,
// for each of the 42 encodings. Throws LiveFault if the connection fails.
std::vector<Encoding> allowed_client_encodings(const std::string& conninfo);

}  // namespace pgcodec::oracle
