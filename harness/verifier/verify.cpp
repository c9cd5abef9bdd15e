// pgcodec verify: for each encoding, ask the server about every enumerated
// input (all single characters both ways, plus random strings on the
// client_encoding path), hold pgcodec's three paths to exactly those answers,
// compare ICU and Python's codecs with them, and check the differences
// against the divergence registry.
#include "verifier/verify.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include <unicode/uvernum.h>

#include "core/generators.hpp"
#include "core/model.hpp"
#include "core/text.hpp"
#include "oracle/direct.hpp"
#include "oracle/live.hpp"
#include "oracle/oracle.hpp"
#include "oracle/postgres.hpp"
#include "oracle/python.hpp"
#include "oracle/temp_server.hpp"
#include "pgcodec/codec.hpp"
#include "verifier/atlas.hpp"
#include "verifier/registry_location.hpp"

namespace pgcodec::verifier {

const char* to_string(Step s) noexcept {
  switch (s) {
    case Step::ProbeServer: return "asking the server";
    case Step::CheckPgcodec: return "checking pgcodec";
    case Step::CheckStrings: return "checking strings";
    case Step::LiveRoundTrip: return "live round trips";
    case Step::FindInconsistencies: return "finding PostgreSQL's inconsistencies";
    case Step::CompareReferences: return "comparing the references";
    case Step::CompareDirect: return "comparing PostgreSQL's direct conversions with UTF-8";
    case Step::WriteAtlas: return "writing the atlas";
  }
  return "?";
}

namespace {

using harness::classify;
using harness::code_points_text;
using harness::hex_bytes;
using harness::hex_digits;
using harness::input_text;
using harness::Outcome;
using harness::OutcomeKind;
using harness::outcome_text;
using harness::RegistryCheck;
using harness::RegistryFile;
using harness::RegistryRow;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A command that shows pgcodec's answer for one input.
std::string reproduce(Encoding e, Direction d, const std::string& in) {
  const std::string name(info(e).name);
  return "printf '" + hex_digits(in, "\\x") + "' | pgcodec convert " +
         (d == Direction::Decode ? "-f " + name + " -t UTF8" : "-f UTF8 -t " + name);
}

// The SQL that shows PostgreSQL's answer for one single-character input.
std::string sql_for(Encoding e, Direction d, const std::string& in) {
  const std::string name(info(e).name), bytes = "'\\x" + hex_digits(in) + "'::bytea";
  return d == Direction::Decode ? "SELECT convert(" + bytes + ", '" + name + "', 'UTF8');"
                                : "SELECT convert(" + bytes + ", 'UTF8', '" + name + "');";
}

// pgcodec's outcome for one conversion (in this run it is proven equal to
// the server's on every enumerated input).
using harness::pgcodec_outcome;

// Whether an outcome is exactly the conversion to `text`, by the one comparison.
bool converts_to(const Outcome& o, const std::string& text) {
  return classify(Outcome::converted(text), o) == Category::Agree;
}

// A failure's kind as the atlas writes it, without the offset.
std::string kind_text(const Outcome& o) {
  return o.kind == OutcomeKind::InvalidByteSequence ? "invalid" : "no-equivalent";
}

// The explanation of a divergence's group, derived from what PostgreSQL
// itself does with the input (pgcodec, proven equal to the server on every
// enumerated input in the same run, answers the reverse question).
std::string explain(Encoding e, Direction d, const std::string& input, const Outcome& pg,
                    Category c) {
  const Codec& cd = codec(e);
  if (pg.ok() && e != Encoding::UTF8 && e != Encoding::SQL_ASCII) {
    if (d == Direction::Encode) {
      const Outcome back = pgcodec_outcome(cd, Direction::Decode, pg.output);
      if (!back.ok()) return "PostgreSQL defect: it writes bytes that it rejects when reading them";
      if (!converts_to(back, input))
        return "one-way mapping: PostgreSQL reads these bytes back as another character";
    } else {
      if (!converts_to(pgcodec_outcome(cd, Direction::Encode, pg.output), input))
        return "many-to-one: PostgreSQL reads these bytes but writes the character with other bytes";
    }
  }
  switch (c) {
    case Category::DifferentMapping:
      return "vendor variant: the two tables give this input different characters";
    case Category::OnlyExpected:
      return d == Direction::Decode ? "PostgreSQL's table has characters the reference lacks"
                                    : "PostgreSQL can write code points the reference cannot";
    case Category::OnlyActual:
      return d == Direction::Decode ? "the reference reads bytes PostgreSQL rejects"
                                    : "the reference writes code points PostgreSQL has no equivalent for";
    case Category::DifferentErrorKind:
      return "both reject it: one calls it malformed, the other unmapped";
    case Category::DifferentOffset: return "both reject it, at different bytes";
    case Category::DifferentBytes:
    case Category::DifferentSqlstate:
    case Category::DifferentMessage: return "both reject it at the same byte, worded differently";
    case Category::Agree: break;
  }
  return "";
}

// ---------------------------------------------------------------------------

// Reports through the options' callbacks: where the run is, and the lines.
struct Reporter {
  const VerifyOptions& opt;
  std::size_t total_weight = 0, done_weight = 0;
  std::size_t index = 0, count = 0;  // the encoding being worked on
  Encoding encoding{};
  Clock::time_point t0 = Clock::now();
  void step(Step s) const {
    if (!opt.on_progress) return;
    Progress p;
    p.step = s;
    p.index = index;
    p.count = count;
    p.encoding = encoding;
    p.fraction = total_weight ? static_cast<double>(done_weight) / static_cast<double>(total_weight) : 0;
    p.seconds = since(t0);
    opt.on_progress(p);
  }
  void line(const std::string& s) const {
    if (opt.on_line)
      opt.on_line(s);
    else
      std::cerr << s << "\n";
  }
};

struct Failure {
  std::string what;
  std::string command;
};

std::size_t weight(Encoding e) {
  switch (e) {
    case Encoding::EUC_TW: return 4;
    case Encoding::GB18030: case Encoding::MULE_INTERNAL: return 3;
    default: return 1;
  }
}

bool wanted_reference(const VerifyOptions& o, const std::string& name) {
  if (o.references.empty()) return true;
  for (auto& r : o.references)
    if (name == r || name.starts_with(r + "-")) return true;
  return false;
}

struct Verifier {
  const VerifyOptions& opt;
  oracle::ServerLease server;
  oracle::ProbePool pool;
  Reporter progress;
  RegistryLocation registry;
  std::vector<Failure> failures;
  Atlas atlas;
  std::size_t pg_checks = 0, string_checks = 0, unlocated_offsets = 0, live_checks = 0;
  std::size_t unregistered = 0, stale = 0;
  std::vector<std::uint32_t> all_cps = harness::all_code_points();

