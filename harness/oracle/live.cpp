#include "oracle/live.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <array>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "core/generators.hpp"
#include "core/outcome.hpp"
#include "core/text.hpp"
#include "oracle/postgres.hpp"
#include "oracle/pq.hpp"
#include "pgcodec/codec.hpp"
#include "pgcodec/stream.hpp"

namespace pgcodec::oracle {

const char* to_string(LiveStep s) noexcept {
  switch (s) {
    case LiveStep::Parameter: return "parameter";
    case LiveStep::Result: return "result";
    case LiveStep::CopyFrom: return "copy-from";
    case LiveStep::CopyTo: return "copy-to";
    case LiveStep::BadParameter: return "bad-parameter";
    case LiveStep::BadCopy: return "bad-copy";
    case LiveStep::BadResult: return "bad-result";
  }
  return "?";
}

LiveCounts& LiveCounts::operator+=(const LiveCounts& o) noexcept {
  round_trips += o.round_trips;
  bytes += o.bytes;
  errors_compared += o.errors_compared;
  mismatches += o.mismatches;
  inconsistencies += o.inconsistencies;
  skipped += o.skipped;
  for (std::size_t k = 0; k < kLiveSteps; ++k) step_round_trips[k] += o.step_round_trips[k];
  return *this;
}

namespace live_detail {

using harness::hex_digits;
using harness::Outcome;
using harness::OutcomeKind;

std::string name_of(Encoding e) { return std::string(info(e).name); }

// A bytea literal's text ("\x82a0"), the form a text-format bytea parameter
// and a standard-conforming string literal both take.
std::string bytea_text(std::string_view bytes) { return "\\x" + hex_digits(bytes); }

// pgcodec's conversions, nullopt on any error.
std::optional<std::string> decode(const Codec& c, std::string_view in) {
  std::string out(*c.max_decoded_size(in.size()), '\0');
  const pgcodec::Result r = c.decode(in, out);
  if (!r.ok()) return std::nullopt;
  out.resize(r.written);
  return out;
}
std::optional<std::string> encode(const Codec& c, std::string_view utf8) {
  std::string out(*c.max_encoded_size(utf8.size()), '\0');
  const pgcodec::Result r = c.encode(utf8, out);
  if (!r.ok()) return std::nullopt;
  out.resize(r.written);
  return out;
}

// An error as the server reports it: kind, SQLSTATE and quoted bytes; the
// server names no offset, and its wording is not compared (a direct
// conversion names its own encodings).
Outcome error_outcome(const Error& e) {
  Outcome o = Outcome::failed(e.kind == ErrorKind::InvalidByteSequence ? OutcomeKind::InvalidByteSequence
                                                                       : OutcomeKind::NoEquivalent);
  o.sqlstate = e.sqlstate();
  o.bytes = std::string(reinterpret_cast<const char*>(e.bytes.data()), e.length);
  return o;
}

// An expected error together with where it is in the input (for COPY's line).
struct Expected {
  Outcome outcome;
  std::size_t offset = 0;
};

// PostgreSQL's verifier for `e` (pg_verify_mbstr): the first malformed
// character; characters without a mapping are no concern of it. SQL_ASCII's
// verifier rejects only NUL, which no input here holds.
std::optional<Expected> first_invalid(Encoding e, std::string_view in) {
  if (e == Encoding::SQL_ASCII) return std::nullopt;
  std::optional<Expected> found;
  codec(e).for_each_decode_error(in, [&](const Error& err) {
    if (!found && err.kind == ErrorKind::InvalidByteSequence) found = Expected{error_outcome(err), err.offset};
  });
  return found;
}

// A direct conversion from -> to (PostgreSQL's conversion procedure: it
// goes character by character, each checked, then mapped), as pgcodec
// predicts it: the first character of `in` that is malformed (or has no
// UTF-8 equivalent), or whose UTF-8 `to` cannot spell, whichever comes
// first; the latter reported with its bytes in `from`. (The text before it
// is encoded as a whole, not character by character: SHIFT_JIS_2004 spells
// U+304B U+309A as one code but U+309A alone not at all.)
std::optional<Expected> first_direct_error(Encoding from, Encoding to, std::string_view in) {
  const Codec& f = codec(from);
  const Codec& t = codec(to);
  std::string mid(*f.max_decoded_size(in.size()), '\0');
  const pgcodec::Result r = f.decode(in, mid);
  const std::size_t good = r.ok() ? in.size() : r.error.offset;
  mid.resize(r.written);
  std::string out(*t.max_encoded_size(mid.size()), '\0');
  const pgcodec::Result w = t.encode(mid, out);
  if (w.ok()) {
    if (r.ok()) return std::nullopt;
    return Expected{error_outcome(r.error), r.error.offset};
  }
  if (from == Encoding::UTF8) return Expected{error_outcome(w.error), w.error.offset};
  // The source character whose decoded text holds the failing offset.
  std::size_t decoded = 0;
  for (std::size_t at = 0; at < good;) {
    const std::size_t n = std::max<std::size_t>(1, f.char_length(in, at));
    const auto u = decode(f, in.substr(at, n));
    decoded += u ? u->size() : 0;
    if (decoded > w.error.offset) {
      Outcome o = Outcome::failed(OutcomeKind::NoEquivalent);
      o.sqlstate = "22P05";
      o.bytes = std::string(in.substr(at, n));
      return Expected{std::move(o), at};
    }
    at += n;
  }
  return Expected{error_outcome(w.error), good};
}

// Going through UTF-8 as pgcodec does: decode `from`, then encode `to`.
Outcome via_utf8(Encoding from, Encoding to, std::string_view in) {
  const Codec& f = codec(from);
  std::string mid(*f.max_decoded_size(in.size()), '\0');
  const pgcodec::Result r = f.decode(in, mid);
  if (!r.ok()) return error_outcome(r.error);
  mid.resize(r.written);
  const Codec& t = codec(to);
  std::string out(*t.max_encoded_size(mid.size()), '\0');
  const pgcodec::Result w = t.encode(mid, out);
  if (!w.ok()) return error_outcome(w.error);
  out.resize(w.written);
  return Outcome::converted(std::move(out));
}

std::size_t line_of(std::string_view data, std::size_t offset) {
  return 1 + static_cast<std::size_t>(std::count(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(
                                                                   std::min(offset, data.size())),
                                                 '\n'));
}

// COPY's text format, in UTF-8 (where ASCII is unambiguous).
std::string copy_escape(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out.push_back(ch);
    }
  }
  return out;
}
std::string copy_unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out.push_back(s[i]);
      continue;
    }
    const char n = s[++i];
    switch (n) {
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'v': out.push_back('\v'); break;
      case 'x':
        if (i + 1 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1]))) {
          int v = 0;
          for (int k = 0; k < 2 && i + 1 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])); ++k)
            v = v * 16 + std::stoi(std::string(1, s[++i]), nullptr, 16);
          out.push_back(static_cast<char>(v));
        } else {
          out.push_back('x');
        }
        break;
      default:
        if (n >= '0' && n <= '7') {  // up to three octal digits
          int v = n - '0';
          for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k)
            v = v * 8 + (s[++i] - '0');
          out.push_back(static_cast<char>(v & 0xff));
        } else {
          out.push_back(n);  // "\\" and any other escaped character
        }
    }
  }
  return out;
}

