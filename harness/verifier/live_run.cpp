// pgcodec live: plan the (server encoding, client encoding) pairs, run the
// live round trips on them, and report. The engine is oracle::LiveSession;
// this file decides which pairs, how many rounds, and what the user is told.
#include "verifier/live_run.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/registry.hpp"
#include "oracle/live.hpp"
#include "oracle/pq.hpp"
#include "oracle/temp_server.hpp"
#include "verifier/registry_location.hpp"

namespace pgcodec::verifier {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::ordered_json;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string name_of(Encoding e) { return std::string(info(e).name); }

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

// A value for a shell command line, in single quotes.
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

bool contains(const std::vector<Encoding>& v, Encoding e) { return std::find(v.begin(), v.end(), e) != v.end(); }

// One (server, client) pair: its session, its random numbers and its report.
// The generator belongs to the pair, not to the session, so a rerun of the
// pair alone with the same seed and round count draws the same values.
struct Pair {
  Encoding server{}, client{};
  std::string conninfo;
  std::mt19937_64 rng;
  std::unique_ptr<oracle::LiveSession> session;
  oracle::LiveReport report;
  std::vector<std::size_t> mismatch_round;  // beside report.mismatches: the round it came from
  std::size_t rounds = 0;
  double seconds = 0;
};

std::mt19937_64 pair_rng(std::uint64_t seed, Encoding server, Encoding client) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(to_int(server)), static_cast<std::uint32_t>(to_int(client))};
  return std::mt19937_64(seq);
}

struct Fault {
  std::string pair;  // "server LATIN1, client UTF8"
  std::size_t round = 0;
  std::string message;
  std::string sqlstate;
};

class LiveRun {
 public:
  explicit LiveRun(const LiveRunOptions& o) : o_(o) {}

  int run() {
    if (auto rc = check_usage()) return rc;
    // Everything that uses the server lives inside this scope, so the
    // throwaway server is stopped and removed on every way out of it
    // (return, fault, exception) after the sessions are closed.
    oracle::ServerLease lease(o_.dsn);
    lease_ = &lease;
    int rc = 2;
    try {
      rc = plan(lease);
      if (rc < 0) rc = rounds();
    } catch (const oracle::LiveFault& f) {
      fault(f.what(), f.sqlstate());
    } catch (const oracle::PqError& e) {
      fault(e.what(), e.sqlstate());
    } catch (...) {
      pairs_.clear();  // the sessions, before the lease goes
      throw;
    }
    if (fault_) rc = 2;
    if (rc >= 0 && planned_) report(rc);
    pairs_.clear();  // the sessions, before the lease
    lease_ = nullptr;
    return rc;
  }

 private:
  void line(const std::string& s) const {
    if (o_.on_line)
      o_.on_line(s);
    else
      std::cerr << s << "\n";
  }
  bool stopping() {
    if (!stopped_ && o_.stop_requested && o_.stop_requested()) {
      stopped_ = true;
      line("pgcodec live: stopping as asked" +
           std::string(throwaway_ ? "; removing the throwaway server" : ""));
    }
    return stopped_;
  }
  int usage(const std::string& why) const {
    line("pgcodec live: " + why);
    return 2;
  }

  int check_usage() const {
    if (o_.duration && !(*o_.duration > 0)) return usage("--duration must be a positive number of seconds");
    if (!o_.duration && o_.rounds == 0) return usage("--rounds must be at least 1");
    if (o_.values == 0) return usage("--values must be at least 1");
    for (Encoding e : o_.server_encodings)
      if (!info(e).server)
        return usage(name_of(e) + " is a client-only encoding; a database cannot have it (--server-encodings)");
    return 0;
  }