  Verifier(const VerifyOptions& o, RegistryLocation where)
      : opt(o), server(o.dsn), pool(server.conninfo(), o.jobs), progress{o}, registry(std::move(where)) {}

  // The command that updates the registry; never one that writes into an
  // installed copy.
  std::string update_hint() const {
    if (registry.installed)
      return "pgcodec verify --update-registry --registry <source checkout>/corpus/divergences (the "
             "installed registry " + registry.dir + " is read-only)";
    return "pgcodec verify --update-registry --registry " + registry.dir;
  }

  oracle::Answers probe(Encoding e, std::uint64_t seed) {
    std::vector<std::uint32_t> cps = all_cps;
    std::vector<std::string> dec = harness::decode_candidates(e);
    if (opt.sample) {
      std::mt19937_64 rng(seed);
      auto thin = [&](auto& v) {
        if (v.size() <= opt.sample) return;
        std::shuffle(v.begin(), v.end(), rng);
        v.resize(opt.sample);
        std::sort(v.begin(), v.end());
      };
      thin(cps);
      thin(dec);
    }
    if (e == Encoding::MULE_INTERNAL) {
      std::ostringstream quiet;
      return oracle::probe_mule(
          pool, [](Encoding m) { return *detail::mapping_table(m); }, cps, quiet);
    }
    return oracle::probe_encoding(pool, e, cps, oracle::Path::Client, opt.sample ? &dec : nullptr);
  }

  void fail(Encoding e, std::vector<Failure>& mine, std::string what, std::string command) {
    mine.push_back({std::string(info(e).name) + ": " + std::move(what), std::move(command)});
  }