// "COPY live_copy, line 3, column v: ..." -> 3; 0 if no line is named.
std::size_t context_line(std::string_view ctx) {
  const std::size_t p = ctx.find(", line ");
  if (p == std::string_view::npos) return 0;
  std::size_t n = 0;
  for (std::size_t i = p + 7; i < ctx.size() && ctx[i] >= '0' && ctx[i] <= '9'; ++i)
    n = n * 10 + static_cast<std::size_t>(ctx[i] - '0');
  return n;
}

// One statement of a pipeline and what came back.
struct Statement {
  std::string sql;
  std::vector<std::string> params;  // text format
};
struct Reply {
  bool ok = false;
  std::vector<std::vector<std::string>> rows;  // NULL reads as empty
  std::string sqlstate, message, context;
  Outcome outcome() const { return server_error(sqlstate, message); }
};

bool conversion_sqlstate(const std::string& s) { return s == "22021" || s == "22P05"; }

// A server error that is about the connection or the server, not the input.
void check_fault(PGconn* c, const Reply& r, const std::string& what) {
  if (PQstatus(c) == CONNECTION_BAD)
    throw LiveFault(what + ": the connection was lost: " + PQerrorMessage(c), r.sqlstate);
  if (r.ok) return;
  if (r.sqlstate.empty() || r.sqlstate == "57P01" || r.sqlstate.rfind("08", 0) == 0)
    throw LiveFault(what + ": " + (r.message.empty() ? PQerrorMessage(c) : r.message), r.sqlstate);
}

Reply read_reply(PGresult* res) {
  Reply out;
  const ExecStatusType st = PQresultStatus(res);
  if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK || st == PGRES_COPY_IN || st == PGRES_COPY_OUT) {
    out.ok = true;
    for (int i = 0; i < PQntuples(res); ++i) {
      out.rows.emplace_back();
      for (int j = 0; j < PQnfields(res); ++j)
        out.rows.back().emplace_back(PQgetvalue(res, i, j), static_cast<std::size_t>(PQgetlength(res, i, j)));
    }
    return out;
  }
  auto field = [&](int code) {
    const char* v = PQresultErrorField(res, code);
    return std::string(v ? v : "");
  };
  out.sqlstate = field(PG_DIAG_SQLSTATE);
  out.message = field(PG_DIAG_MESSAGE_PRIMARY);
  out.context = field(PG_DIAG_CONTEXT);
  if (out.message.empty()) out.message = PQresultErrorMessage(res);
  return out;
}

// Runs the statements in pipeline mode, each followed by a sync point so
// that one statement's error aborts only itself.
std::vector<Reply> pipeline(PGconn* c, const std::vector<Statement>& stmts) {
  std::vector<Reply> out;
  out.reserve(stmts.size());
  if (PQenterPipelineMode(c) != 1) throw LiveFault(std::string("cannot enter pipeline mode: ") + PQerrorMessage(c));
  for (const Statement& s : stmts) {
    std::vector<const char*> values;
    for (const std::string& p : s.params) values.push_back(p.c_str());
    if (!PQsendQueryParams(c, s.sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                           nullptr, 0) ||
        !PQpipelineSync(c))
      throw LiveFault(std::string("pipeline send failed: ") + PQerrorMessage(c));
  }
  for (std::size_t i = 0; i < stmts.size(); ++i) {
    PGresult* first = PQgetResult(c);
    if (!first) throw LiveFault(std::string("pipeline: no result: ") + PQerrorMessage(c));
    oracle::Result r(first);
    out.push_back(read_reply(r.raw()));
    while (PGresult* extra = PQgetResult(c)) PQclear(extra);
    Result sync(PQgetResult(c));
    if (!sync.raw() || PQresultStatus(sync.raw()) != PGRES_PIPELINE_SYNC)
      throw LiveFault(std::string("pipeline: expected a sync point: ") + PQerrorMessage(c));
    check_fault(c, out.back(), stmts[i].sql.substr(0, 60));
  }
  if (PQexitPipelineMode(c) != 1) throw LiveFault(std::string("cannot leave pipeline mode: ") + PQerrorMessage(c));
  return out;
}

Reply exec(PGconn* c, const std::string& sql, const std::vector<std::string>& params = {}) {
  std::vector<const char*> values;
  for (const std::string& p : params) values.push_back(p.c_str());
  Result r(PQexecParams(c, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                        nullptr, 0));
  if (!r.raw()) throw LiveFault(std::string("no result: ") + PQerrorMessage(c));
  Reply out = read_reply(r.raw());
  check_fault(c, out, sql.substr(0, 60));
  return out;
}

}  // namespace live_detail

using namespace live_detail;

struct LiveSession::Impl {
  Connection conn;
  Encoding server, client;
  // The encodings the client's and the server's bytes are in: a SQL_ASCII
  // side holds the other side's bytes (pgcodec's SQL_ASCII is UTF-8).
  Encoding client_bytes, server_bytes;
  // No conversion on the way in or out: the same encoding, or SQL_ASCII on
  // either side (pg_any_to_server / pg_server_to_any only verify then).
  bool identity;
  bool server_has_utf8;  // convert_to(v, 'UTF8') works (not SQL_ASCII, MULE_INTERNAL)

  bool prepared = false;
  bool writes = false;
  std::vector<std::string> rep;         // the pair's repertoire, UTF-8
  std::vector<std::string> foreign;     // in the server's encoding, not in the client's (UTF-8)
  std::vector<std::string> bad_client;  // pieces of client bytes that fail on the way in
  std::string rep_sql;                  // an expression giving the repertoire as text[]
  std::set<std::string> seen_inconsistent;
  bool noted_bad_result = false;
  bool noted_bytewise = false;

  Impl(const std::string& conninfo, Encoding s, Encoding c)
      : conn(conninfo), server(s), client(c),
        client_bytes(c == Encoding::SQL_ASCII ? s : c),
        server_bytes(s == Encoding::SQL_ASCII ? c : s),
        identity(c == s || c == Encoding::SQL_ASCII || s == Encoding::SQL_ASCII),
        server_has_utf8(s != Encoding::SQL_ASCII && s != Encoding::MULE_INTERNAL) {}

  PGconn* pg() { return conn.raw(); }

  void prepare(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& report);
  void mismatch(LiveReport& rep_out, const LiveOptions& opt, LiveStep step, std::string input, const Outcome& expected,
                const Outcome& actual, std::string reproduce);
  // When the server's direct conversion gave `actual` where pgcodec's
  // model of it gave something else: PostgreSQL's inconsistency if the
  // server going through UTF-8 agrees with pgcodec going through UTF-8.
  std::string path_note(Encoding from) const;
  void judge_direct(LiveReport& out, const LiveOptions& opt, LiveStep step, Encoding from, Encoding to,
                    const std::string& in, const Outcome& expected, const Outcome& actual);

  // What the server stores for client bytes that convert (Convert path:
  // pgcodec's way through UTF-8; identity: the bytes).
  Outcome stored_for(std::string_view client_in) const {
    if (identity) return Outcome::converted(std::string(client_in));
    return via_utf8(client, server, client_in);
  }
  Outcome sent_for(std::string_view server_held) const {
    if (identity) return Outcome::converted(std::string(server_held));
    return via_utf8(server, client, server_held);
  }

