// pgcodec: the command-line face of the library. list, resolve, convert and
// check run here and need only the library; verify and live are programs of
// their own (pgcodec-verify, pgcodec-live: they load libpq, ICU and
// libpython), run git-style by `pgcodec verify ARGS` and `pgcodec live ARGS`.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "convert.hpp"
#include "output_file.hpp"
#include "progress.hpp"
#include "pgcodec/codec.hpp"
#include "pgcodec/encoding.hpp"
#include "pgcodec/pgcodec.h"

namespace {

// list and resolve build their text, then write it through `out`.
int cmd_list(bool json, pgcodec::cli::Output& out) {
  out.write(pgcodec::cli::encoding_list(json));
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

#ifndef PGCODEC_LIBEXEC_FROM_BINDIR
#define PGCODEC_LIBEXEC_FROM_BINDIR "../libexec/pgcodec"
#endif

// `pgcodec verify ARGS` and `pgcodec live ARGS` run pgcodec-verify or
// pgcodec-live with ARGS, as git runs git-foo: the one beside this
// executable (the build tree), else the installed one in
// <libexecdir>/pgcodec. Returns only if it cannot be run (exit 2).
int run_helper(const char* command, int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::string program = std::string("pgcodec-") + command;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> tried;
  if (!ec) {
    tried.push_back(self.parent_path() / program);
    tried.push_back((self.parent_path() / PGCODEC_LIBEXEC_FROM_BINDIR / program).lexically_normal());
  }
  for (const fs::path& p : tried) {
    if (::access(p.c_str(), X_OK) != 0) continue;
    std::vector<char*> args;
    std::string arg0 = p.string();
    args.push_back(arg0.data());
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    ::execv(p.c_str(), args.data());
    std::fprintf(stderr, "pgcodec: cannot run %s: %s\n", p.c_str(), std::strerror(errno));
    return 2;
  }
  std::fprintf(stderr, "pgcodec: `pgcodec %s` is the program %s, which is not installed", command, program.c_str());
  if (tried.empty()) {
    std::fprintf(stderr, " (cannot read /proc/self/exe to look for it: %s)\n", ec.message().c_str());
  } else {
    std::fprintf(stderr, "; looked for:\n");
    for (const fs::path& p : tried) std::fprintf(stderr, "  %s\n", p.c_str());
  }
  // The .deb splits it off (cmake/packaging.cmake): say which package has it.
  std::fprintf(stderr, "pgcodec: it comes with the package pgcodec-verify (install component verifier)\n");
  return 2;
}

using Input = pgcodec::cli::InputFile;

// Opens every input before anything is converted, so that a missing second
// file fails the run before any output; prints why not and returns nothing.
std::optional<std::vector<Input>> open_inputs(const std::vector<std::string>& paths) {
  std::vector<Input> v;
  auto size_of = [](std::FILE* f) -> std::size_t {
    struct stat st {};
    return ::fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0;
  };
  for (const std::string& p : paths.empty() ? std::vector<std::string>{"-"} : paths) {
    if (p == "-") {
      v.push_back({stdin, "standard input", size_of(stdin)});
      continue;
    }
    std::FILE* f = std::fopen(p.c_str(), "rb");
    if (!f) {
      std::fprintf(stderr, "pgcodec: cannot open %s: %s\n", p.c_str(), std::strerror(errno));
      for (Input& i : v)
        if (i.f != stdin) std::fclose(i.f);
      return std::nullopt;
    }
    v.push_back({f, p, size_of(f)});
  }
  return v;
}

// convert and check over their inputs, in order, into `out`, with progress
// on standard error when it is a terminal (and progress_ok).
int run_inputs(bool convert, const pgcodec::cli::ConvertOptions& options, std::vector<Input>& inputs,
               pgcodec::cli::Output& out, bool progress_ok) {
  // The total is known when every input is a regular file.
  std::size_t total = 0;
  bool known = true;
  for (const Input& i : inputs) {
    known = known && i.size > 0;
    total += i.size;
  }
  pgcodec::cli::ByteProgress progress(stderr, progress_ok && pgcodec::cli::stderr_is_tty(),
                                      convert ? "pgcodec convert" : "pgcodec check", known ? total : 0);
  pgcodec::cli::ConvertOptions o = options;
  o.progress = &progress;
  const int rc = pgcodec::cli::run_inputs(convert, o, inputs, out, stderr);
  for (Input& i : inputs)
    if (i.f != stdin) std::fclose(i.f);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && (std::strcmp(argv[1], "verify") == 0 || std::strcmp(argv[1], "live") == 0))
    return run_helper(argv[1], argc, argv);
  CLI::App app{
      "pgcodec: PostgreSQL encodings, converted exactly as the server converts them.",
      "pgcodec"};
  app.footer(
      "Encoding names are resolved as PostgreSQL resolves them: every character that is\n"
      "not an ASCII letter or digit is dropped, the rest is lowercased and looked up\n"
      "among PostgreSQL's aliases, so \"Shift-JIS\", \"shift_jis\" and \"S.J.I.S\" all\n"
      "name SJIS. `pgcodec COMMAND --help` describes each command.\n\n"
      "Exit status:\n"
      "  0  success\n"
      "  1  the data has errors (convert, check), or verify/live found a difference\n"
      "  2  bad usage, an unknown encoding name, or an input or output that cannot be\n"
      "     read or written\n\n"
      "Examples:\n"
      "  pgcodec convert -f LATIN1 -t UTF8 -o dump.utf8.sql dump.sql\n"
      "  pgcodec check -f SJIS --max-errors 10 data.csv\n"
      "  pgcodec resolve shift-jis\n"
      "  pgcodec verify --encodings SJIS --sample 20000");
  app.set_version_flag("--version", std::string("pgcodec ") + pgcodec_version(),
                       "Print pgcodec's version and exit");
  app.require_subcommand(1);
  bool json = false;
  auto* list = app.add_subcommand(
      "list",
      "List the 42 encodings and their aliases");
  list->footer(
      "One line per encoding: id, canonical name, server or client-only, maximum bytes per\n"
      "character and every alias PostgreSQL accepts (`pgcodec convert -l` prints the same).\n\n"
      "Exit status: 0, or 2 if the list cannot be written.\n\n"
      "Examples:\n"
      "  pgcodec list\n"
      "  pgcodec list --json");
  list->add_flag("--json", json, "Print a JSON array, one object per encoding");
  std::string name;
  auto* resolve = app.add_subcommand(
      "resolve",
      "Print the canonical name of an encoding name or alias");
  resolve->footer(
      "NAME is resolved as PostgreSQL resolves client_encoding.\n\n"
      "Exit status: 0, or 2 if the name is unknown.\n\n"
      "Example:\n"
      "  pgcodec resolve Shift-JIS      prints SJIS");
  resolve->add_option("NAME", name, "An encoding name, in any spelling PostgreSQL accepts")
      ->required();
  std::string from, to, errors_mode = "strict", out_path;
  std::vector<std::string> files;
  bool check_json = false, drop = false, convert_list = false;
  std::size_t max_errors = 0;
  auto* convert = app.add_subcommand(
      "convert",
      "Convert between two encodings as PostgreSQL does (like iconv)");
  convert->footer(
      "Synopsis:\n"
      "  pgcodec convert [-c | --errors MODE] [-o FILE] -f FROM -t TO [FILE...]\n"
      "  pgcodec convert -l\n\n"
      "Convert the FILEs (or standard input) from encoding FROM to encoding TO through\n"
      "UTF-8, exactly as a UTF8 PostgreSQL database would take them in with client_encoding\n"
      "FROM and give them out with client_encoding TO, and write the result to standard\n"
      "output or, with -o, to FILE. Streams in constant memory.\n\n"
      "Several FILEs are converted in order into one output, as iconv does, each on its\n"
      "own: a multibyte character cut off at the end of one file is an error in that file\n"
      "(it does not continue into the next), byte offsets count from the start of each\n"
      "file, and an error names its file (\"... at byte offset 7 in b.txt\").\n\n"
      "Errors (--errors):\n"
      "  strict   (the default) stop at the first error, as the server does. As the server\n"
      "           takes the whole value in before giving any of it out, an error in the\n"
      "           input wins over an earlier character TO lacks: the error reported is the\n"
      "           first one taking the input in, else the first one giving it out. Output\n"
      "           is written up to the first character that fails either way;\n"
      "           PostgreSQL's message and the byte offset go to standard error; exit 1.\n"
      "  replace  nothing fails: an invalid byte sequence decodes to U+FFFD, a character\n"
      "           TO lacks becomes '?'; exit 0.\n"
      "  skip     (-c) drop what cannot be converted, as iconv -c does: each invalid byte\n"
      "           sequence (conversion resumes one byte after it, as check resumes) and each\n"
      "           character TO lacks. The rest is converted (the text on both sides of\n"
      "           a dropped sequence meets, so a pair that EUC_JIS_2004 or SHIFT_JIS_2004\n"
      "           combine may combine); standard error gets one line\n"
      "           counting what was dropped, and the exit status is 1 when anything was\n"
      "           (as glibc's iconv -c), 0 when nothing was.\n\n"
      "With -o FILE the output is written to a temporary file beside FILE (.FILE.pgcodec-*),\n"
      "synced to the disk and renamed over FILE only when the whole run succeeded (exit 0,\n"
      "or 1 from -c). On any failure (an error in strict mode, a read or write error,\n"
      "SIGINT, SIGTERM or SIGHUP) the temporary file is removed and FILE is left as it was.\n"
      "FILE may be one of the inputs. A new FILE gets the mode the umask gives; an existing\n"
      "one keeps its mode.\n\n"
      "When standard error is a terminal and the output is not, a run that lasts more than\n"
      "half a second shows its progress there (bytes, rate, and percent and ETA when the\n"
      "input sizes are known); otherwise nothing but errors is printed.\n\n"
      "Exit status: 0 converted; 1 a conversion error (strict), or something dropped (-c);\n"
      "2 bad usage, an unknown encoding, an input that cannot be read or an output that\n"
      "cannot be written.\n\n"
      "Examples:\n"
      "  pgcodec convert -f LATIN1 -t UTF8 < in.txt > out.txt\n"
      "  pgcodec convert -f SJIS -t UTF8 -o all.txt a.txt b.txt c.txt\n"
      "  pgcodec convert -c -f UTF8 -t LATIN1 -o latin1.txt utf8.txt\n"
      "  pgcodec convert -l");
  auto* from_opt = convert->add_option("-f,--from", from, "Encoding of the input")->type_name("FROM");
  auto* to_opt = convert->add_option("-t,--to", to, "Encoding of the output")->type_name("TO");
  auto* errors_opt = convert->add_option("--errors", errors_mode, "strict (the default), replace or skip (see below)")
                         ->check(CLI::IsMember({"strict", "replace", "skip"}))
                         ->type_name("MODE");
  convert->add_flag("-c", drop, "Drop what cannot be converted: --errors skip")->excludes(errors_opt);
  convert->add_option("-o,--output", out_path, "Write to FILE (replaced only on success) instead of standard output")
      ->type_name("FILE");
  convert->add_flag("-l,--list", convert_list, "List the encodings and exit (as `pgcodec list`)")
      ->excludes(from_opt)
      ->excludes(to_opt);
  convert->add_option("FILE", files, "Input files, converted in order; - or nothing for standard input")
      ->type_name("");
  auto* check = app.add_subcommand(
      "check",
      "Report every encoding error in the input, as PostgreSQL would raise it");
  check->footer(
      "Synopsis:\n"
      "  pgcodec check [--json] [--max-errors N] -f FROM [-t TO] [FILE...]\n\n"
      "Report every error in the FILEs (or standard input) as PostgreSQL would raise it when\n"
      "the data is sent with client_encoding FROM to a UTF8 database, and, with -t TO, every\n"
      "character that could not be given back out in encoding TO. One line per error:\n"
      "byte offset, kind, SQLSTATE and PostgreSQL's message; --json prints one JSON object\n"
      "per line instead. Checking resumes one byte after an invalid byte sequence and after\n"
      "the whole character when it has no equivalent. The errors taking the input in come\n"
      "first, then those giving it out in TO, each group in input order, so the first line is\n"
      "the error PostgreSQL raises. With several FILEs each is checked on its own, and each\n"
      "line starts with its file's name (\"b.txt:7: ...\"; JSON: \"file\").\n"
      "--max-errors N lists the first N lines of that order and stops reading when it can;\n"
      "standard error then says that it stopped. Progress is shown as for convert.\n"
      "Run it on a dump before loading it with client_encoding set.\n\n"
      "Exit status: 0 no errors; 1 any error; 2 bad usage, an unknown encoding, or an input\n"
      "or output that cannot be read or written.\n\n"
      "Examples:\n"
      "  pgcodec check -f WIN1252 -t LATIN1 dump.sql\n"
      "  pgcodec check -f SJIS --json --max-errors 100 *.csv");
  check->add_option("-f,--from", from, "Encoding of the input")->required()->type_name("FROM");
  check->add_option("-t,--to", to, "Also check that every character exists in this encoding")->type_name("TO");
  check->add_flag("--json", check_json, "One JSON object per error");
  // Digits only: CLI11 would otherwise take "-1" as SIZE_MAX (no limit).
  check->add_option("--max-errors", max_errors, "Stop after N errors (0, the default: list every one)")
      ->check([](const std::string& n) {
        return !n.empty() && n.find_first_not_of("0123456789") == std::string::npos
                   ? std::string()
                   : "N must be a count of errors (0 or more), not \"" + n + "\"";
      })
      ->type_name("N");
  check->add_option("FILE", files, "Input files; - or nothing for standard input")->type_name("");
  // Run by pgcodec-verify and pgcodec-live (see run_helper); listed here for --help.
  app.add_subcommand("verify",
                     "Hold pgcodec to PostgreSQL, map ICU's and Python's differences (pgcodec-verify)");
  app.add_subcommand("live",
                     "Round trips through a running PostgreSQL, every encoding pair (pgcodec-live)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  pgcodec::cli::Output out(stdout, "standard output");
  if (*list) return finish(cmd_list(json, out), out);
  if (*resolve) return finish(cmd_resolve(name, out), out);
  if (*convert && convert_list) {
    if (!files.empty() || !out_path.empty()) {
      std::cerr << "pgcodec: convert -l takes no files and no -o\n";
      return 2;
    }
    return finish(cmd_list(false, out), out);
  }
  if (*convert && (from.empty() || to.empty())) {
    std::cerr << "pgcodec: convert needs " << (from.empty() ? "-f FROM" : "-t TO")
              << " (`pgcodec convert --help`)\n";
    return 2;
  }
  pgcodec::cli::ConvertOptions o;
  o.from = usable_codec(from, "-f");
  if (!o.from) return 2;
  if (!to.empty()) {
    o.to = usable_codec(to, "-t");
    if (!o.to) return 2;
  }
  o.mode = errors_mode == "replace" ? pgcodec::ErrorMode::Replace : pgcodec::ErrorMode::Strict;
  o.skip = drop || errors_mode == "skip";
  o.json = check_json;
  o.max_errors = max_errors;
  auto inputs = open_inputs(files);
  if (!inputs) return 2;
  if (out_path.empty()) {
    const bool progress_ok = isatty(STDOUT_FILENO) == 0;
    return finish(run_inputs(convert->parsed(), o, *inputs, out, progress_ok), out);
  }
  // -o: everything goes to the temporary file; FILE is replaced only if the
  // run succeeded and the bytes reached the disk.
  return pgcodec::cli::convert_to_file(out_path, o.skip, stderr, [&](pgcodec::cli::Output& to_file) {
    return run_inputs(true, o, *inputs, to_file, true);
  });
}
