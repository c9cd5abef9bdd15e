// pgcodec: the command-line face of the library. Subcommands grow with the
// project; this one knows the encoding registry.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <functional>
#include <iomanip>
#include <memory>
#include <iostream>
#include <sstream>

#include "convert.hpp"
#include "verifier/live_run.hpp"
#include "verifier/verify.hpp"
#include "pgcodec/codec.hpp"
#include "pgcodec/encoding.hpp"
#include "pgcodec/pgcodec.h"

namespace {

using pgcodec::EncodingInfo;

std::string join(std::span<const std::string_view> v, const char* sep = ",") {
  std::string s;
  for (auto x : v) {
    if (!s.empty()) s += sep;
    s += x;
  }
  return s;
}

// list and resolve build their text, then write it through `out`.
int cmd_list(bool json, pgcodec::cli::Output& out) {
  std::ostringstream s;
  if (json) {
    auto arr = nlohmann::json::array();
    for (const EncodingInfo& e : pgcodec::encodings()) {
      nlohmann::json j;
      j["id"] = pgcodec::to_int(e.id);
      j["name"] = e.name;
      j["server"] = e.server;
      j["max_char_length"] = e.max_char_length;
      j["aliases"] = std::vector<std::string>(e.aliases.begin(), e.aliases.end());
      arr.push_back(std::move(j));
    }
    s << arr.dump(2) << "\n";
  } else {
    s << std::left << std::setw(3) << "id" << " " << std::setw(15) << "name" << " "
      << std::setw(6) << "kind" << " max aliases\n";
    for (const EncodingInfo& e : pgcodec::encodings())
      s << std::left << std::setw(3) << pgcodec::to_int(e.id) << " " << std::setw(15) << e.name
        << " " << std::setw(6) << (e.server ? "server" : "client") << " " << std::setw(3)
        << e.max_char_length << " " << join(e.aliases) << "\n";
  }
  out.write(s.str());
  return 0;
}

int cmd_resolve(const std::string& name, pgcodec::cli::Output& out) {
  if (auto e = pgcodec::lookup(name)) {
    out.write(std::string(pgcodec::info(*e).name) + "\n");
    return 0;
  }
  std::cerr << "pgcodec: \"" << name << "\" is not a PostgreSQL encoding name"
            << " (PostgreSQL would say: invalid value for parameter \"client_encoding\")\n"
            << "pgcodec: `pgcodec list` shows the encodings and their aliases\n";
  return 2;
}

// Every subcommand but verify ends here: standard output is flushed and
// closed, and a failure there (a full disk, a closed descriptor) is exit 2,
// whatever the command said before.
int finish(int rc, pgcodec::cli::Output& out) {
  if (!out.close()) {
    std::fprintf(stderr, "pgcodec: %s\n", out.error_message().c_str());
    return 2;
  }
  return rc;
}

// Resolves a codec for convert/check; prints why not and returns null.
const pgcodec::Codec* usable_codec(const std::string& name, const char* what) {
  const pgcodec::Codec* c = pgcodec::find_codec(name);
  if (!c)
    std::cerr << "pgcodec: \"" << name << "\" is not a PostgreSQL encoding name ("
              << what << ")\n";
  return c;
}

// Progress on standard error: on a terminal a bar redrawn in place, else
// one line naming the command (`who`).
void draw_progress(bool tty, const char* who, const char* head, double fraction, const std::string& what) {
  if (tty) {
    const int width = 30, filled = static_cast<int>(fraction * width);
    std::cerr << "\r\033[K" << head << "[" << std::string(static_cast<std::size_t>(filled), '#')
              << std::string(static_cast<std::size_t>(width - filled), '.') << "] " << what << std::flush;
  } else {
    std::cerr << who << ": " << head << what << "\n";
  }
}

// The report's lines on standard error, clearing a progress bar first.
std::function<void(const std::string&)> report_lines(bool tty) {
  return [tty](const std::string& s) {
    if (tty) std::cerr << "\r\033[K";
    std::cerr << s << "\n";
  };
}

// `pgcodec verify`'s progress on standard error: a bar through every step on
// a terminal, otherwise one line per encoding.
void print_verify_progress(pgcodec::verifier::VerifyOptions& vo) {
  const bool tty = isatty(2) != 0;
  vo.on_progress = [tty](const pgcodec::verifier::Progress& p) {
    if (!tty && p.step != pgcodec::verifier::Step::ProbeServer) return;
    const int secs = static_cast<int>(p.seconds);
    char head[96];
    std::snprintf(head, sizeof head, "%3d%% [%zu/%zu] %02d:%02d ", static_cast<int>(p.fraction * 100), p.index,
                  p.count, secs / 60, secs % 60);
    const std::string what = p.step == pgcodec::verifier::Step::WriteAtlas
                                 ? std::string(to_string(p.step))
                                 : std::string(pgcodec::info(p.encoding).name) + ": " + to_string(p.step);
    draw_progress(tty, "pgcodec verify", head, p.fraction, what);
  };
  vo.on_line = report_lines(tty);
}

// `pgcodec live`'s progress on standard error: a bar on a terminal,
// otherwise a line at every tenth of the run.
void print_live_progress(pgcodec::verifier::LiveRunOptions& lo) {
  const bool tty = isatty(2) != 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto last_tenth = std::make_shared<int>(-1);
  lo.on_progress = [tty, t0, last_tenth](double fraction, const std::string& what) {
    const int tenth = static_cast<int>(fraction * 10);
    if (!tty && tenth == *last_tenth) return;
    *last_tenth = tenth;
    const int secs = static_cast<int>(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    char head[64];
    std::snprintf(head, sizeof head, "%3d%% %02d:%02d ", static_cast<int>(fraction * 100), secs / 60, secs % 60);
    draw_progress(tty, "pgcodec live", head, fraction, what);
  };
  lo.on_line = report_lines(tty);
}

// SIGINT and SIGTERM during `pgcodec live` only set this; the run stops at
// the next step and removes its throwaway server, then the signal is raised
// again with its default action.
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

std::FILE* open_input(const std::string& path) {
  if (path.empty() || path == "-") return stdin;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) std::cerr << "pgcodec: cannot open " << path << ": " << std::strerror(errno) << "\n";
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "pgcodec: PostgreSQL encodings, converted exactly as the server converts them.\n\n"
      "Encoding names are resolved as PostgreSQL resolves them: every character that is\n"
      "not an ASCII letter or digit is dropped, the rest is lowercased and looked up\n"
      "among PostgreSQL's aliases, so \"Shift-JIS\", \"shift_jis\" and \"S.J.I.S\" all\n"
      "name SJIS.\n\n"
      "Exit status: 0 on success, 1 when the data has errors, 2 on bad usage or an\n"
      "unknown encoding name.",
      "pgcodec"};
  app.set_version_flag("--version", std::string("pgcodec ") + pgcodec_version(),
                       "Print pgcodec's version and exit");
  app.require_subcommand(1);
  bool json = false;
  auto* list = app.add_subcommand(
      "list",
      "List the 42 encodings: id, canonical name, server or client-only, maximum bytes per\n"
      "character and every alias PostgreSQL accepts.");
  list->add_flag("--json", json, "Print a JSON array, one object per encoding");
  std::string name;
  auto* resolve = app.add_subcommand(
      "resolve", "Print the canonical name of an encoding name or alias; exit 2 if unknown.");
  resolve->add_option("NAME", name, "An encoding name, in any spelling PostgreSQL accepts")
      ->required();
  std::string from, to, errors_mode = "strict", file = "-";
  bool check_json = false;
  auto* convert = app.add_subcommand(
      "convert",
      "Convert FILE (or standard input) from encoding FROM to encoding TO through UTF-8,\n"
      "exactly as a UTF8 PostgreSQL database would take it in with client_encoding FROM and\n"
      "give it out with client_encoding TO. Streams in constant memory. As the server takes\n"
      "the whole value in before giving any of it out, an error in the input wins over an\n"
      "earlier character TO lacks: the error reported is the first one taking the input in,\n"
      "else the first one giving it out. Output is written up to the first character that\n"
      "fails either way; PostgreSQL's message and the byte offset go to standard error, and\n"
      "the exit status is 1. With --errors replace nothing fails: bad input decodes to\n"
      "U+FFFD, characters TO lacks become '?'. Exit status 2 if the output cannot be written.");
  convert->add_option("-f,--from", from, "Encoding of the input")->required();
  convert->add_option("-t,--to", to, "Encoding of the output")->required();
  convert->add_option("--errors", errors_mode, "strict (default) or replace")
      ->check(CLI::IsMember({"strict", "replace"}));
  convert->add_option("FILE", file, "Input file; - or nothing for standard input");
  auto* check = app.add_subcommand(
      "check",
      "Report every error in FILE (or standard input) as PostgreSQL would raise it when\n"
      "the data is sent with client_encoding FROM to a UTF8 database, and, with -t TO, every\n"
      "character that could not be given back out in encoding TO. One line per error:\n"
      "byte offset, kind, SQLSTATE and PostgreSQL's message; --json prints one JSON object\n"
      "per line instead. Checking resumes one byte after an invalid byte sequence and after\n"
      "the whole character when it has no equivalent. The errors taking the input in come\n"
      "first, then those giving it out in TO, each group in input order, so the first line is\n"
      "the error PostgreSQL raises. Exit status 1 if there is any error.\n"
      "Run it on a dump before loading it with client_encoding set.");
  check->add_option("-f,--from", from, "Encoding of the input")->required();
  check->add_option("-t,--to", to, "Also check that every character exists in this encoding");
  check->add_flag("--json", check_json, "One JSON object per error");
  check->add_option("FILE", file, "Input file; - or nothing for standard input");
  pgcodec::verifier::VerifyOptions vo;
  std::vector<std::string> verify_encodings;
  bool exhaustive = false;
  auto* verify = app.add_subcommand(
      "verify",
      "Hold pgcodec to PostgreSQL and map where ICU and Python's codecs differ from it.\n\n"
      "For each encoding the server is asked what every enumerated input converts to: every\n"
      "single byte, every two-byte sequence with a high lead byte, the three- and four-byte\n"
      "spaces of EUC_JP, EUC_JIS_2004, EUC_TW, GB18030 and MULE_INTERNAL, every code point\n"
      "U+0001..U+10FFFF and the two-code-point characters; plus random strings with errors at\n"
      "random places on the client_encoding path, so offsets inside strings are checked too.\n"
      "pgcodec's cached, by-name and table paths must give exactly the server's answers.\n"
      "ICU (strict callbacks) and the Python codecs psycopg 3, psycopg2 and asyncpg use must\n"
      "differ from the server exactly as the divergence registry (--registry) records: an\n"
      "unregistered difference fails, and so does a registered one that no longer occurs.\n"
      "Each failure is printed with a command that reproduces it.\n\n"
      "A full run (no --encodings, --references or --sample) writes the atlas to docs/atlas\n"
      "(atlas.md, atlas.json, index.html), or to --out. A throwaway PostgreSQL server is\n"
      "started and removed unless --dsn or PGCODEC_DSN names one (its database must be UTF8).\n"
      "Progress goes to standard error: a bar on a terminal, lines otherwise.\n\n"
      "Exit status: 0 when everything matches, 1 on any difference, 2 on bad usage.");
  verify->add_option("--encodings", verify_encodings, "Only these encodings (comma-separated names)")
      ->delimiter(',');
  verify->add_option("--references", vo.references,
                     "Only these references (comma-separated): full names such as python-cp932 or\n"
                     "icu-windows-31j, or the prefixes icu and python; postgres-direct (or\n"
                     "postgres-direct-EUC_JP) alone runs only the comparison of PostgreSQL's direct\n"
                     "conversions with going through UTF-8")
      ->delimiter(',');
  auto* sample_opt = verify->add_option("--sample", vo.sample,
                                        "Ask about N random inputs per direction and encoding instead of all");
  verify->add_flag("--exhaustive", exhaustive, "Every enumerated input (the default)")->excludes(sample_opt);
  verify->add_option("--strings", vo.strings, "Random strings per direction and encoding")->capture_default_str();
  verify->add_option("-j,--jobs", vo.jobs, "Server connections")->capture_default_str()->check(CLI::Range(1, 32));
  verify->add_option("--dsn", vo.dsn, "libpq connection string of an existing server");
  verify->add_option("--registry", vo.registry,
                     "Directory of the divergence registry (default: the installed one,\n"
                     "<prefix>/share/pgcodec/divergences, or the source tree's corpus/divergences)");
  verify->add_option("--out", vo.out, "Write the atlas here (default on full runs: docs/atlas)");
  verify->add_option("--render-atlas", vo.render_atlas,
                     "Only render DIR/atlas.md and DIR/index.html again from DIR/atlas.json\n"
                     "(as a full run writes them); no server is started")
      ->type_name("DIR");
  verify->add_flag("--update-registry", vo.update_registry,
                   "Rewrite the registry files from this run's divergences (exhaustive runs only)");
  verify->add_option("--show", vo.show, "Failures listed per encoding")->capture_default_str();
  verify->add_option("--seed", vo.seed, "Seed for samples and random strings")->capture_default_str();
  pgcodec::verifier::LiveRunOptions lr;
  std::vector<std::string> live_encodings, live_servers;
  auto* live = app.add_subcommand(
      "live",
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
      "transaction), reported as \"pgcodec live: fault: ...\" with the pair, and on bad usage.");
  live->add_option("--dsn", lr.dsn, "libpq connection string of an existing database (default: a throwaway server)")
      ->type_name("DSN");
  live->add_option("--encodings", live_encodings, "Only these client encodings (comma-separated names)")
      ->delimiter(',')
      ->type_name("LIST");
  live->add_option("--server-encodings", live_servers,
                   "Only databases in these server encodings (comma-separated; with --dsn only\n"
                   "the database's own encoding may be named)")
      ->delimiter(',')
      ->type_name("LIST");
  auto* duration_opt = live->add_option("--duration", lr.duration,
                                        "Rounds over all pairs until SECONDS have passed: in turn, in groups of up\n"
                                        "to 24 pairs (4 with --dsn) that share the time left, every pair at least\n"
                                        "once and on one connection for all its rounds")
                          ->type_name("SECONDS");
  live->add_option("--rounds", lr.rounds, "Rounds per pair (default 1)")->excludes(duration_opt)->type_name("N");
  live->add_option("--seed", lr.seed, "Seed of the random text (each pair's generator: seed and pair)")
      ->capture_default_str()
      ->type_name("N");
  live->add_flag("--allow-writes", lr.allow_writes,
                 "With --dsn: let COPY FROM create temporary tables (nothing else is written)");
  live->add_flag("--json", lr.json, "The report as one JSON object on standard output");
  live->add_option("--registry", lr.registry,
                   "Directory of the divergence registry (default: as for verify)");
  live->add_option("--values", lr.values, "Values per step and round")->capture_default_str()->type_name("N");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  pgcodec::cli::Output out(stdout, "standard output");
  if (*list) return finish(cmd_list(json, out), out);
  if (*resolve) return finish(cmd_resolve(name, out), out);
  if (*verify) {
    for (auto& n : verify_encodings) {
      auto e = pgcodec::lookup(n);
      if (!e) {
        std::cerr << "pgcodec verify: unknown encoding \"" << n << "\"\n";
        return 2;
      }
      vo.encodings.push_back(*e);
    }
    print_verify_progress(vo);
    try {
      return pgcodec::verifier::run_verify(vo);
    } catch (const std::exception& e) {
      std::cerr << "pgcodec verify: " << e.what() << "\n";
      return 1;
    }
  }
  if (*live) {
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
  if (*convert || *check) {
    pgcodec::cli::ConvertOptions o;
    o.from = usable_codec(from, "-f");
    if (!o.from) return 2;
    if (!to.empty()) {
      o.to = usable_codec(to, "-t");
      if (!o.to) return 2;
    }
    o.mode = errors_mode == "replace" ? pgcodec::ErrorMode::Replace : pgcodec::ErrorMode::Strict;
    o.json = check_json;
    if (!file.empty() && file != "-") o.input_name = file;
    std::FILE* in = open_input(file);
    if (!in) return 2;
    const int rc = *convert ? pgcodec::cli::run_convert(o, in, out, stderr)
                            : pgcodec::cli::run_check(o, in, out, stderr);
    if (in != stdin) std::fclose(in);
    return finish(rc, out);
  }
  return 2;
}