  // The first error on the way in: the parameter path (pg_any_to_server).
  std::optional<Expected> param_error(std::string_view in) const {
    if (client == server || client == Encoding::SQL_ASCII) return first_invalid(server, in);
    if (server == Encoding::SQL_ASCII) {
      if (info(client).server) return first_invalid(client, in);
      for (std::size_t i = 0; i < in.size(); ++i)
        if (static_cast<unsigned char>(in[i]) >= 0x80) {
          Outcome o = Outcome::failed(OutcomeKind::InvalidByteSequence);
          o.sqlstate = "22021";
          o.bytes = std::string(1, in[i]);
          return Expected{std::move(o), i};
        }
      return std::nullopt;
    }
    return first_direct_error(client, server, in);
  }
  // COPY FROM: without transcoding it verifies with the client's encoding
  // (copyfromparse.c CopyConvertBuf), even a client-only one or SQL_ASCII.
  std::optional<Expected> copy_error(std::string_view in) const {
    if (identity) return first_invalid(client, in);
    return first_direct_error(client, server, in);
  }
  // The way out (pg_server_to_any): a SQL_ASCII database verifies with the
  // client's encoding.
  std::optional<Expected> result_error(std::string_view held) const {
    if (client == server || client == Encoding::SQL_ASCII) return std::nullopt;
    if (server == Encoding::SQL_ASCII) return first_invalid(client, held);
    return first_direct_error(server, client, held);
  }

  std::string random_value(std::mt19937_64& rng, const LiveOptions& opt) const {
    std::string t;
    const std::size_t n = 1 + rng() % std::max<std::size_t>(1, opt.max_chars);
    for (std::size_t i = 0; i < n; ++i) t += rep[rng() % rep.size()];
    return t;
  }

  void step_parameter(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out);
  void step_result(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out);
  void step_copy_from(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out);
  void step_copy_to(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out);
  void step_bad_parameter(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out);
  void step_bad_copy(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out);
  void step_bad_result(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out);

  std::string seed_sql(std::mt19937_64& rng) const {
    const double s = static_cast<double>(rng() % 2000001) / 1000000.0 - 1.0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "SELECT setseed(%.6f)", s);
    return buf;
  }
  std::string lengths_sql(std::mt19937_64& rng, const LiveOptions& opt) const {
    std::string lens = "'{";
    for (std::size_t i = 0; i < opt.values; ++i) {
      if (i) lens += ',';
      lens += std::to_string(1 + rng() % std::max<std::size_t>(1, opt.max_chars));
    }
    return lens + "}'::int[]";
  }
  // A query choosing values of the given lengths from the repertoire, in
  // SQL: (i, v or NULL, its bytes in the server, its UTF-8 or NULL) ordered
  // by i. (textsend() would not do: it sends in the client's encoding.)
  std::string choose_sql(const std::string& lens, bool text) const {
    return std::string("SELECT g.i, ") + (text ? "x.v" : "NULL::text") + ", convert_to(x.v, '" + name_of(server) +
           "'), " + (server_has_utf8 ? "convert_to(x.v, 'UTF8')" : "NULL::bytea") + " FROM unnest(" + lens +
           ") WITH ORDINALITY AS g(len, i), LATERAL (SELECT string_agg(r.c, '' ORDER BY q.o) AS v FROM (SELECT o, "
           "1 + floor(random() * " + std::to_string(rep.size()) + ")::int AS k FROM generate_series(1, g.len) o) q "
           "JOIN " + rep_sql + " r USING (k)) x ORDER BY g.i";
  }
  Reply copy_in(std::mt19937_64& rng, const std::string& data, bool utf8_input, std::string& sent);
  void per_value(const std::string& seed, const std::string& lens, LiveStep step, const LiveOptions& opt,
                 LiveReport& out);
  std::vector<std::string> bad_strings(std::mt19937_64& rng, std::size_t n) const;
  // The expectation, altered by the test hook if one is set.
  static Outcome expect(const LiveOptions& opt, LiveStep step, Outcome o) {
    if (!opt.alter_expected) return o;
    opt.alter_expected(step, o.ok() ? o.output : *(o.bytes ? o.bytes : (o.bytes = std::string())));
    return o;
  }
  void check_sent(LiveReport& out, const LiveOptions& opt, LiveStep step, const std::string& held,
                  const Outcome& actual, const std::optional<std::string>& held_utf8);
};

void LiveSession::Impl::mismatch(LiveReport& out, const LiveOptions& opt, LiveStep step, std::string input,
                                 const Outcome& expected, const Outcome& actual, std::string reproduce) {
  ++out.counts.mismatches;
  if (out.mismatches.size() >= opt.keep) return;
  out.mismatches.push_back(LiveMismatch{step, std::move(input), harness::describe(expected),
                                        harness::describe(actual), std::move(reproduce)});
}

std::string LiveSession::Impl::path_note(Encoding from) const {
  if (from != client) return {};
  return "-- the client path: SET client_encoding = '" + name_of(client) + "' on a " + name_of(server) +
         " database, these bytes as the text parameter of SELECT convert_to($1, '" + name_of(server) +
         "'); convert() verifies all its input first: ";
}

namespace {

// PostgreSQL's conversions from MULE_INTERNAL (mic2euc_cn and the others)
// look at a character's set before its length: a character cut off by the
// end, of a set the target lacks, is "no equivalent" there, where reading
// it (pgcodec, and any path through UTF-8) finds it malformed. No registry
// row can hold it (the registry is of whole characters).
bool mule_checks_set_first(Encoding from, const Outcome& direct) {
  if (from != Encoding::MULE_INTERNAL || direct.ok() || direct.kind != OutcomeKind::NoEquivalent || !direct.bytes)
    return false;
  const Codec& m = codec(from);
  std::string out(*m.max_decoded_size(direct.bytes->size()), '\0');
  const pgcodec::Result r = m.decode(*direct.bytes, out);
  return !r.ok() && r.error.kind == ErrorKind::InvalidByteSequence;
}

// Whether some character of `in` (bytes in `from`) is registered as one on
// which PostgreSQL's direct conversion disagrees with UTF-8.
bool registered_in(const LiveOptions& opt, Encoding from, Encoding to, std::string_view in) {
  const Codec& f = codec(from);
  for (std::size_t at = 0; at < in.size();) {
    const std::size_t n = std::max<std::size_t>(1, f.char_length(in, at));
    if (opt.registered_direct(from, to, in.substr(at, n))) return true;
    at += n;
  }
  return false;
}

}  // namespace