  EncodingReport verify(Encoding e, const oracle::Answers& a, std::vector<Failure>& mine) {
    EncodingReport rep;
    rep.encoding = e;
    // The inputs and the server's outcomes, both directions. The decode
    // inputs that are one character by their lead byte are where convert()
    // (which validates a whole input first) and the client path (character
    // by character) must agree, and where a failure is at offset 0.
    const std::vector<std::string>& dec_in = a.dec_inputs;
    std::vector<std::string> enc_in, one_in;
    std::vector<Outcome> dec_pg, enc_pg, one_pg;
    for (std::size_t i = 0; i < a.dec.size(); ++i) {
      dec_pg.push_back(oracle::to_outcome(a.dec[i]));
      if (codec(e).char_length(dec_in[i], 0) != dec_in[i].size()) continue;
      if (!dec_pg.back().ok()) dec_pg.back().offset = 0;
      one_in.push_back(dec_in[i]);
      one_pg.push_back(dec_pg.back());
    }
    for (std::size_t i = 0; i < a.enc_inputs.size(); ++i) {
      enc_in.push_back(harness::utf8(a.enc_inputs[i]));
      enc_pg.push_back(oracle::to_outcome(a.encd[i]));
      if (!enc_pg.back().ok()) enc_pg.back().offset = 0;
    }
    for (std::size_t i = 0; i < a.pair_inputs.size(); ++i) {
      enc_in.push_back(harness::utf8(a.pair_inputs[i].first) + harness::utf8(a.pair_inputs[i].second));
      enc_pg.push_back(oracle::to_outcome(a.pairs[i]));
    }
    rep.decode_inputs = dec_in.size();
    rep.encode_inputs = enc_in.size();
    rep.policy_answers = a.policy_answers;

    // 1. pgcodec's own paths must give the server's answers exactly.
    progress.step(Step::CheckPgcodec);
    std::vector<std::unique_ptr<oracle::Reference>> selves;
    selves.push_back(oracle::pgcodec_cached(e));
    selves.push_back(oracle::pgcodec_by_name(e));
    selves.push_back(oracle::pgcodec_tables(e));
    std::vector<Outcome> got;
    for (auto& self : selves) {
      for (Direction d : {Direction::Decode, Direction::Encode}) {
        // The tables reference has convert()'s semantics, which copy
        // SQL_ASCII bytes unvalidated; the client path validates them.
        if (self->name() == "pgcodec-tables" && e == Encoding::SQL_ASCII && d == Direction::Decode) continue;
        // The tables path has convert()'s semantics and answers for every
        // enumerated input; the client-path ones (cached, by-name) for single
        // characters here and for whole strings in step 2.
        const bool all = self->name() == "pgcodec-tables";
        const auto& in = d == Direction::Encode ? enc_in : all ? dec_in : one_in;
        const auto& pg = d == Direction::Encode ? enc_pg : all ? dec_pg : one_pg;
        self->run(d, in, got);
        for (std::size_t i = 0; i < in.size(); ++i) {
          ++pg_checks;
          const Category c = classify(pg[i], got[i]);
          if (c == Category::Agree) continue;
          ++rep.postgres_differences;
          fail(e, mine,
               self->name() + " " + to_string(d) + " " + input_text(in[i], d) + ": PostgreSQL " +
                   outcome_text(pg[i], d) + ", pgcodec " + outcome_text(got[i], d) + " (" +
                   to_string(c) + ")",
               reproduce(e, d, in[i]));
        }
      }
    }

    // 2. Random strings on the client_encoding path (offsets inside strings).
    if (e != Encoding::MULE_INTERNAL && opt.strings) {
      progress.step(Step::CheckStrings);
      verify_strings(e, a, rep, mine);
    }

    // 2b. The driver's path: one live round with client_encoding = e (a UTF8
    //     database cannot serve MULE_INTERNAL clients).
    if (e != Encoding::MULE_INTERNAL) {
      progress.step(Step::LiveRoundTrip);
      live_round(e, mine);
    }

    // 3. PostgreSQL's own inconsistencies.
    progress.step(Step::FindInconsistencies);
    inconsistencies(e, a, enc_in, enc_pg, rep);

    // 4. The references, on single characters: every decode input that is
    //    one character by its lead byte, every code point and pair.
    std::vector<std::unique_ptr<oracle::Reference>> refs;
    std::vector<std::vector<std::string>> used_by;
    if (auto icu = oracle::icu_reference(e); icu && wanted_reference(opt, icu->name())) {
      refs.push_back(std::move(icu));
      used_by.emplace_back();
    }
    for (auto& choice : oracle::python_choices(e)) {
      auto py = oracle::python_reference(choice.codec);
      if (!wanted_reference(opt, py->name())) continue;
      refs.push_back(std::move(py));
      used_by.push_back(choice.used_by);
    }
    progress.step(Step::CompareReferences);
    for (std::size_t r = 0; r < refs.size(); ++r)
      rep.references.push_back(compare_reference(e, *refs[r], used_by[r], one_in, one_pg, enc_in, enc_pg, mine));
    return rep;
  }