  // The databases and their client encodings; what will run and what will be
  // written, said before anything runs. Returns -1 to go on, else an exit status.
  int plan(oracle::ServerLease& lease) {
    throwaway_ = lease.is_throwaway();
    oracle::Connection admin(lease.conninfo());
    connected_ = true;
    version_ = admin.server_version();
    std::vector<std::pair<Encoding, std::string>> dbs;  // server encoding, conninfo
    if (throwaway_) {
      line("pgcodec live: PostgreSQL " + version_ + ", a throwaway server (" + lease.conninfo() +
           "), removed at the end; writes: databases and temporary tables on it only");
      for (const EncodingInfo& i : encodings()) {
        if (!i.server) continue;
        if (!o_.server_encodings.empty() && !contains(o_.server_encodings, i.id)) continue;
        if (stopping()) return 2;
        if (i.id == Encoding::UTF8) {
          dbs.emplace_back(i.id, lease.conninfo());  // the initdb'd postgres database
          continue;
        }
        const std::string db = "live_" + lower(std::string(i.name));
        admin.exec("CREATE DATABASE " + db + " TEMPLATE template0 ENCODING '" + std::string(i.name) +
                   "' LC_COLLATE 'C' LC_CTYPE 'C'");
        dbs.emplace_back(i.id, lease.conninfo() + " dbname=" + db);
      }
    } else {
      const auto r = admin.exec("SELECT current_setting('server_encoding'), current_database()");
      const auto enc = lookup(r.get(0, 0));
      if (!enc) return usage("the server encoding \"" + std::string(r.get(0, 0)) + "\" is not one pgcodec knows");
      const std::string db(r.get(0, 1));
      for (Encoding e : o_.server_encodings)
        if (e != *enc)
          return usage("--server-encodings " + name_of(e) + ": the database of --dsn (" + db + ") is " +
                       name_of(*enc) + ", and with --dsn only its encoding runs; drop --dsn for a " +
                       "throwaway server with a database per server encoding, or point --dsn at a " +
                       name_of(e) + " database");
      line("pgcodec live: PostgreSQL " + version_ + ", database " + db + " (server encoding " + name_of(*enc) +
           ") of the given server; writes: " +
           (o_.allow_writes ? std::string("temporary tables only (--allow-writes), for COPY FROM")
                            : std::string("nothing: read-only steps only; COPY FROM needs --allow-writes, "
                                          "which creates temporary tables only")));
      dbs.emplace_back(*enc, lease.conninfo());
    }
    for (auto& [server, conninfo] : dbs) {
      if (stopping()) return 2;
      for (Encoding client : oracle::allowed_client_encodings(conninfo)) {
        if (!o_.encodings.empty() && !contains(o_.encodings, client)) continue;
        auto p = std::make_unique<Pair>();
        p->server = server;
        p->client = client;
        p->conninfo = conninfo;
        p->rng = pair_rng(o_.seed, server, client);
        pairs_.push_back(std::move(p));
      }
    }
    if (pairs_.empty()) return usage("no pair of server and client encoding to run (see --encodings and --server-encodings)");
    std::map<Encoding, std::size_t> per_server;
    for (auto& p : pairs_) ++per_server[p->server];
    std::string servers;
    for (auto& [e, n] : per_server) servers += (servers.empty() ? "" : " ") + name_of(e) + ":" + std::to_string(n);
    line("pgcodec live: " + std::to_string(pairs_.size()) + (pairs_.size() == 1 ? " pair" : " pairs") +
         " of server and client encoding over " + std::to_string(per_server.size()) +
         (per_server.size() == 1 ? " server encoding (" : " server encodings (") + servers + "); " +
         (o_.duration ? "rounds over all pairs for " + seconds_text(*o_.duration) + " s"
                      : std::to_string(o_.rounds) + (o_.rounds == 1 ? " round" : " rounds") + " per pair") +
         ", " + std::to_string(o_.values) + " values per step, seed " + std::to_string(o_.seed));
    planned_ = true;
    return -1;
  }

  // A session's first round prepares it (the repertoire, shuffled with the
  // pair's generator), so a pair keeps one session for all its rounds: a
  // rerun with --rounds K then draws exactly what this run drew. A server has
  // few connections to spare, so at most this many are open at once.
  std::size_t max_open() const { return throwaway_ ? 24 : 4; }

  oracle::LiveOptions live_options() {
    oracle::LiveOptions lo;
    lo.values = o_.values;
    lo.writes = throwaway_ || o_.allow_writes;
    lo.registered_direct = [this](Encoding from, Encoding to, std::string_view character) {
      return direct_registry(from, to).lists(harness::Direction::Decode,
                                             harness::input_text(character, harness::Direction::Decode));
    };
    return lo;
  }