void LiveSession::Impl::judge_direct(LiveReport& out, const LiveOptions& opt, LiveStep step, Encoding from,
                                     Encoding to, const std::string& in, const Outcome& expected,
                                     const Outcome& actual) {
  const std::string lit = "'" + bytea_text(in) + "'::bytea";
  const std::string direct_sql = "SELECT convert(" + lit + ", '" + name_of(from) + "', '" + name_of(to) + "')";
  const std::string via_sql = "SELECT convert(convert(" + lit + ", '" + name_of(from) + "', 'UTF8'), 'UTF8', '" +
                              name_of(to) + "')";
  // On a UTF8 database the client path is what pgcodec is proven against:
  // any difference is a mismatch. On another database the client path runs
  // PostgreSQL's conversion procedure between client and server directly
  // (UTF8 -> EUC_JIS_2004 included: its look-ahead for combining pairs
  // reports a truncated character after it at the wrong place), which
  // convert() through UTF-8 need not agree with.
  const bool direct = !identity && server != Encoding::UTF8;
  if (direct && from != Encoding::MULE_INTERNAL && to != Encoding::MULE_INTERNAL) {
    const Reply via = exec(pg(), via_sql);
    Outcome server_via =
        via.ok ? Outcome::converted(unhex_bytea(via.rows.at(0).at(0))) : via.outcome();
    // convert() verifies all of its input before converting any of it
    // (pg_convert), so a malformed character comes first there.
    const std::optional<Expected> invalid = first_invalid(from, in);
    const Outcome ours = invalid ? invalid->outcome : via_utf8(from, to, in);
    if (harness::agree(ours, server_via)) {
      if (opt.registered_direct && from != Encoding::UTF8 && to != Encoding::UTF8 && !registered_in(opt, from, to, in)) {
        mismatch(out, opt, step, harness::hex_bytes(in) + " (" + name_of(from) + ")", server_via, actual,
                 path_note(from) + direct_sql + "; " + via_sql + "; -- PostgreSQL disagrees with itself here, "
                 "but no character of it is in the registry's " + name_of(from) + ".postgres-direct-" +
                 name_of(to) + ".tsv: run pgcodec verify --references postgres-direct");
        return;
      }
      ++out.counts.inconsistencies;
      if (seen_inconsistent.insert(in).second && out.inconsistencies.size() < opt.keep)
        out.inconsistencies.push_back(LiveInconsistency{step, harness::hex_bytes(in), harness::describe(actual),
                                                        harness::describe(server_via),
                                                        path_note(from) + direct_sql + "; " + via_sql + ";"});
      return;
    }
  }
  if (direct && (from == Encoding::MULE_INTERNAL || to == Encoding::MULE_INTERNAL) &&
      opt.registered_direct && (registered_in(opt, from, to, in) || mule_checks_set_first(from, actual))) {
    // PostgreSQL converts MULE_INTERNAL only directly, within the other
    // side's own character sets; through UTF-8 is pgcodec's composition
    // through the member encoding (docs/mule-internal.md), which the
    // server cannot be asked about but the verifier checked. So only the
    // registry can explain a difference: its postgres-direct files cover
    // MULE_INTERNAL's conversions, every character (the direct conversion
    // lacks a set the composition reaches; MULE spells LATIN2's A-acute 82
    // c1 directly and LATIN1's 81 c1 through UTF-8). Without a registry, or
    // with no registered character in the input, it is a mismatch.
    ++out.counts.inconsistencies;
    if (seen_inconsistent.insert(in).second && out.inconsistencies.size() < opt.keep)
      out.inconsistencies.push_back(LiveInconsistency{
          step, harness::hex_bytes(in), harness::describe(actual), harness::describe(via_utf8(from, to, in)),
          direct_sql + "; -- through UTF-8: MULE_INTERNAL's member encodings, docs/mule-internal.md"});
    return;
  }
  mismatch(out, opt, step, harness::hex_bytes(in) + " (" + name_of(from) + ")", expected, actual,
           direct_sql + ";");
}

namespace {

// Characters of `e`'s repertoire (UTF-8), with ASCII and the characters
// COPY escapes.
void add_texts(std::vector<std::string>& v, Encoding e) {
  const harness::Repertoire& r = harness::repertoire(e);
  v.insert(v.end(), r.text.begin(), r.text.end());
  v.insert(v.end(), r.text_edges.begin(), r.text_edges.end());
}

bool round_trips(const Codec& c, const std::string& t) {
  const auto b = encode(c, t);
  if (!b) return false;
  const auto back = decode(c, *b);
  return back && *back == t;
}

bool has_any(std::string_view s, std::string_view bytes) { return s.find_first_of(bytes) != std::string_view::npos; }

}  // namespace

void LiveSession::Impl::prepare(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& report) {
  prepared = true;
  writes = opt.writes;
  const Codec& cx = codec(client_bytes);
  const Codec& sy = codec(server_bytes);
  std::vector<std::string> cand;
  add_texts(cand, client_bytes);
  if (server_bytes != client_bytes) add_texts(cand, server_bytes);
  std::sort(cand.begin(), cand.end());
  cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
  for (const std::string& t : cand)
    if (t.find('\x01') == std::string::npos && round_trips(cx, t) && round_trips(sy, t)) rep.push_back(t);
  std::shuffle(rep.begin(), rep.end(), rng);
  if (rep.size() > 4096) rep.resize(4096);
  std::sort(rep.begin(), rep.end());
  for (char ch = 0x20; ch < 0x7f; ++ch) rep.emplace_back(1, ch);
  for (const char* s : {"\t", "\n", "\r", "\\"}) rep.emplace_back(s);

  // Characters the server has and the client lacks (Convert path only).
  if (!identity) {
    const Codec& c = codec(client);
    std::vector<std::string> f;
    add_texts(f, server);
    const harness::Repertoire& rc = harness::repertoire(client);
    f.insert(f.end(), rc.foreign.begin(), rc.foreign.end());
    std::sort(f.begin(), f.end());
    f.erase(std::unique(f.begin(), f.end()), f.end());
    for (const std::string& t : f)
      if (round_trips(sy, t) && !encode(c, t)) foreign.push_back(t);
    std::shuffle(foreign.begin(), foreign.end(), rng);
    if (foreign.size() > 1024) foreign.resize(1024);
  }

  // Bad pieces of client bytes: malformed sequences, characters without a
  // mapping, and characters the server lacks. None holds NUL (a text
  // parameter cannot) or what COPY's text format reads specially.
  auto usable = [](const std::string& s) { return !s.empty() && !has_any(s, std::string_view("\0\t\n\r\\", 5)); };
  const harness::Repertoire& rx = harness::repertoire(client_bytes);
  for (const auto* src : {&rx.unmapped, &rx.grammar_edges})
    for (const std::string& b : *src)
      if (usable(b) && !decode(cx, b)) bad_client.push_back(b);
  if (!identity)
    for (const std::string& b : rx.chars)
      if (usable(b))
        if (auto u = decode(cx, b); u && !encode(codec(server), *u)) bad_client.push_back(b);
  if (bad_client.size() > 2048) {
    std::shuffle(bad_client.begin(), bad_client.end(), rng);
    bad_client.resize(2048);
  }

  // The repertoire in the server, as text[]: a temporary table when writes
  // are allowed, else a literal in every statement that needs it.
  std::string joined;
  for (std::size_t i = 0; i < rep.size(); ++i) {
    if (i) joined.push_back('\x01');
    joined += *encode(sy, rep[i]);
  }
  // Picking characters by subscript from one array costs a detoast per
  // character (100 ms a round); a keyed relation costs nothing.
  const std::string relation = "SELECT k::int, c FROM unnest(string_to_array(convert_from('" + bytea_text(joined) +
                               "'::bytea, '" + name_of(server) + "'), chr(1))) WITH ORDINALITY AS u(c, k)";
  if (writes) {
    for (const std::string& sql : {"CREATE TEMPORARY TABLE live_rep AS " + relation,
                                   std::string("ALTER TABLE pg_temp.live_rep ADD PRIMARY KEY (k)"),
                                   std::string("CREATE TEMPORARY TABLE live_copy (n int, v text)"),
                                   std::string("ANALYZE pg_temp.live_rep")}) {
      const Reply r = exec(pg(), sql);
      if (!r.ok) throw LiveFault("cannot create the session's temporary tables: " + r.message, r.sqlstate);
    }
    rep_sql = "pg_temp.live_rep";
  } else {
    rep_sql = "(" + relation + ")";
    report.notes.push_back(std::string("copy-from and bad-copy skipped for ") + name_of(client) + " on " +
                           name_of(server) + ": no writes allowed");
  }
}