  void verify_strings(Encoding e, const oracle::Answers& a, EncodingReport& rep, std::vector<Failure>& mine) {
    std::mt19937_64 rng(opt.seed * 1000003u + static_cast<std::uint64_t>(to_int(e)));
    harness::StringMaker dm, em;
    for (std::size_t i = 0; i < a.dec_inputs.size(); ++i) {
      const bool one = harness::single_char(e, a.dec_inputs[i]);
      if (a.dec[i].verdict == oracle::Verdict::Ok && one && a.dec_inputs[i].size() > 1)
        dm.good.push_back(a.dec_inputs[i]);
      else if (a.dec[i].verdict != oracle::Verdict::Ok && a.dec_inputs[i][0] != '\0')
        dm.bad.push_back(a.dec_inputs[i]);
    }
    if (dm.good.empty())  // single-byte encodings
      for (std::size_t i = 0; i < a.dec_inputs.size(); ++i)
        if (a.dec[i].verdict == oracle::Verdict::Ok && a.dec_inputs[i].size() == 1)
          dm.good.push_back(a.dec_inputs[i]);
    for (std::size_t i = 0; i < a.enc_inputs.size(); ++i)
      (a.encd[i].verdict == oracle::Verdict::Ok ? em.good : em.bad).push_back(harness::utf8(a.enc_inputs[i]));
    oracle::ClientPath client(server.conninfo(), e);
    for (Direction d : {Direction::Decode, Direction::Encode}) {
      const bool decoding = d == Direction::Decode;
      const auto strings = (decoding ? dm : em).make(rng, opt.strings, decoding);
      const auto pg = client.run(decoding, strings);
      std::vector<Outcome> got;
      for (auto make : {oracle::pgcodec_cached, oracle::pgcodec_by_name}) {
        auto self = make(e);
        self->run(d, strings, got);
        for (std::size_t i = 0; i < strings.size(); ++i) {
          ++string_checks;
          if (!pg[i].ok() && !pg[i].offset) ++unlocated_offsets;
          const Category c = classify(pg[i], got[i]);
          if (c == Category::Agree) continue;
          ++rep.postgres_differences;
          fail(e, mine,
               self->name() + " " + to_string(d) + " string " + hex_bytes(strings[i]) +
                   ": PostgreSQL (client path) " + outcome_text(pg[i], d) + " offset " +
                   (pg[i].offset ? std::to_string(*pg[i].offset) : "?") + ", pgcodec " +
                   outcome_text(got[i], d) + " offset " + (got[i].offset ? std::to_string(*got[i].offset) : "?") +
                   " (" + to_string(c) + (pg[i].message ? "; PostgreSQL says: " + *pg[i].message : "") + ")",
               reproduce(e, d, strings[i]));
        }
      }
      rep.strings += strings.size();
    }
  }

  // Every mismatch of the round is a failure; a fault (LiveFault) is not
  // about pgcodec and ends the run as an error.
  void live_round(Encoding e, std::vector<Failure>& mine) {
    oracle::LiveSession session(server.conninfo(), Encoding::UTF8, e);
    std::mt19937_64 rng(opt.seed * 1000003u + 7u + static_cast<std::uint64_t>(to_int(e)));
    oracle::LiveOptions lo;
    lo.writes = server.is_throwaway();
    lo.keep = opt.show;
    oracle::LiveReport report;
    session.round(rng, lo, report);
    live_checks += report.counts.round_trips;
    for (auto& m : report.mismatches)
      fail(e, mine,
           std::string("live ") + oracle::to_string(m.step) + " " + m.input + ": expected " + m.expected +
               ", got " + m.actual,
           m.reproduce + " (or: pgcodec live --server-encodings UTF8 --encodings " + std::string(info(e).name) +
               ")");
    if (report.counts.mismatches > report.mismatches.size())
      mine.push_back({std::string(info(e).name) + ": live: ... " +
                          std::to_string(report.counts.mismatches - report.mismatches.size()) + " more mismatches",
                      ""});
  }

  void inconsistencies(Encoding e, const oracle::Answers& a, const std::vector<std::string>& enc_in,
                       const std::vector<Outcome>& enc_pg, EncodingReport& rep) {
    // MULE_INTERNAL converts only through its members (its answers are
    // compositions, docs/mule-internal.md), so it has no direct SQL to show.
    if (e == Encoding::UTF8 || e == Encoding::SQL_ASCII || e == Encoding::MULE_INTERNAL) return;
    const Codec& cd = codec(e);
    for (std::size_t i = 0; i < enc_in.size(); ++i) {
      if (!enc_pg[i].ok()) continue;
      const Outcome back = pgcodec_outcome(cd, Direction::Decode, enc_pg[i].output);
      Inconsistency x;
      x.input = code_points_text(enc_in[i]);
      x.written = hex_bytes(enc_pg[i].output);
      x.sql = sql_for(e, Direction::Encode, enc_in[i]) + " " + sql_for(e, Direction::Decode, enc_pg[i].output);
      if (!back.ok()) {
        x.read_back = kind_text(back);
        rep.unreadable.add(std::move(x));
      } else if (!converts_to(back, enc_in[i])) {
        x.read_back = code_points_text(back.output);
        rep.one_way.add(std::move(x));
      }
    }
    for (std::size_t i = 0; i < a.dec_inputs.size(); ++i) {
      if (a.dec[i].verdict != oracle::Verdict::Ok || !harness::single_char(e, a.dec_inputs[i])) continue;
      const std::string text(a.dec[i].output());
      const Outcome back = pgcodec_outcome(cd, Direction::Encode, text);
      if (converts_to(back, a.dec_inputs[i])) continue;
      Inconsistency x;
      x.input = hex_bytes(a.dec_inputs[i]);
      x.written = code_points_text(text);
      x.read_back = back.ok() ? hex_bytes(back.output) : "no-equivalent";
      x.sql = sql_for(e, Direction::Decode, a.dec_inputs[i]) + " " + sql_for(e, Direction::Encode, text);
      rep.many_to_one.add(std::move(x));
    }
  }

