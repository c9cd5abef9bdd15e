// pgcodec-verify: `pgcodec verify`, in a program of its own so that the
// pgcodec CLI loads neither libpq, ICU nor libpython (`pgcodec verify ARGS`
// runs this with ARGS; see main.cpp).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "progress.hpp"
#include "verifier/verify.hpp"
#include "pgcodec/encoding.hpp"
#include "pgcodec/pgcodec.h"

namespace {

// Progress on standard error: a bar through every step on a terminal,
// otherwise one line per encoding.
void print_verify_progress(pgcodec::verifier::VerifyOptions& vo) {
  const bool tty = pgcodec::cli::stderr_is_tty();
  vo.on_progress = [tty](const pgcodec::verifier::Progress& p) {
    if (!tty && p.step != pgcodec::verifier::Step::ProbeServer) return;
    const int secs = static_cast<int>(p.seconds);
    char head[96];
    std::snprintf(head, sizeof head, "%3d%% [%zu/%zu] %02d:%02d ", static_cast<int>(p.fraction * 100), p.index,
                  p.count, secs / 60, secs % 60);
    const std::string what = p.step == pgcodec::verifier::Step::WriteAtlas
                                 ? std::string(to_string(p.step))
                                 : std::string(pgcodec::info(p.encoding).name) + ": " + to_string(p.step);
    pgcodec::cli::draw_progress(stderr, tty, "pgcodec verify", head, p.fraction, what);
  };
  vo.on_line = pgcodec::cli::report_lines(stderr, tty);
}

}  // namespace

int main(int argc, char** argv) {
  pgcodec::verifier::VerifyOptions vo;
  std::vector<std::string> verify_encodings;
  bool exhaustive = false;
  CLI::App app{
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
      "Exit status: 0 when everything matches, 1 on any difference, 2 on bad usage.\n\n"
      "Examples:\n"
      "  pgcodec verify                       every encoding and input; writes docs/atlas\n"
      "  pgcodec verify --encodings SJIS --sample 20000\n"
      "  pgcodec verify --references icu --dsn 'host=db dbname=utf8db'",
      "pgcodec verify"};
  app.add_option("--encodings", verify_encodings, "Only these encodings (comma-separated names)")
      ->delimiter(',');
  app.add_option("--references", vo.references,
                     "Only these references (comma-separated): full names such as python-cp932 or\n"
                     "icu-windows-31j, or the prefixes icu and python; postgres-direct (or\n"
                     "postgres-direct-EUC_JP) alone runs only the comparison of PostgreSQL's direct\n"
                     "conversions with going through UTF-8")
      ->delimiter(',');
  auto* sample_opt = app.add_option("--sample", vo.sample,
                                        "Ask about N random inputs per direction and encoding instead of all");
  app.add_flag("--exhaustive", exhaustive, "Every enumerated input (the default)")->excludes(sample_opt);
  app.add_option("--strings", vo.strings, "Random strings per direction and encoding")->capture_default_str();
  app.add_option("-j,--jobs", vo.jobs, "Server connections")->capture_default_str()->check(CLI::Range(1, 32));
  app.add_option("--dsn", vo.dsn, "libpq connection string of an existing server");
  app.add_option("--registry", vo.registry,
                     "Directory of the divergence registry (default: the installed one,\n"
                     "<prefix>/share/pgcodec/divergences, or the source tree's corpus/divergences)");
  app.add_option("--out", vo.out, "Write the atlas here (default on full runs: docs/atlas)");
  app.add_option("--render-atlas", vo.render_atlas,
                 "Only render DIR/atlas.md and DIR/index.html again from DIR/atlas.json\n"
                 "(as a full run writes them); no server is started")
      ->type_name("DIR");
  app.add_flag("--update-registry", vo.update_registry,
                   "Rewrite the registry files from this run's divergences (exhaustive runs only)");
  app.add_option("--show", vo.show, "Failures listed per encoding")->capture_default_str();
  app.add_option("--seed", vo.seed, "Seed for samples and random strings")->capture_default_str();
  app.set_version_flag("--version", std::string("pgcodec ") + pgcodec_version(),
                       "Print pgcodec's version and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
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