void LiveSession::Impl::step_parameter(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out) {
  std::vector<std::string> texts, sent;
  std::vector<Statement> stmts;
  const std::string sql = "SELECT convert_to($1::text, '" + name_of(server) + "')" +
                          (server_has_utf8 ? ", convert_to($1::text, 'UTF8')" : "");
  for (std::size_t i = 0; i < opt.values; ++i) {
    texts.push_back(random_value(rng, opt));
    sent.push_back(*encode(codec(client_bytes), texts.back()));
    stmts.push_back({sql, {sent.back()}});
  }
  const std::vector<Reply> replies = pipeline(pg(), stmts);
  for (std::size_t i = 0; i < replies.size(); ++i) {
    const Reply& r = replies[i];
    out.counts.bytes += sent[i].size();
    ++out.counts.round_trips;
    if (!r.ok && !conversion_sqlstate(r.sqlstate))
      throw LiveFault("parameter step: " + r.message, r.sqlstate);
    // What the server must store; an error where PostgreSQL refuses even
    // good text (a client-only encoding's non-ASCII bytes on SQL_ASCII).
    const std::optional<Expected> err = param_error(sent[i]);
    if (err) ++out.counts.errors_compared;
    const Outcome expected = expect(opt, LiveStep::Parameter, err ? err->outcome : stored_for(sent[i]));
    const Outcome actual = r.ok ? Outcome::converted(unhex_bytea(r.rows.at(0).at(0))) : r.outcome();
    if (!harness::agree(expected, actual)) {
      judge_direct(out, opt, LiveStep::Parameter, client, server, sent[i], expected, actual);
      continue;
    }
    if (r.ok && server_has_utf8 && decode(codec(server_bytes), expected.output)) {
      const Outcome want = Outcome::converted(*decode(codec(server_bytes), expected.output));
      const Outcome got = Outcome::converted(unhex_bytea(r.rows.at(0).at(1)));
      if (!harness::agree(want, got))
        mismatch(out, opt, LiveStep::Parameter, harness::hex_bytes(sent[i]), want, got,
                 "SELECT convert_to(convert_from('" + bytea_text(expected.output) + "'::bytea, '" + name_of(server) +
                     "'), 'UTF8');");
    }
  }
}

void LiveSession::Impl::check_sent(LiveReport& out, const LiveOptions& opt, LiveStep step, const std::string& held,
                                   const Outcome& actual, const std::optional<std::string>& held_utf8) {
  ++out.counts.round_trips;
  if (actual.ok()) out.counts.bytes += actual.output.size();
  const std::optional<Expected> err = result_error(held);
  if (err) ++out.counts.errors_compared;
  const Outcome expected = expect(opt, step, err ? err->outcome : sent_for(held));
  if (!harness::agree(expected, actual)) {
    judge_direct(out, opt, step, server, client, held, expected, actual);
    return;
  }
  if (!actual.ok()) return;
  // pgcodec's decode of what arrived is what the server holds.
  const auto mine = decode(codec(client_bytes), actual.output);
  const auto theirs = held_utf8 ? held_utf8 : decode(codec(server_bytes), held);
  if (!theirs) return;  // a SQL_ASCII database may hold bytes that are no text
  if (!mine || *mine != *theirs)
    mismatch(out, opt, step, harness::hex_bytes(actual.output) + " (" + name_of(client) + ")",
             theirs ? Outcome::converted(*theirs) : Outcome::failed(OutcomeKind::Unspecified),
             mine ? Outcome::converted(*mine) : Outcome::failed(OutcomeKind::Unspecified),
             "SELECT convert_to(convert_from('" + bytea_text(held) + "'::bytea, '" + name_of(server) + "'), 'UTF8');");
}

void LiveSession::Impl::step_result(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out) {
  const std::string seed = seed_sql(rng);
  const std::string lens = lengths_sql(rng, opt);
  const std::vector<Reply> replies = pipeline(pg(), {{seed, {}}, {choose_sql(lens, true), {}}});
  const Reply& r = replies[1];
  if (r.ok) {
    for (const auto& row : r.rows)
      check_sent(out, opt, LiveStep::Result, unhex_bytea(row.at(2)), Outcome::converted(row.at(1)),
                 server_has_utf8 ? std::optional<std::string>(unhex_bytea(row.at(3))) : std::nullopt);
    return;
  }
  if (!conversion_sqlstate(r.sqlstate)) throw LiveFault("result step: " + r.message, r.sqlstate);
  // One value failed on its way out: the same values again (same seed),
  // without the text column, then each value sent on its own.
  per_value(seed, lens, LiveStep::Result, opt, out);
}

namespace {

// Chunk sizes for COPY data: mostly small (characters cut at every
// position), sometimes large.
std::size_t chunk_size(std::mt19937_64& rng) {
  return rng() % 4 == 0 ? 65 + rng() % 4000 : 1 + rng() % 64;
}

// UTF-8 text in chunks -> bytes in `c` through pgcodec::StreamEncoder, a
// character cut by a chunk's end (or a pair the next chunk may complete)
// held back into the next; false on an error.
bool encode_chunk(pgcodec::StreamEncoder& enc, std::string_view chunk, std::string& out, bool last) {
  std::string buf(std::max<std::size_t>(*enc.output_bound(chunk.size()), 1), '\0');
  pgcodec::Result r = enc.feed(chunk, buf);
  if (r.status != Status::Ok || r.consumed != chunk.size()) return false;
  out.append(buf.data(), r.written);
  if (!last) return true;
  buf.assign(std::max<std::size_t>(*enc.output_bound(0), 1), '\0');
  r = enc.finish(buf);
  if (r.status != Status::Ok) return false;
  out.append(buf.data(), r.written);
  return true;
}

bool put_copy(PGconn* c, std::string_view data) {
  return PQputCopyData(c, data.data(), static_cast<int>(data.size())) == 1;
}

}  // namespace