  // Holds `found` (one reference's divergences for `e`) to its registry
  // file, or rewrites the file with --update-registry. `tested` holds the
  // (direction, input) pairs a sample run asked about (empty: exhaustive);
  // `repro(input)` is the reproduction a failure shows.
  struct Tally {
    std::size_t unregistered = 0, stale = 0;
  };
  Tally check_registry(Encoding e, const RegistryFile& found, const std::set<std::pair<Direction, std::string>>& tested,
                       std::vector<Failure>& mine, const std::function<std::string(const std::string&)>& repro) {
    Tally t;
    const std::string& name = found.reference;
    const std::string path = harness::registry_path(registry.dir, e, name);
    if (opt.update_registry) {
      harness::write_registry(path, found, atlas.versions);
      return t;
    }
    RegistryFile reg;
    if (!harness::read_registry(path, reg)) {
      fail(e, mine, name + ": no registry file " + path, update_hint());
      ++unregistered;
      ++t.unregistered;
      return t;
    }
    const RegistryCheck check(reg.rows);
    // In a sample run only the sampled inputs' rows can go stale.
    RegistryCheck::Tested was_tested;
    if (opt.sample)
      was_tested = [&](Direction d, const std::string& in) { return tested.count({d, in}) > 0; };
    std::size_t shown = 0;
    for (auto& r : found.rows)
      if (!check.registered(r)) {
        ++unregistered;
        ++t.unregistered;
        if (shown++ < opt.show)
          fail(e, mine,
               name + " unregistered divergence: " + to_string(r.direction) + " " + r.input + ": " +
                   (found.target.empty() ? "PostgreSQL " : "direct ") + r.postgres + ", " +
                   (found.target.empty() ? name : std::string("through UTF-8")) + " " + r.reference + " (" +
                   to_string(r.category) + ")",
               repro(r.input));
      }
    for (auto& k : check.stale(found.rows, was_tested)) {
      ++stale;
      ++t.stale;
      const auto t1 = k.find('\t'), t2 = k.find('\t', t1 + 1);
      if (shown++ < opt.show)
        fail(e, mine, name + " stale registry row (no longer diverges so): " + k, repro(k.substr(t1 + 1, t2 - t1 - 1)));
    }
    if (shown > opt.show)
      mine.push_back({std::string(info(e).name) + ": " + name + ": ... " +
                          std::to_string(shown - opt.show) + " more registry mismatches",
                      ""});
    return t;
  }