  // The registry's rows for PostgreSQL's direct conversion from -> to, read
  // when a pair first meets an inconsistency (none if there is no file).
  const harness::RegistryCheck& direct_registry(Encoding from, Encoding to) {
    auto& slot = direct_[{from, to}];
    if (!slot) {
      if (registry_dir_.empty()) registry_dir_ = o_.registry ? *o_.registry : locate_registry().dir;
      harness::RegistryFile f;
      harness::read_registry(harness::registry_path(registry_dir_, from, "postgres-direct-" + name_of(to)), f);
      slot = std::make_unique<harness::RegistryCheck>(f.rows);
    }
    return *slot;
  }

  // One round of one pair; a fault names the pair and the round.
  void round(Pair& p) {
    current_ = &p;
    const auto t = Clock::now();
    if (!p.session) p.session = std::make_unique<oracle::LiveSession>(p.conninfo, p.server, p.client);
    p.session->round(p.rng, lo_, p.report);
    ++p.rounds;
    p.mismatch_round.resize(p.report.mismatches.size(), p.rounds);
    p.seconds += since(t);
    current_ = nullptr;
  }

  void progress(double fraction, const Pair& p) const {
    if (o_.on_progress)
      o_.on_progress(std::min(fraction, 1.0), name_of(p.server) + "/" + name_of(p.client) + " round " +
                                                  std::to_string(p.rounds + 1));
  }

  int rounds() {
    lo_ = live_options();
    t0_ = Clock::now();
    if (!o_.duration) {
      // Pair by pair: each pair's rounds on its one session, then it is closed.
      const double total = static_cast<double>(pairs_.size() * o_.rounds);
      std::size_t done = 0;
      for (auto& p : pairs_) {
        for (std::size_t r = 0; r < o_.rounds; ++r) {
          if (stopping()) return 2;
          progress(static_cast<double>(done) / total, *p);
          round(*p);
          ++done;
        }
        p->session.reset();
      }
    } else {
      // Round-robin until the time is up, every pair at least once, in
      // groups of max_open() pairs (one session each, closed when the group
      // is done); each group gets its share of the time left.
      const std::size_t g = max_open();
      for (std::size_t b = 0; b < pairs_.size(); b += g) {
        const std::size_t e = std::min(pairs_.size(), b + g);
        const double share = (*o_.duration - since(t0_)) * static_cast<double>(e - b) /
                             static_cast<double>(pairs_.size() - b);
        const auto group_start = Clock::now();
        for (std::size_t pass = 0; pass == 0 || since(group_start) < share; ++pass)
          for (std::size_t i = b; i < e && (pass == 0 || since(group_start) < share); ++i) {
            if (stopping()) return 2;
            progress(since(t0_) / *o_.duration, *pairs_[i]);
            round(*pairs_[i]);
          }
        for (std::size_t i = b; i < e; ++i) pairs_[i]->session.reset();
      }
    }
    return 0;
  }

  void fault(const std::string& what, const std::string& sqlstate) {
    Fault f;
    f.message = what;
    while (!f.message.empty() && (f.message.back() == '\n' || f.message.back() == ' ')) f.message.pop_back();
    f.sqlstate = sqlstate;
    // Whatever the error said, a server that answered before and no longer
    // does means the connection was lost, not that the input was wrong.
    const std::string where = current_ ? current_->conninfo : lease_ ? lease_->conninfo() : std::string();
    if (connected_ && !where.empty() && PQping(where.c_str()) != PQPING_OK)
      f.message = "the connection to the server was lost (it no longer accepts connections): " + f.message;
    else if (!f.sqlstate.empty() && !f.sqlstate.starts_with("08"))
      f.message = "server error " + f.sqlstate + " (not about encodings): " + f.message;
    if (current_) {
      f.pair = "server " + name_of(current_->server) + ", client " + name_of(current_->client);
      f.round = current_->rounds + 1;
    }
    line("pgcodec live: fault: " + (f.pair.empty() ? std::string() : f.pair + ", round " + std::to_string(f.round) + ": ") +
         f.message);
    fault_ = std::move(f);
  }