Reply LiveSession::Impl::copy_in(std::mt19937_64& rng, const std::string& data_in, bool utf8_input,
                                 std::string& sent) {
  if (const Reply t = exec(pg(), "TRUNCATE pg_temp.live_copy"); !t.ok)
    throw LiveFault("COPY FROM: " + t.message, t.sqlstate);
  Result start(PQexec(pg(), "COPY pg_temp.live_copy (n, v) FROM STDIN"));
  if (!start.raw() || PQresultStatus(start.raw()) != PGRES_COPY_IN) {
    Reply r = start.raw() ? read_reply(start.raw()) : Reply{};
    check_fault(pg(), r, "COPY FROM");
    throw LiveFault("COPY FROM did not start: " + r.message, r.sqlstate);
  }
  pgcodec::StreamEncoder enc(codec(client_bytes));
  bool ok = true;
  for (std::size_t at = 0; at < data_in.size() && ok;) {
    const std::size_t n = std::min(chunk_size(rng), data_in.size() - at);
    std::string piece;
    if (utf8_input) {
      if (!encode_chunk(enc, std::string_view(data_in).substr(at, n), piece, at + n == data_in.size()))
        throw LiveFault("COPY FROM: pgcodec cannot encode its own repertoire");
    } else {
      piece = data_in.substr(at, n);
    }
    sent += piece;
    ok = piece.empty() || put_copy(pg(), piece);
    at += n;
  }
  if (!ok || PQputCopyEnd(pg(), nullptr) != 1)
    throw LiveFault(std::string("COPY FROM: sending failed: ") + PQerrorMessage(pg()));
  Result end(PQgetResult(pg()));
  if (!end.raw()) throw LiveFault(std::string("COPY FROM: no result: ") + PQerrorMessage(pg()));
  Reply r = read_reply(end.raw());
  while (PGresult* extra = PQgetResult(pg())) PQclear(extra);
  check_fault(pg(), r, "COPY FROM");
  return r;
}

namespace {

// The line `line` (1-based) of COPY data, without its number and newline.
std::string copy_value(std::string_view data, std::size_t line) {
  std::size_t at = 0;
  for (std::size_t k = 1; k < line && at != std::string_view::npos; ++k) {
    at = data.find('\n', at);
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos || at >= data.size()) return {};
  std::size_t end = data.find('\n', at);
  if (end == std::string_view::npos) end = data.size();
  std::string_view l = data.substr(at, end - at);
  const std::size_t tab = l.find('\t');
  return std::string(tab == std::string_view::npos ? l : l.substr(tab + 1));
}

}  // namespace

void LiveSession::Impl::step_copy_from(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out) {
  // PostgreSQL reads COPY's escapes after converting to the server's
  // encoding; with no conversion (a SQL_ASCII database) it reads them in
  // the client's bytes, where a client-only encoding's trail byte can be a
  // backslash (SJIS 0x5c): the byte-wise reading is what it stores. A value
  // whose bytes end in an unpaired backslash would escape the line's end
  // and join the next line to it; such a value gets an 'z' more.
  const bool bytewise = server == Encoding::SQL_ASCII && !info(client).server;
  if (bytewise && !noted_bytewise) {
    noted_bytewise = true;
    out.notes.push_back("copy-from: " + name_of(client) +
                        " on SQL_ASCII: PostgreSQL reads backslash escapes in the client's bytes (a trail "
                        "byte 0x5c starts one); modelled as it does");
  }
  auto escapes_line_end = [](std::string_view b) {
    std::size_t i = 0;
    while (i < b.size()) i += b[i] == '\\' ? 2u : 1u;
    return i > b.size();
  };
  std::vector<std::string> texts;
  std::string data;
  for (std::size_t i = 0; i < opt.values; ++i) {
    texts.push_back(random_value(rng, opt));
    while (bytewise && escapes_line_end(*encode(codec(client_bytes), copy_escape(texts.back())))) texts.back() += 'z';
    data += std::to_string(i + 1) + "\t" + copy_escape(texts.back()) + "\n";
  }
  std::string sent;
  const Reply r = copy_in(rng, data, true, sent);
  out.counts.bytes += sent.size();
  if (!r.ok) {
    if (!conversion_sqlstate(r.sqlstate)) throw LiveFault("copy-from step: " + r.message, r.sqlstate);
    ++out.counts.round_trips;
    const std::size_t line = context_line(r.context);
    const std::string value = line && line <= texts.size() ? *encode(codec(client_bytes), texts[line - 1]) : sent;
    const std::optional<Expected> err = copy_error(sent);
    const Outcome expected = expect(opt, LiveStep::CopyFrom, err ? err->outcome : stored_for(value));
    if (!harness::agree(expected, r.outcome()))
      judge_direct(out, opt, LiveStep::CopyFrom, client, server, value, expected, r.outcome());
    return;
  }
  const Reply rows = exec(pg(), "SELECT n, convert_to(v, '" + name_of(server) + "') FROM pg_temp.live_copy ORDER BY n");
  if (!rows.ok) throw LiveFault("copy-from step: " + rows.message, rows.sqlstate);
  if (rows.rows.size() != texts.size()) {
    ++out.counts.round_trips;
    mismatch(out, opt, LiveStep::CopyFrom, harness::hex_bytes(sent), Outcome::converted(std::to_string(texts.size()) + " rows"),
             Outcome::converted(std::to_string(rows.rows.size()) + " rows"), "");
    return;
  }
  for (std::size_t i = 0; i < texts.size(); ++i) {
    ++out.counts.round_trips;
    const std::string value = *encode(codec(client_bytes), texts[i]);
    const Outcome expected =
        expect(opt, LiveStep::CopyFrom, bytewise ? Outcome::converted(copy_unescape(*encode(codec(client_bytes), copy_escape(texts[i]))))
                 : stored_for(value));
    const Outcome actual = Outcome::converted(unhex_bytea(rows.rows[i].at(1)));
    if (!harness::agree(expected, actual))
      judge_direct(out, opt, LiveStep::CopyFrom, client, server, value, expected, actual);
  }
}

void LiveSession::Impl::per_value(const std::string& seed, const std::string& lens, LiveStep step,
                                  const LiveOptions& opt, LiveReport& out) {
  const std::vector<Reply> again = pipeline(pg(), {{seed, {}}, {choose_sql(lens, false), {}}});
  if (!again[1].ok) throw LiveFault(std::string(to_string(step)) + " step: " + again[1].message, again[1].sqlstate);
  std::vector<Statement> each;
  for (const auto& row : again[1].rows)
    each.push_back({"SELECT convert_from($1::bytea, '" + name_of(server) + "')", {row.at(2)}});
  const std::vector<Reply> sent = pipeline(pg(), each);
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const auto& row = again[1].rows[i];
    if (!sent[i].ok && !conversion_sqlstate(sent[i].sqlstate))
      throw LiveFault(std::string(to_string(step)) + " step: " + sent[i].message, sent[i].sqlstate);
    check_sent(out, opt, step, unhex_bytea(row.at(2)),
               sent[i].ok ? Outcome::converted(sent[i].rows.at(0).at(0)) : sent[i].outcome(),
               server_has_utf8 ? std::optional<std::string>(unhex_bytea(row.at(3))) : std::nullopt);
  }
}