  ReferenceReport compare_reference(Encoding e, oracle::Reference& ref, const std::vector<std::string>& used_by,
                                    const std::vector<std::string>& dec_in, const std::vector<Outcome>& dec_pg,
                                    const std::vector<std::string>& enc_in, const std::vector<Outcome>& enc_pg,
                                    std::vector<Failure>& mine) {
    ReferenceReport rr;
    rr.name = ref.name();
    rr.used_by = used_by;
    RegistryFile found{std::string(info(e).name), rr.name, {}};
    std::set<std::pair<Direction, std::string>> tested;  // (direction, input) in sample runs
    std::vector<Outcome> got, enc_got;
    for (Direction d : {Direction::Decode, Direction::Encode}) {
      const auto& in = d == Direction::Decode ? dec_in : enc_in;
      const auto& pg = d == Direction::Decode ? dec_pg : enc_pg;
      auto& out = d == Direction::Decode ? got : enc_got;
      ref.run(d, in, out);
      (d == Direction::Decode ? rr.decode_inputs : rr.encode_inputs) = in.size();
      for (std::size_t i = 0; i < in.size(); ++i) {
        const Category c = classify(pg[i], out[i]);
        if (opt.sample) tested.emplace(d, input_text(in[i], d));
        if (c == Category::Agree) continue;
        if (d == Direction::Decode && in[i] == std::string(1, '\0') && c == Category::OnlyActual)
          rr.reads_nul = true;
        RegistryRow row{d, input_text(in[i], d), outcome_text(pg[i], d), outcome_text(out[i], d), c,
                        explain(e, d, in[i], pg[i], c)};
        rr.count(c, d);
        auto& examples = rr.examples[to_string(c)];
        if (examples.size() < 3) examples.push_back(row);
        found.rows.push_back(std::move(row));
      }
    }
    // Does the driver read what PostgreSQL writes, and write what it reads?
    // PostgreSQL's own one-way writes (bytes it reads back as another
    // character, or rejects) are set aside: no codec can undo them.
    const Codec& cd = codec(e);
    auto ascii_case = [&rr](const std::string& ch, const std::string& text) {
      if (ch.size() != 1 || static_cast<unsigned char>(ch[0]) >= 0x80) return;
      if (rr.ascii_examples.size() < 5) rr.ascii_examples.push_back(text);
      ++rr.ascii_wrong;
    };
    std::vector<std::string> pg_written;
    std::vector<std::size_t> which;
    std::vector<char> pg_own(enc_in.size(), 0);
    for (std::size_t i = 0; i < enc_in.size(); ++i)
      if (enc_pg[i].ok()) {
        pg_written.push_back(enc_pg[i].output);
        which.push_back(i);
        pg_own[i] = !converts_to(pgcodec_outcome(cd, Direction::Decode, enc_pg[i].output), enc_in[i]);
      }
    std::vector<Outcome> read;
    ref.run(Direction::Decode, pg_written, read);
    rr.reads_total = pg_written.size();
    for (std::size_t k = 0; k < read.size(); ++k) {
      if (pg_own[which[k]]) {
        ++rr.reads_postgres_own;
        continue;
      }
      if (converts_to(read[k], enc_in[which[k]])) continue;
      const std::string text = hex_bytes(pg_written[k]) + " (PostgreSQL's " + code_points_text(enc_in[which[k]]) +
                               ") -> " + outcome_text(read[k], Direction::Decode);
      if (rr.read_examples.size() < 5) rr.read_examples.push_back(text);
      ascii_case(enc_in[which[k]], "reads " + text);
      ++rr.reads_wrong;
    }
    // A write counts when PostgreSQL stores another character, or rejects
    // bytes for a character it has; writing PostgreSQL's own one-way bytes,
    // or bytes it rejects for a character it has no equivalent for (as it
    // would reject any codec's), is set aside.
    // A refusal counts too: the codec fails to write a character PostgreSQL
    // writes and reads back as itself (Python's shift_jis refuses U+2460,
    // which PostgreSQL's SJIS writes as 87 40): the driver cannot send it.
    for (std::size_t i = 0; i < enc_in.size(); ++i) {
      if (!enc_got[i].ok()) {
        if (!enc_pg[i].ok() || pg_own[i]) continue;
        ++rr.writes_total;
        const std::string text = code_points_text(enc_in[i]) + " -> refused (PostgreSQL writes " +
                                 hex_bytes(enc_pg[i].output) + ")";
        if (rr.write_examples.size() < 5) rr.write_examples.push_back(text);
        ascii_case(enc_in[i], "writes " + text);
        ++rr.writes_wrong;
        ++rr.writes_refused;
        continue;
      }
      ++rr.writes_total;
      const Outcome back = pgcodec_outcome(cd, Direction::Decode, enc_got[i].output);
      if (converts_to(back, enc_in[i])) continue;
      if (enc_pg[i].ok() && pg_own[i] && enc_got[i].output == enc_pg[i].output) {
        ++rr.writes_postgres_own;
        continue;
      }
      if (!back.ok() && !enc_pg[i].ok()) {
        ++rr.writes_rejected_anyway;
        continue;
      }
      const std::string text = code_points_text(enc_in[i]) + " -> " + hex_bytes(enc_got[i].output) +
                               " -> PostgreSQL " + (back.ok() ? code_points_text(back.output) : kind_text(back));
      if (rr.write_examples.size() < 5) rr.write_examples.push_back(text);
      ascii_case(enc_in[i], "writes " + text);
      ++rr.writes_wrong;
    }

    // The registry: exactly these rows.
    const auto t = check_registry(e, found, tested, mine, [&](const std::string&) {
      return "pgcodec verify --encodings " + std::string(info(e).name) + " --references " + rr.name;
    });
    rr.unregistered = t.unregistered;
    rr.stale = t.stale;
    rr.divergences = found.rows.size();
    return rr;
  }