  // The command that runs one pair again as it ran here.
  std::string rerun(const Pair& p, std::size_t round) const {
    std::string c = "pgcodec live";
    if (!throwaway_ && o_.dsn) c += " --dsn " + shell_quote(*o_.dsn);
    c += " --server-encodings " + name_of(p.server) + " --encodings " + name_of(p.client) + " --seed " +
         std::to_string(o_.seed) + " --rounds " + std::to_string(round);
    if (o_.values != 8) c += " --values " + std::to_string(o_.values);
    if (o_.allow_writes) c += " --allow-writes";
    return c;
  }

  // The text report shows this many of a pair's inconsistencies and of the
  // run's distinct notes (steps skipped and why); --json has the rest.
  static constexpr std::size_t kShownInconsistencies = 2, kShownNotes = 8;

  static std::string counts_text(const oracle::LiveCounts& c) {
    std::ostringstream s;
    s << c.round_trips << " round trips, " << c.bytes << " bytes, " << c.errors_compared << " errors compared, "
      << c.mismatches << " mismatches, " << c.inconsistencies << " PostgreSQL inconsistencies";
    if (c.skipped) s << ", " << c.skipped << " steps skipped";
    return s.str();
  }

  void report(int& rc) {
    oracle::LiveCounts total;
    std::size_t total_rounds = 0, pairs_run = 0;
    std::map<std::string, std::size_t> notes;  // note -> pairs
    ordered_json jpairs = ordered_json::array();
    for (auto& pp : pairs_) {
      const Pair& p = *pp;
      if (p.rounds == 0) continue;
      ++pairs_run;
      total += p.report.counts;
      total_rounds += p.rounds;
      for (auto& n : p.report.notes) ++notes[n];
      char head[64];
      std::snprintf(head, sizeof head, "  %-15s %-15s", name_of(p.server).c_str(), name_of(p.client).c_str());
      line(std::string(head) + std::to_string(p.rounds) + (p.rounds == 1 ? " round, " : " rounds, ") +
           counts_text(p.report.counts) + " (" + seconds_text(p.seconds) + " s)");
      ordered_json jm = ordered_json::array(), ji = ordered_json::array();
      for (std::size_t i = 0; i < p.report.mismatches.size(); ++i) {
        const auto& m = p.report.mismatches[i];
        const std::string cmd = rerun(p, p.mismatch_round[i]);
        line("  MISMATCH server " + name_of(p.server) + ", client " + name_of(p.client) + ", round " +
             std::to_string(p.mismatch_round[i]) + ", " + oracle::to_string(m.step) + ": input " + m.input +
             "\n    expected:  " + m.expected + "\n    actual:    " + m.actual +
             (m.reproduce.empty() ? "" : "\n    shows it:  " + m.reproduce) + "\n    reproduce: " + cmd);
        jm.push_back({{"step", oracle::to_string(m.step)}, {"round", p.mismatch_round[i]}, {"input", m.input},
                      {"expected", m.expected}, {"actual", m.actual}, {"shows_it", m.reproduce},
                      {"reproduce", cmd}});
      }
      if (p.report.counts.mismatches > p.report.mismatches.size())
        line("  ... " + std::to_string(p.report.counts.mismatches - p.report.mismatches.size()) +
             " more mismatches on this pair");
      std::size_t shown = 0;
      for (const auto& x : p.report.inconsistencies) {
        if (shown++ < kShownInconsistencies)
          line("  PostgreSQL inconsistency (not a pgcodec failure), server " + name_of(p.server) + ", client " +
               name_of(p.client) + ", " + oracle::to_string(x.step) + ": input " + x.input + "\n    direct:    " +
               x.direct + "\n    via UTF-8: " + x.via_utf8 + "\n    SQL:       " + x.sql);
        ji.push_back({{"step", oracle::to_string(x.step)}, {"input", x.input}, {"direct", x.direct},
                      {"via_utf8", x.via_utf8}, {"sql", x.sql}});
      }
      const std::size_t printed = std::min(p.report.inconsistencies.size(), kShownInconsistencies);
      if (p.report.counts.inconsistencies > printed)
        line("  ... " + std::to_string(p.report.counts.inconsistencies - printed) +
             " more PostgreSQL inconsistencies on this pair (" +
             (o_.json ? "the first " + std::to_string(p.report.inconsistencies.size()) + " are in the JSON report)"
                      : std::string("--json lists more)")));
      jpairs.push_back({{"server", name_of(p.server)},
                        {"client", name_of(p.client)},
                        {"rounds", p.rounds},
                        {"round_trips", p.report.counts.round_trips},
                        {"bytes", p.report.counts.bytes},
                        {"errors_compared", p.report.counts.errors_compared},
                        {"mismatches", p.report.counts.mismatches},
                        {"inconsistencies", p.report.counts.inconsistencies},
                        {"skipped", p.report.counts.skipped},
                        {"seconds", p.seconds},
                        {"mismatch_details", jm},
                        {"inconsistency_details", ji},
                        {"notes", p.report.notes}});
    }
    ordered_json jnotes = ordered_json::array();
    std::size_t note_lines = 0;
    for (auto& [n, count] : notes) {
      jnotes.push_back({{"note", n}, {"pairs", count}});
      if (note_lines++ == kShownNotes)
        line("pgcodec live: ... " + std::to_string(notes.size() - kShownNotes) + " more notes" +
             (o_.json ? std::string(" (all in the JSON report)") : std::string(" (--json lists them all)")));
      if (note_lines > kShownNotes) continue;
      line("pgcodec live: note (" + std::to_string(count) + (count == 1 ? " pair): " : " pairs): ") + n);
    }
    if (!lo_.writes)
      line("pgcodec live: COPY FROM was skipped on every pair: nothing is written to the given database "
           "without --allow-writes");
    const double secs = since(start_), setup = std::chrono::duration<double>(t0_ - start_).count();
    if (rc == 0 && total.mismatches) rc = 1;
    line("pgcodec live: " + std::to_string(pairs_run) + " of " + std::to_string(pairs_.size()) + " pairs, " +
         std::to_string(total_rounds) + " rounds, " + counts_text(total) + "; " + seconds_text(secs) + " s (" + seconds_text(setup) + " s setting up)" +
         (fault_ ? "; stopped by a fault (exit 2)" + (fault_->pair.empty() ? std::string() : " on " + fault_->pair) : stopped_ ? "; stopped as asked (exit 2)" : ""));
    if (!o_.json) return;
    ordered_json j;
    j["server_version"] = version_;
    j["throwaway"] = throwaway_;
    j["seed"] = o_.seed;
    if (o_.duration)
      j["duration"] = *o_.duration;
    else
      j["rounds"] = o_.rounds;
    j["values"] = o_.values;
    j["writes"] = lo_.writes;
    j["pairs"] = std::move(jpairs);
    j["notes"] = std::move(jnotes);
    j["totals"] = {{"pairs", pairs_run},
                   {"rounds", total_rounds},
                   {"round_trips", total.round_trips},
                   {"bytes", total.bytes},
                   {"errors_compared", total.errors_compared},
                   {"mismatches", total.mismatches},
                   {"inconsistencies", total.inconsistencies},
                   {"skipped", total.skipped}};
    j["seconds"] = secs;
    if (fault_)
      j["fault"] = {{"pair", fault_->pair}, {"round", fault_->round}, {"message", fault_->message},
                    {"sqlstate", fault_->sqlstate}};
    else
      j["fault"] = nullptr;
    j["stopped"] = stopped_;
    j["exit"] = rc;
    const std::string text = j.dump(2) + "\n";
    if (o_.on_json)
      o_.on_json(text);
    else
      std::cout << text << std::flush;
  }

  const LiveRunOptions& o_;
  oracle::ServerLease* lease_ = nullptr;
  bool throwaway_ = false, planned_ = false, stopped_ = false, connected_ = false;
  std::string version_;
  std::vector<std::unique_ptr<Pair>> pairs_;
  Pair* current_ = nullptr;
  oracle::LiveOptions lo_;
  Clock::time_point start_ = Clock::now(), t0_ = start_;
  std::optional<Fault> fault_;
  std::string registry_dir_;
  std::map<std::pair<Encoding, Encoding>, std::unique_ptr<harness::RegistryCheck>> direct_;
};

}  // namespace

int run_live(const LiveRunOptions& o) { return LiveRun(o).run(); }

}  // namespace pgcodec::verifier