void LiveSession::Impl::step_copy_to(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out) {
  const std::string seed = seed_sql(rng);
  const std::string lens = lengths_sql(rng, opt);
  if (const Reply sr = exec(pg(), seed); !sr.ok) throw LiveFault("copy-to step: " + sr.message, sr.sqlstate);
  Result start(PQexec(pg(), ("COPY (" + choose_sql(lens, true) + ") TO STDOUT").c_str()));
  if (!start.raw() || PQresultStatus(start.raw()) != PGRES_COPY_OUT) {
    Reply r = start.raw() ? read_reply(start.raw()) : Reply{};
    check_fault(pg(), r, "COPY TO");
    if (!conversion_sqlstate(r.sqlstate)) throw LiveFault("copy-to step: " + r.message, r.sqlstate);
    per_value(seed, lens, LiveStep::CopyTo, opt, out);
    return;
  }
  StreamDecoder dec(codec(client_bytes));
  std::string text, received;
  bool decoded = true;
  for (;;) {
    char* buf = nullptr;
    const int n = PQgetCopyData(pg(), &buf, 0);
    if (n < 0) break;
    const std::string_view chunk(buf, static_cast<std::size_t>(n));
    received.append(chunk);
    std::string o(*dec.output_bound(chunk.size()), '\0');
    const pgcodec::Result r = dec.feed(chunk, o);
    PQfreemem(buf);
    decoded = decoded && r.ok();
    text.append(o.data(), r.written);
  }
  {
    std::string o(*dec.output_bound(0) + 8, '\0');
    const pgcodec::Result r = dec.finish(o);
    decoded = decoded && r.ok();
    text.append(o.data(), r.written);
  }
  Result end(PQgetResult(pg()));
  Reply r = end.raw() ? read_reply(end.raw()) : Reply{};
  while (PGresult* extra = PQgetResult(pg())) PQclear(extra);
  check_fault(pg(), r, "COPY TO");
  out.counts.bytes += received.size();
  if (!r.ok) {
    if (!conversion_sqlstate(r.sqlstate)) throw LiveFault("copy-to step: " + r.message, r.sqlstate);
    per_value(seed, lens, LiveStep::CopyTo, opt, out);
    return;
  }
  if (!decoded) {
    ++out.counts.round_trips;
    mismatch(out, opt, LiveStep::CopyTo, harness::hex_bytes(received), Outcome::converted("(decodable)"),
             Outcome::failed(OutcomeKind::Unspecified), "COPY (" + choose_sql(lens, true) + ") TO STDOUT");
    return;
  }
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    std::vector<std::string> fields;
    std::string_view line(text.data() + at, nl - at);
    for (std::size_t f = 0;;) {
      const std::size_t tab = line.find('\t', f);
      fields.emplace_back(line.substr(f, tab == std::string_view::npos ? std::string_view::npos : tab - f));
      if (tab == std::string_view::npos) break;
      f = tab + 1;
    }
    at = nl + 1;
    ++out.counts.round_trips;
    if (fields.size() != 4) {
      mismatch(out, opt, LiveStep::CopyTo, harness::code_points_text(line), Outcome::converted("4 fields"),
               Outcome::converted(std::to_string(fields.size()) + " fields"), "");
      continue;
    }
    const std::string v = copy_unescape(fields[1]);
    const std::string held = unhex_bytea(copy_unescape(fields[2]));
    const std::optional<std::string> held_utf8 =
        fields[3] == "\\N" ? decode(codec(server_bytes), held) : std::optional<std::string>(unhex_bytea(copy_unescape(fields[3])));
    // pgcodec's prediction of what the server sends, decoded.
    const std::optional<Expected> err = result_error(held);
    const Outcome predicted = expect(opt, LiveStep::CopyTo, err ? err->outcome : sent_for(held));
    const auto want = predicted.ok() ? decode(codec(client_bytes), predicted.output) : std::nullopt;
    if (!want || *want != v) {
      const auto as_sent = encode(codec(client_bytes), v);
      judge_direct(out, opt, LiveStep::CopyTo, server, client, held, predicted,
                   as_sent ? Outcome::converted(*as_sent) : Outcome::failed(OutcomeKind::Unspecified));
      continue;
    }
    if (!held_utf8 || *held_utf8 != v)
      mismatch(out, opt, LiveStep::CopyTo, harness::hex_bytes(held) + " (" + name_of(server) + ")",
               held_utf8 ? Outcome::converted(*held_utf8) : Outcome::failed(OutcomeKind::Unspecified),
               Outcome::converted(v), "COPY (" + choose_sql(lens, true) + ") TO STDOUT");
  }
}

std::vector<std::string> LiveSession::Impl::bad_strings(std::mt19937_64& rng, std::size_t n) const {
  harness::StringMaker maker;
  for (const std::string& t : rep) {
    if (t.size() == 1) continue;  // ASCII: the maker adds its own
    if (auto b = encode(codec(client_bytes), t); b && !has_any(*b, std::string_view("\0\t\n\r\\", 5)))
      maker.good.push_back(*b);
  }
  if (maker.good.empty()) maker.good.push_back("a");
  maker.bad = bad_client;
  std::vector<std::string> out = maker.make(rng, n, true);
  for (std::string& s : out)  // the maker's ASCII may hold a backslash; COPY would read it
    std::replace(s.begin(), s.end(), '\\', '/');
  return out;
}

void LiveSession::Impl::step_bad_parameter(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out) {
  const std::vector<std::string> ins = bad_strings(rng, opt.values);
  std::vector<Statement> stmts;
  for (const std::string& b : ins) stmts.push_back({"SELECT convert_to($1::text, '" + name_of(server) + "')", {b}});
  const std::vector<Reply> replies = pipeline(pg(), stmts);
  for (std::size_t i = 0; i < ins.size(); ++i) {
    const Reply& r = replies[i];
    ++out.counts.round_trips;
    out.counts.bytes += ins[i].size();
    if (!r.ok && !conversion_sqlstate(r.sqlstate))
      throw LiveFault("bad-parameter step: " + r.message, r.sqlstate);
    const std::optional<Expected> err = param_error(ins[i]);
    if (err || !r.ok) ++out.counts.errors_compared;
    const Outcome expected = expect(opt, LiveStep::BadParameter, err ? err->outcome : stored_for(ins[i]));
    const Outcome actual = r.ok ? Outcome::converted(unhex_bytea(r.rows.at(0).at(0))) : r.outcome();
    if (!harness::agree(expected, actual))
      judge_direct(out, opt, LiveStep::BadParameter, client, server, ins[i], expected, actual);
  }
}

