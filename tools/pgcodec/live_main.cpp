// pgcodec-live: `pgcodec live`, in a program of its own so that the pgcodec
// CLI loads neither libpq, ICU nor libpython (`pgcodec live ARGS` runs this
// with ARGS; see main.cpp).
#include <CLI/CLI.hpp>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>

#include "convert.hpp"
#include "progress.hpp"
#include "verifier/live_run.hpp"
#include "pgcodec/encoding.hpp"
#include "pgcodec/pgcodec.h"

namespace {

// Progress on standard error: a bar on a terminal, otherwise a line at every
// tenth of the run.
void print_live_progress(pgcodec::verifier::LiveRunOptions& lo) {
  const bool tty = pgcodec::cli::stderr_is_tty();
  const auto t0 = std::chrono::steady_clock::now();
  auto last_tenth = std::make_shared<int>(-1);
  lo.on_progress = [tty, t0, last_tenth](double fraction, const std::string& what) {
    const int tenth = static_cast<int>(fraction * 10);
    if (!tty && tenth == *last_tenth) return;
    *last_tenth = tenth;
    const int secs = static_cast<int>(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    char head[64];
    std::snprintf(head, sizeof head, "%3d%% %02d:%02d ", static_cast<int>(fraction * 100), secs / 60, secs % 60);
    pgcodec::cli::draw_progress(stderr, tty, "pgcodec live", head, fraction, what);
  };
  lo.on_line = pgcodec::cli::report_lines(stderr, tty);
}

// SIGINT and SIGTERM only set this; the run stops at the next step and
// removes its throwaway server, then the signal is raised again with its
// default action.
volatile std::sig_atomic_t stop_signal = 0;
extern "C" void note_stop_signal(int s) { stop_signal = s; }

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = note_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// Standard output is flushed and closed; a failure there is exit 2.
int finish(int rc, pgcodec::cli::Output& out) {
  if (!out.close()) {
    std::fprintf(stderr, "pgcodec live: %s\n", out.error_message().c_str());
    return 2;
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  pgcodec::verifier::LiveRunOptions lr;
  std::vector<std::string> live_encodings, live_servers;
  CLI::App app{
      "Round trips through a running PostgreSQL on the path a driver takes, for every pair of\n"
      "server encoding (the database's) and client encoding (client_encoding) the server allows.\n\n"
      "Each round sends random text and checks it four ways: encoded by pgcodec as a text\n"
      "parameter, the server's UTF-8 copy of it must be the text; text the server makes from the\n"
      "pair's repertoire, decoded by pgcodec from a text result column, must be what the server\n"
      "holds; COPY FROM STDIN with data from a pgcodec StreamEncoder in random chunk sizes, and\n"
      "COPY TO STDOUT decoded by a StreamDecoder in libpq's chunks, must carry the table's text\n"
      "exactly. Then bad input (invalid sequences, characters the encoding lacks) as parameters\n"
      "and COPY data: the server's error (SQLSTATE, the bytes its message names, COPY's line)\n"
      "must be the first error `pgcodec check` reports for the same bytes.\n"
      "Where a non-UTF8 server converts directly and that differs from going through UTF-8,\n"
      "the difference is reported as PostgreSQL's inconsistency, with its SQL, not a failure,\n"
      "provided the divergence registry (--registry) lists one of its characters among that\n"
      "conversion's differences (<FROM>.postgres-direct-<TO>.tsv, which `pgcodec verify` writes\n"
      "and checks exhaustively); an inconsistency the registry lacks is a mismatch.\n\n"
      "By default a throwaway server is started (and removed at the end, also on ^C) with one\n"
      "database per server encoding (template0, locale C), SQL_ASCII and MULE_INTERNAL included.\n"
      "With --dsn (or PGCODEC_DSN) only that database runs, in its own encoding, and nothing is\n"
      "written to it unless --allow-writes is given; then COPY FROM uses temporary tables only.\n"
      "The run says what it will do before it does it. Progress goes to standard error (a bar\n"
      "on a terminal, lines otherwise), then one line per pair: round trips, bytes, errors\n"
      "compared, mismatches and PostgreSQL inconsistencies; each mismatch with its input, both\n"
      "results and a command that reproduces it. --seed makes a run repeatable.\n\n"
      "Exit status: 0 when everything matched, 1 on any mismatch, 2 on a fault that is not\n"
      "about encodings (the connection was lost, a server error such as a read-only\n"
      "transaction), reported as \"pgcodec live: fault: ...\" with the pair, and on bad usage.\n\n"
      "Examples:\n"
      "  pgcodec live --rounds 3                      every pair on a throwaway server\n"
      "  pgcodec live --encodings SJIS,BIG5 --duration 60\n"
      "  pgcodec live --dsn 'dbname=app' --json",
      "pgcodec live"};
  app.add_option("--dsn", lr.dsn, "libpq connection string of an existing database (default: a throwaway server)")
      ->type_name("DSN");
  app.add_option("--encodings", live_encodings, "Only these client encodings (comma-separated names)")
      ->delimiter(',')
      ->type_name("LIST");
  app.add_option("--server-encodings", live_servers,
                   "Only databases in these server encodings (comma-separated; with --dsn only\n"
                   "the database's own encoding may be named)")
      ->delimiter(',')
      ->type_name("LIST");
  auto* duration_opt = app.add_option("--duration", lr.duration,
                                        "Rounds over all pairs until SECONDS have passed: in turn, in groups of up\n"
                                        "to 24 pairs (4 with --dsn) that share the time left, every pair at least\n"
                                        "once and on one connection for all its rounds")
                          ->type_name("SECONDS");
  app.add_option("--rounds", lr.rounds, "Rounds per pair (default 1)")->excludes(duration_opt)->type_name("N");
  app.add_option("--seed", lr.seed, "Seed of the random text (each pair's generator: seed and pair)")
      ->capture_default_str()
      ->type_name("N");
  app.add_flag("--allow-writes", lr.allow_writes,
                 "With --dsn: let COPY FROM create temporary tables (nothing else is written)");
  app.add_flag("--json", lr.json, "The report as one JSON object on standard output");
  app.add_option("--registry", lr.registry,
                   "Directory of the divergence registry (default: as for verify)");
  app.add_option("--values", lr.values, "Values per step and round")->capture_default_str()->type_name("N");
  app.set_version_flag("--version", std::string("pgcodec ") + pgcodec_version(),
                       "Print pgcodec's version and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  pgcodec::cli::Output out(stdout, "standard output");
  for (auto* names : {&live_encodings, &live_servers})
    for (auto& n : *names) {
      auto e = pgcodec::lookup(n);
      if (!e) {
        std::cerr << "pgcodec live: unknown encoding \"" << n << "\"\n";
        return 2;
      }
      (names == &live_encodings ? lr.encodings : lr.server_encodings).push_back(*e);
    }
  print_live_progress(lr);
  lr.on_json = [&out](const std::string& s) { out.write(s); };
  lr.stop_requested = [] { return stop_signal != 0; };
  catch_stop_signals();
  int rc = 2;
  try {
    rc = pgcodec::verifier::run_live(lr);
  } catch (const std::exception& e) {
    std::cerr << "pgcodec live: " << e.what() << "\n";
    rc = 2;
  }
  if (stop_signal) {
    std::signal(stop_signal, SIG_DFL);
    std::raise(stop_signal);
  }
  return finish(rc, out);
}