  // PostgreSQL's direct conversions from the selected encodings against
  // going through UTF-8: every difference is PostgreSQL's own, and must be a
  // row of <FROM>.postgres-direct-<TO>.tsv.
  void compare_direct(const std::vector<Encoding>& list) {
    auto selected = [&](Encoding e) { return std::find(list.begin(), list.end(), e) != list.end(); };
    std::vector<oracle::LeftOut> left_out;
    std::vector<oracle::DirectPair> pairs;
    for (auto& p : oracle::direct_conversions(server.conninfo(), &left_out))
      if (selected(p.from) && wanted_reference(opt, direct_reference(p))) pairs.push_back(p);
    std::map<std::string, std::string> left_by_why;  // why -> "A -> B, C -> D"
    for (auto& l : left_out)
      if (selected(l.pair.from)) {
        auto& names = left_by_why[l.why];
        names += (names.empty() ? "" : ", ") + oracle::to_string(l.pair);
      }
    for (auto& [why, names] : left_by_why) atlas.direct_left_out.push_back(names + ": " + why);
    const auto t0 = Clock::now();
    std::size_t inputs = 0, differences = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const oracle::DirectPair p = pairs[i];
      const auto t1 = Clock::now();
      progress.index = i + 1;
      progress.count = pairs.size();
      progress.encoding = p.from;
      progress.step(Step::CompareDirect);
      std::vector<std::string> in = oracle::direct_inputs(p.from);
      if (opt.sample && in.size() > opt.sample) {
        std::mt19937_64 rng(opt.seed * 1000003u + static_cast<std::uint64_t>(to_int(p.from) * 64 + to_int(p.to)));
        std::shuffle(in.begin(), in.end(), rng);
        in.resize(opt.sample);
        std::sort(in.begin(), in.end());
      }
      const oracle::DirectComparison cmp = oracle::compare_direct(pool, p, in);
      DirectReport rep;
      rep.from = info(p.from).name;
      rep.to = info(p.to).name;
      rep.reference = direct_reference(p);
      rep.inputs = cmp.inputs;
      rep.differences = cmp.differences.size();
      RegistryFile found{rep.from, rep.reference, {}, rep.to, {}};
      std::set<std::pair<Direction, std::string>> tested;
      if (opt.sample)
        for (auto& x : in) tested.emplace(Direction::Decode, hex_bytes(x));
      std::map<std::pair<Category, std::string>, std::size_t> group_of;
      for (auto& d : cmp.differences) {
        RegistryRow row{Direction::Decode, hex_bytes(d.input), harness::transcoded_text(d.direct, d.direct_reads),
                        harness::transcoded_text(d.via_utf8, d.via_reads), d.category, oracle::explain_direct(cmp, d)};
        const std::string sql = oracle::direct_sql(p, d.input);
        found.group_sql.emplace(row.note, sql);
        auto [it, fresh] = group_of.emplace(std::pair{d.category, row.note}, rep.groups.size());
        if (fresh) rep.groups.push_back({to_string(d.category), row.note, 0, {}});
        DirectGroup& g = rep.groups[it->second];
        if (g.count++ < 3) g.examples.push_back({row.input, row.postgres, row.reference, sql});
        found.rows.push_back(std::move(row));
      }
      std::vector<Failure> mine;
      const auto t = check_registry(p.from, found, tested, mine, [&](const std::string& input) {
        std::string bytes;
        for (std::size_t k = 0; k < input.size(); k += 3)
          bytes.push_back(static_cast<char>(std::stoul(input.substr(k, 2), nullptr, 16)));
        return oracle::direct_sql(p, bytes);
      });
      rep.unregistered = t.unregistered;
      rep.stale = t.stale;
      inputs += rep.inputs;
      differences += rep.differences;
      std::ostringstream line;
      line << oracle::to_string(p) << " (direct): " << rep.inputs << " characters; " << rep.differences
           << " differ from going through UTF-8 (PostgreSQL's own inconsistency)";
      if (t.unregistered || t.stale) line << "; " << t.unregistered << " unregistered, " << t.stale << " stale";
      line << " (" << static_cast<int>(since(t1) * 10) / 10.0 << " s)";
      progress.line(line.str());
      for (std::size_t k = 0; k < mine.size() && k < opt.show * 3; ++k)
        progress.line("  FAIL " + mine[k].what + (mine[k].command.empty() ? "" : "\n       reproduce: " + mine[k].command));
      failures.insert(failures.end(), mine.begin(), mine.end());
      atlas.direct.push_back(std::move(rep));
    }
    if (!pairs.empty())
      progress.line("pgcodec verify: " + std::to_string(pairs.size()) + " direct conversions, " +
                    std::to_string(inputs) + " characters, " + std::to_string(differences) +
                    " differences from going through UTF-8 (" + std::to_string(static_cast<int>(since(t0))) + " s)");
    for (auto& l : atlas.direct_left_out) progress.line("pgcodec verify: left out " + l);
  }

  static std::string direct_reference(oracle::DirectPair p) {
    return "postgres-direct-" + std::string(info(p.to).name);
  }
};


std::string python_version() {
  oracle::python_codec_name("utf-8");  // starts the interpreter
  return oracle::python_version_string();
}

}  // namespace