void LiveSession::Impl::step_bad_copy(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out) {
  const std::vector<std::string> ins = bad_strings(rng, opt.values);
  std::string data;
  for (std::size_t i = 0; i < ins.size(); ++i) data += std::to_string(i + 1) + "\t" + ins[i] + "\n";
  std::string sent;
  const Reply r = copy_in(rng, data, false, sent);
  out.counts.bytes += sent.size();
  ++out.counts.round_trips;
  const bool direct = !identity && server != Encoding::UTF8;
  if (!r.ok && r.sqlstate == "22P04" && direct) {
    // COPY's format broke: PostgreSQL's direct conversion took a line's end
    // into a character (BIG5 -> EUC_TW turns bd 0a into ed b3, where BIG5 ->
    // UTF-8 refuses it). Judge that line with its newline.
    ++out.counts.errors_compared;
    const std::size_t line = context_line(r.context);
    const std::string value = copy_value(data, line) + "\n";
    const std::optional<Expected> line_err = copy_error(value);
    judge_direct(out, opt, LiveStep::BadCopy, client, server, value,
                 line_err ? line_err->outcome : stored_for(value), r.outcome());
    return;
  }
  if (!r.ok && !conversion_sqlstate(r.sqlstate))
    throw LiveFault("bad-copy step: " + r.message + " (" + r.context + ")", r.sqlstate);
  const std::optional<Expected> err = copy_error(data);
  if (err || !r.ok) ++out.counts.errors_compared;
  const Outcome actual = r.ok ? Outcome::converted("(accepted)") : r.outcome();
  const Outcome expected = expect(opt, LiveStep::BadCopy, err ? err->outcome : Outcome::converted("(accepted)"));
  const std::size_t want_line = err ? line_of(data, err->offset) : 0;
  const std::size_t got_line = r.ok ? 0 : context_line(r.context);
  if (harness::agree(expected, actual) && want_line == got_line) return;
  const std::size_t line = got_line ? got_line : want_line;
  // A line with its newline: a lead byte at its end takes the newline into
  // the character PostgreSQL reads (SJIS 96 0a), as it does in the data.
  const std::string value = line ? copy_value(data, line) + "\n" : data;
  if (harness::agree(expected, actual)) {
    mismatch(out, opt, LiveStep::BadCopy, harness::hex_bytes(data),
             Outcome::converted("error on line " + std::to_string(want_line)),
             Outcome::converted("error on line " + std::to_string(got_line) + " (" + r.context + ")"),
             "COPY ... FROM STDIN with client_encoding " + name_of(client));
    return;
  }
  // Judge the line's bytes alone, as a parameter would be.
  const std::optional<Expected> line_err = copy_error(value);
  const Outcome line_expected = line_err ? line_err->outcome : stored_for(value);
  if (got_line > 1 && harness::agree(line_expected, actual)) {
    // The server's line fails alone as it says: the difference is in the
    // lines before it, which the direct conversion took in and going
    // through UTF-8 does not (a character only the direct conversion
    // converts). Judge those lines, which the server accepted.
    std::size_t end = 0;
    for (std::size_t k = 1; k < got_line && end != std::string::npos; ++k) {
      end = data.find('\n', end);
      if (end != std::string::npos) ++end;
    }
    if (end != std::string::npos && end > 0) {
      const std::string before = data.substr(0, end);
      const std::optional<Expected> before_err = copy_error(before);
      judge_direct(out, opt, LiveStep::BadCopy, client, server, before,
                   before_err ? before_err->outcome : stored_for(before), Outcome::converted("(accepted)"));
      return;
    }
  }
  judge_direct(out, opt, LiveStep::BadCopy, client, server, value, line_expected, actual);
}

void LiveSession::Impl::step_bad_result(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& out) {
  std::vector<std::string> helds;
  if (server == Encoding::SQL_ASCII && client != Encoding::SQL_ASCII) {
    helds = bad_strings(rng, opt.values);  // bytes the client's verifier may refuse
  } else if (!foreign.empty()) {
    for (std::size_t i = 0; i < opt.values; ++i) {
      std::string t = random_value(rng, opt);
      const std::size_t at = rng() % (t.size() + 1);
      // Insert at a character boundary: before the character holding `at`.
      std::size_t b = at;
      while (b > 0 && b < t.size() && (static_cast<unsigned char>(t[b]) & 0xC0) == 0x80) --b;
      t.insert(b, foreign[rng() % foreign.size()]);
      helds.push_back(*encode(codec(server_bytes), t));
    }
  }
  if (helds.empty()) {
    ++out.counts.skipped;
    if (!noted_bad_result) {
      noted_bad_result = true;
      out.notes.push_back("bad-result skipped for " + name_of(client) + " on " + name_of(server) +
                          ": the client has every character the server has");
    }
    return;
  }
  std::vector<Statement> stmts;
  for (const std::string& h : helds)
    stmts.push_back({"SELECT convert_from($1::bytea, '" + name_of(server) + "')", {bytea_text(h)}});
  const std::vector<Reply> replies = pipeline(pg(), stmts);
  for (std::size_t i = 0; i < helds.size(); ++i) {
    const Reply& r = replies[i];
    if (!r.ok && !conversion_sqlstate(r.sqlstate)) throw LiveFault("bad-result step: " + r.message, r.sqlstate);
    if (!r.ok) ++out.counts.errors_compared;
    check_sent(out, opt, LiveStep::BadResult, helds[i], r.ok ? Outcome::converted(r.rows.at(0).at(0)) : r.outcome(),
               std::nullopt);
  }
}

LiveSession::LiveSession(const std::string& conninfo, Encoding server, Encoding client) {
  try {
    impl_ = std::make_unique<Impl>(conninfo, server, client);
  } catch (const PqError& e) {
    throw LiveFault(e.what(), e.sqlstate());
  }
  const Reply enc = exec(impl_->pg(), "SELECT current_setting('server_encoding')");
  if (!enc.ok || enc.rows.at(0).at(0) != name_of(server))
    throw LiveFault("the database's encoding is " + (enc.ok ? enc.rows.at(0).at(0) : "unknown") + ", not " +
                    name_of(server));
  const Reply set = exec(impl_->pg(), "SET client_encoding = '" + name_of(client) + "'");
  if (!set.ok)
    throw LiveFault("client_encoding " + name_of(client) + " on a " + name_of(server) +
                        " database: " + set.message,
                    set.sqlstate);
}
LiveSession::~LiveSession() = default;
LiveSession::LiveSession(LiveSession&&) noexcept = default;
LiveSession& LiveSession::operator=(LiveSession&&) noexcept = default;

Encoding LiveSession::server() const noexcept { return impl_->server; }
Encoding LiveSession::client() const noexcept { return impl_->client; }
std::size_t LiveSession::repertoire_size() const noexcept { return impl_->rep.size(); }

void LiveSession::round(std::mt19937_64& rng, const LiveOptions& opt, LiveReport& report) {
  Impl& s = *impl_;
  if (!s.prepared) s.prepare(rng, opt, report);
  using Step = void (Impl::*)(std::mt19937_64&, const LiveOptions&, LiveReport&);
  static constexpr std::array<Step, kLiveSteps> steps = {
      &Impl::step_parameter,     &Impl::step_result,   &Impl::step_copy_from, &Impl::step_copy_to,
      &Impl::step_bad_parameter, &Impl::step_bad_copy, &Impl::step_bad_result};
  for (std::size_t k = 0; k < kLiveSteps; ++k) {
    const auto step = static_cast<LiveStep>(k);
    if (!s.writes && (step == LiveStep::CopyFrom || step == LiveStep::BadCopy)) {
      ++report.counts.skipped;
      continue;
    }
    const std::size_t before = report.counts.round_trips;
    (s.*steps[k])(rng, opt, report);
    report.counts.step_round_trips[k] += report.counts.round_trips - before;
  }
}

std::vector<Encoding> allowed_client_encodings(const std::string& conninfo) {
  std::unique_ptr<Connection> c;
  try {
    c = std::make_unique<Connection>(conninfo);
  } catch (const PqError& e) {
    throw LiveFault(e.what(), e.sqlstate());
  }
  std::vector<Statement> stmts;
  for (const EncodingInfo& i : encodings()) stmts.push_back({"SELECT set_config('client_encoding', $1, false)", {std::string(i.name)}});
  const std::vector<Reply> replies = pipeline(c->raw(), stmts);
  std::vector<Encoding> out;
  for (std::size_t k = 0; k < replies.size(); ++k)
    if (replies[k].ok) out.push_back(encodings()[k].id);
  return out;
}

}  // namespace pgcodec::oracle
