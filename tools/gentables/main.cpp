// pgcodec-gentables: derives the mapping tables from a PostgreSQL server.
//
// For every encoding it asks the server what every candidate byte sequence
// decodes to and what every code point encodes to, builds compact run tables
// from the answers, checks that the table model (harness/core/model.hpp: the
// byte grammar plus the tables) reproduces every answer, and writes
// src/tables/generated/ (the runs) and src/tables/generated/dense/ (the
// library's dense form of them, dense.cpp). With --check it compares the
// answers with the committed tables instead and lists every difference;
// --check-dense compares the library's dense tables with the runs, and
// --dense-only rewrites them from the committed runs, both without a server. Answers are compared
// as every checker compares them: harness::classify().
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "core/generators.hpp"
#include "core/model.hpp"
#include "core/outcome.hpp"
#include "core/text.hpp"
#include "oracle/postgres.hpp"
#include "oracle/probe.hpp"
#include "oracle/temp_server.hpp"
#include "pgcodec/encoding.hpp"
#include "dense.hpp"
#include "tables.hpp"

namespace pgcodec::gen {
namespace {

using harness::Category;
using harness::classify;
using harness::code_points_of;
using harness::hex_bytes;
using harness::Outcome;
using harness::OutcomeKind;
using harness::single_char;
using harness::TableModel;
using harness::utf8;
using oracle::Answers;
using oracle::ProbePool;
using oracle::Verdict;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string describe(const Outcome& o, bool to_unicode) {
  switch (o.kind) {
    case OutcomeKind::InvalidByteSequence: return "invalid byte sequence (22021)";
    case OutcomeKind::NoEquivalent: return "no equivalent (22P05)";
    case OutcomeKind::Unspecified: return "error";
    case OutcomeKind::Ok: break;
  }
  if (!to_unicode) return "bytes " + hex_bytes(o.output);
  return harness::code_points_text(o.output);
}

// Differences between the server's answers and what the tables predict.
struct Diffs {
  std::size_t count = 0;
  std::vector<std::string> examples;
  void add(std::string what) {
    if (count++ < 12) examples.push_back(std::move(what));
  }
};

// ---------------------------------------------------------------------------
// One encoding's answers

BuiltTable build_table(const Answers& a) {
  TableBuilder b(a.enc);
  const bool identity = a.enc == Encoding::UTF8 || a.enc == Encoding::SQL_ASCII;
  if (identity) return b.finish(detail::TableKind::Identity);
  for (std::size_t i = 0; i < a.dec_inputs.size(); ++i) {
    const auto& in = a.dec_inputs[i];
    if (a.dec[i].verdict != Verdict::Ok || !single_char(a.enc, in)) continue;
    auto cps = code_points_of(a.dec[i].output());
    const auto code = detail::code_of(in);
    if (cps.size() == 1)
      b.add_decode(code, cps[0]);
    else if (cps.size() == 2)
      b.add_decode_pair(code, cps[0], cps[1]);
    else
      throw std::runtime_error(std::string(info(a.enc).name) + ": " + hex_bytes(in) + " decodes to " +
                               std::to_string(cps.size()) + " code points");
  }
  for (std::size_t i = 0; i < a.enc_inputs.size(); ++i) {
    if (a.encd[i].verdict != Verdict::Ok) continue;
    const auto out = a.encd[i].output();
    if (out.empty() || out.size() > 4 || out[0] == '\0')
      throw std::runtime_error(std::string(info(a.enc).name) + ": U+" + std::to_string(a.enc_inputs[i]) +
                               " encodes to " + hex_bytes(out) + ", which no run can hold");
    b.add_encode(a.enc_inputs[i], detail::code_of(out));
  }
  const BuiltTable partial = b.finish();
  const TableModel partial_model(partial.view());
  for (std::size_t i = 0; i < a.pair_inputs.size(); ++i) {
    if (a.pairs[i].verdict != Verdict::Ok) continue;
    const auto [cp1, cp2] = a.pair_inputs[i];
    // Only a pair that encodes differently from its two halves needs an entry.
    const Outcome alone = partial_model.encode(utf8(cp1) + utf8(cp2));
    if (classify(oracle::to_outcome(a.pairs[i]), alone) == Category::Agree) continue;
    const auto out = a.pairs[i].output();
    if (out.size() > 4) throw std::runtime_error("a pair encodes to more than 4 bytes");
    b.add_encode_pair(cp1, cp2, detail::code_of(out));
  }
  return b.finish();
}

Diffs compare(const Answers& a, const detail::MappingTable& t) {
  Diffs d;
  const std::string name(info(a.enc).name);
  const TableModel model(t);
  for (std::size_t i = 0; i < a.dec_inputs.size(); ++i) {
    const Outcome server = oracle::to_outcome(a.dec[i]);
    const Outcome ours = model.decode(a.dec_inputs[i]);
    if (classify(server, ours) != Category::Agree)
      d.add("decode " + name + " " + hex_bytes(a.dec_inputs[i]) + ": server " +
            describe(server, true) + ", tables " + describe(ours, true));
  }
  for (std::size_t i = 0; i < a.enc_inputs.size(); ++i) {
    const Outcome server = oracle::to_outcome(a.encd[i]);
    const Outcome ours = model.encode(utf8(a.enc_inputs[i]));
    if (classify(server, ours) != Category::Agree)
      d.add("encode " + name + " " + harness::code_point_text(a.enc_inputs[i]) + ": server " +
            describe(server, false) + ", tables " + describe(ours, false));
  }
  for (std::size_t i = 0; i < a.pair_inputs.size(); ++i) {
    const auto [cp1, cp2] = a.pair_inputs[i];
    const Outcome server = oracle::to_outcome(a.pairs[i]);
    const Outcome ours = model.encode(utf8(cp1) + utf8(cp2));
    if (classify(server, ours) != Category::Agree)
      d.add("encode " + name + " " + harness::code_point_text(cp1) + " " + harness::code_point_text(cp2) +
            ": server " + describe(server, false) + ", tables " + describe(ours, false));
  }
  return d;
}

// The exact command, written into every generated file.
const std::string kCommand =
    "cmake --preset release && cmake --build --preset release --target pgcodec-gentables && "
    "build/release/tools/gentables/pgcodec-gentables --out src/tables/generated";

// --check-dense: the library's dense tables against the run tables, exhaustively.
template <class Wanted>
int check_dense_tables(Wanted wanted) {
  const auto t0 = Clock::now();
  std::size_t total = 0;
  for (const auto& inf : encodings()) {
    if (!wanted(inf.id)) continue;
    std::vector<std::string> ex;
    const std::size_t n = check_dense(*detail::mapping_table(inf.id), ex, 12);
    total += n;
    if (n) std::cerr << inf.name << ": " << n << " differences between the dense and run tables\n";
    for (auto& e : ex) std::cerr << "    " << e << "\n";
  }
  std::cerr << "pgcodec-gentables: dense tables "
            << (total ? std::to_string(total) + " differences from the run tables"
                      : std::string("equal the run tables"))
            << " (" << static_cast<int>(seconds_since(t0) * 10) / 10.0 << " s)\n";
  return total ? 1 : 0;
}

// ---------------------------------------------------------------------------

int run(int argc, char** argv) {
  CLI::App app{
      "pgcodec-gentables: derive pgcodec's mapping tables from a PostgreSQL server.\n\n"
      "Asks the server, for every encoding, what every candidate byte sequence decodes to\n"
      "(all single bytes, all two-byte sequences with a high lead byte, the three- and\n"
      "four-byte spaces of EUC_JP, EUC_JIS_2004, EUC_TW, GB18030 and MULE_INTERNAL) and\n"
      "what every code point U+0001..U+10FFFF (surrogates excluded) encodes to. It then\n"
      "checks that the structural rules and tables reproduce every answer and writes\n"
      "the tables to --out; with --check it compares the answers with the tables\n"
      "compiled into this binary instead and exits 1 listing every difference.\n"
      "MULE_INTERNAL is reached through its member encodings (docs/mule-internal.md);\n"
      "docs/tables.md describes the table format.\n\n"
      "A throwaway server is started unless --dsn or PGCODEC_DSN names one (its database\n"
      "must be UTF8).\n\n"
      "Exit status: 0 when every answer is reproduced, 1 on differences or errors,\n"
      "2 on bad usage.",
      "pgcodec-gentables"};
  std::string out_dir = "src/tables/generated";
  bool check = false;
  std::optional<std::string> dsn;
  int jobs = 3;
  std::vector<std::string> only;
  bool dense_only = false, check_dense_only = false;
  app.add_option("--out", out_dir, "Directory to write the generated sources to")
      ->capture_default_str();
  app.add_flag("--check", check, "Compare with the compiled-in tables instead of writing");
  app.add_flag("--dense-only", dense_only,
               "Write only the library's dense tables (--out/dense), from the run tables\n"
               "compiled into this binary; no server");
  app.add_flag("--check-dense", check_dense_only,
               "Check that the dense tables compiled into the library equal the run tables\n"
               "for every code and code point, and exit; no server");
  app.add_option("--dsn", dsn, "libpq connection string of an existing server");
  app.add_option("-j,--jobs", jobs, "Server connections to use")->capture_default_str()->check(CLI::Range(1, 32));
  app.add_option("--encodings", only,
                 "Only these encodings (comma-separated). Without --check this checks the\n"
                 "rules against fresh tables but writes nothing: tables are written all at once.")
      ->delimiter(',');
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  std::set<Encoding> selected;
  for (auto& n : only) {
    auto e = lookup(n);
    if (!e) {
      std::cerr << "pgcodec-gentables: unknown encoding \"" << n << "\"\n";
      return 2;
    }
    selected.insert(*e);
  }
  auto wanted = [&](Encoding e) { return selected.empty() || selected.count(e); };
  const std::string dense_dir = out_dir + "/dense";
  if (check_dense_only) return check_dense_tables(wanted);
  if (dense_only) {
    if (!selected.empty()) {
      std::cerr << "pgcodec-gentables: --dense-only writes every table; no --encodings\n";
      return 2;
    }
    std::size_t bytes = 0;
    for (const auto& inf : encodings())
      bytes += write_dense_source(dense_dir, *detail::mapping_table(inf.id),
                                  detail::mapping_table(inf.id)->source, kCommand);
    write_dense_index(dense_dir, detail::mapping_table(Encoding::SJIS)->source, kCommand);
    std::cerr << "pgcodec-gentables: wrote the dense tables (" << bytes << " bytes of source) to "
              << dense_dir << "\n";
    return 0;
  }

  const auto t0 = Clock::now();
  oracle::ServerLease server(dsn);
  ProbePool pool(server.conninfo(), jobs);
  const std::string version = pool.server_version();
  std::cerr << "pgcodec-gentables: PostgreSQL " << version << ", " << jobs << " connections"
            << (server.is_throwaway() ? " (throwaway server)" : "") << "\n";

  const auto cps = harness::all_code_points();
  std::map<Encoding, BuiltTable> built;
  std::size_t total_diffs = 0, total_bytes = 0;
  std::vector<std::string> report;
  const std::string command = kCommand;

  auto finish = [&](const Answers& a, double secs) {
    BuiltTable t = build_table(a);
    const detail::MappingTable* committed = detail::mapping_table(a.enc);
    Diffs d;
    if (check && !committed) {
      d.add("no committed table for " + std::string(info(a.enc).name));
    } else {
      d = compare(a, check ? *committed : t.view());
    }
    std::size_t dec_ok = 0, enc_ok = 0;
    for (auto& p : a.dec) dec_ok += p.verdict == Verdict::Ok;
    for (auto& p : a.encd) enc_ok += p.verdict == Verdict::Ok;
    std::ostringstream line;
    line << info(a.enc).name << ": " << a.dec_inputs.size() << " byte sequences (" << dec_ok
         << " convert), " << a.enc_inputs.size() << " code points (" << enc_ok << " convert), "
         << a.pair_inputs.size() << " pairs; runs " << t.decode.size() << "+"
         << t.decode_linear.size() << "+" << t.decode_pairs.size() << " / " << t.encode.size()
         << "+" << t.encode_linear.size() << "+" << t.encode_pairs.size();
    if (a.policy_answers) line << "; " << a.policy_answers << " answers by MULE policy";
    line << "; " << d.count << " differences; " << static_cast<int>(secs * 10) / 10.0 << " s";
    std::cerr << line.str() << "\n";
    report.push_back(line.str());
    for (auto& ex : d.examples) std::cerr << "    " << ex << "\n";
    if (d.count > d.examples.size())
      std::cerr << "    ... and " << d.count - d.examples.size() << " more\n";
    total_diffs += d.count;
    built.emplace(a.enc, std::move(t));
  };

  for (const auto& inf : encodings()) {
    if (inf.id == Encoding::MULE_INTERNAL) continue;
    const auto members = oracle::mule_members();
    const bool member = std::find(members.begin(), members.end(), inf.id) != members.end();
    if (!wanted(inf.id) && !(member && wanted(Encoding::MULE_INTERNAL))) continue;
    const auto t1 = Clock::now();
    const Answers a = oracle::probe_encoding(pool, inf.id, cps);
    finish(a, seconds_since(t1));
  }
  if (wanted(Encoding::MULE_INTERNAL)) {
    const auto t1 = Clock::now();
    const Answers a = oracle::probe_mule(
        pool, [&](Encoding m) { return built.at(m).view(); }, cps, std::cerr);
    finish(a, seconds_since(t1));
  }

  if (!check && total_diffs == 0 && selected.empty()) {
    for (auto& [e, t] : built) {
      total_bytes += write_table_source(out_dir, t, version, command);
      total_bytes += write_dense_source(dense_dir, t.view(), "PostgreSQL " + version, command);
    }
    write_index_source(out_dir, version, command);
    write_dense_index(dense_dir, "PostgreSQL " + version, command);
  }
  std::cerr << "pgcodec-gentables: " << pool.items_probed() << " inputs probed in "
            << static_cast<int>(seconds_since(t0)) << " s; ";
  if (check) {
    if (!total_diffs && check_dense_tables(wanted) != 0) return 1;
    std::cerr << (total_diffs ? std::to_string(total_diffs) + " differences from the committed tables\n"
                              : "the committed tables match the server\n");
    return total_diffs ? 1 : 0;
  }
  if (total_diffs) {
    std::cerr << total_diffs
              << " answers the structural rules and tables cannot reproduce; nothing written\n";
    return 1;
  }
  if (!selected.empty()) {
    std::cerr << "the rules and fresh tables reproduce every answer; nothing written (--encodings)\n";
    return 0;
  }
  std::cerr << "wrote " << built.size() << " tables (" << total_bytes << " bytes of source) to "
            << out_dir << "\n";
  return 0;
}

}  // namespace
}  // namespace pgcodec::gen

int main(int argc, char** argv) {
  try {
    return pgcodec::gen::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "pgcodec-gentables: " << e.what() << "\n";
    return 1;
  }
}