int run_verify(const VerifyOptions& opt) {
  if (opt.render_atlas) {
    render_atlas(*opt.render_atlas);
    const std::string done = "pgcodec verify: atlas.md and index.html rendered from " + *opt.render_atlas + "/atlas.json";
    if (opt.on_line)
      opt.on_line(done);
    else
      std::cerr << done << "\n";
    return 0;
  }
  const auto t0 = Clock::now();
  if (opt.update_registry && opt.sample)
    throw std::runtime_error("--update-registry needs an exhaustive run (drop --sample)");
  const RegistryLocation where =
      opt.registry ? RegistryLocation{*opt.registry, false} : locate_registry();
  if (opt.update_registry && where.installed)
    throw std::runtime_error("the registry found, " + where.dir +
                             ", is an installed copy; --update-registry needs --registry naming a "
                             "source checkout's corpus/divergences");
  Verifier v(opt, where);
  std::vector<Encoding> list = opt.encodings;
  if (list.empty())
    for (auto& i : encodings()) list.push_back(i.id);
  v.atlas.versions = "PostgreSQL " + v.pool.server_version().substr(0, v.pool.server_version().find(' ')) +
                     ", ICU " + U_ICU_VERSION + ", Python " + python_version();
  // Only direct conversions asked for: the per-encoding steps have nothing to do.
  const bool direct_only =
      !opt.references.empty() && std::all_of(opt.references.begin(), opt.references.end(),
                                             [](const std::string& r) { return r.starts_with("postgres-direct"); });
  const std::size_t direct_weight = 4;
  v.progress.total_weight = direct_weight;
  if (!direct_only)
    for (auto e : list) v.progress.total_weight += weight(e);
  v.progress.line("pgcodec verify: " + std::to_string(list.size()) + " encodings, " +
                  (opt.sample ? "a sample of " + std::to_string(opt.sample) + " inputs per direction"
                              : std::string("every enumerated input")) +
                  ", " + std::to_string(opt.strings) + " strings per direction; " + v.atlas.versions +
                  (v.server.is_throwaway() ? " (throwaway server)" : ""));

  // The server works on the next encoding while this thread compares.
  const std::vector<Encoding> per_encoding = direct_only ? std::vector<Encoding>{} : list;
  auto launch = [&](std::size_t i) {
    return std::async(std::launch::async, [&v, e = per_encoding[i], &opt] { return v.probe(e, opt.seed + static_cast<std::uint64_t>(to_int(e))); });
  };
  std::future<oracle::Answers> next;
  if (!per_encoding.empty()) next = launch(0);
  for (std::size_t i = 0; i < per_encoding.size(); ++i) {
    const Encoding e = per_encoding[i];
    v.progress.index = i + 1;
    v.progress.count = per_encoding.size();
    v.progress.encoding = e;
    v.progress.step(Step::ProbeServer);
    const auto t1 = Clock::now();
    oracle::Answers a = next.get();
    if (i + 1 < per_encoding.size()) next = launch(i + 1);
    std::vector<Failure> mine;
    EncodingReport rep = v.verify(e, a, mine);
    std::ostringstream line;
    line << info(e).name << ": " << rep.decode_inputs << " byte sequences, " << rep.encode_inputs
         << " code points, " << rep.strings << " strings; PostgreSQL differences " << rep.postgres_differences;
    for (auto& r : rep.references) line << "; " << r.name << " " << r.divergences;
    line << " (" << static_cast<int>(since(t1) * 10) / 10.0 << " s)";
    v.progress.done_weight += weight(e);
    v.progress.line(line.str());
    std::size_t shown = 0;
    for (auto& f : mine) {
      if (shown++ >= opt.show * 3) break;
      v.progress.line("  FAIL " + f.what + (f.command.empty() ? "" : "\n       reproduce: " + f.command));
    }
    if (mine.size() > shown) v.progress.line("  ... " + std::to_string(mine.size() - shown) + " more");
    v.failures.insert(v.failures.end(), mine.begin(), mine.end());
    v.atlas.encodings.push_back(std::move(rep));
  }

  v.compare_direct(list);
  v.progress.done_weight += direct_weight;

  // Summary.
  const bool full = !opt.sample && opt.encodings.empty() && opt.references.empty();
  std::string table = v.atlas.summary_table();
  if (!table.empty() && table.back() == '\n') table.pop_back();
  v.progress.line("\n" + table);
  std::ostringstream summary;
  summary << "pgcodec verify: " << v.pg_checks << " single-character checks and " << v.string_checks
          << " string checks against PostgreSQL, " << v.live_checks << " live round trips; " << v.unlocated_offsets
          << " string errors whose offset the server's message could not place; " << v.unregistered
          << " unregistered and " << v.stale << " stale divergences; " << v.failures.size() << " failures; "
          << static_cast<int>(since(t0)) << " s";
  v.progress.line(summary.str());
  if (v.unregistered || v.stale)
    v.progress.line("pgcodec verify: registry " + v.registry.dir +
                    "; if the differences are intended, update it with: " + v.update_hint());
  const std::string out = opt.out ? *opt.out : full ? "docs/atlas" : "";
  if (!out.empty()) {
    v.progress.step(Step::WriteAtlas);
    v.atlas.write(out);
    v.progress.line("pgcodec verify: atlas written to " + out + "/ (atlas.md, atlas.json, index.html)");
  }
  if (opt.update_registry) v.progress.line("pgcodec verify: registry rewritten in " + v.registry.dir + "/");
  return v.failures.empty() ? 0 : 1;
}

}  // namespace pgcodec::verifier
