// pgcodec verify: for each encoding, ask the server about every enumerated
// input (all single characters both ways, plus random strings on the
// client_encoding path), hold pgcodec's three paths to exactly those answers,
// compare ICU and Python's codecs with them, and check the differences
// against the divergence registry.
#include "verifier/verify.hpp"

#include <unistd.h>

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

#include "verifier/atlas.hpp"
#include "oracle/postgres.hpp"
#include "oracle/python.hpp"
#include "oracle/temp_server.hpp"
#include "pgcodec/codec.hpp"

namespace pgcodec::cli {
namespace {

using oracle::Category;
using oracle::Direction;
using oracle::Outcome;
using oracle::OutcomeKind;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string input_text(const std::string& in, Direction d) {
  return d == Direction::Decode ? oracle::hex_bytes(in) : oracle::code_points_text(in);
}

// Each byte as two hex digits, each preceded by `each` (\x for printf).
std::string hex(const std::string& in, const char* each) {
  std::string s;
  char buf[8];
  for (char c : in) {
    std::snprintf(buf, sizeof buf, "%s%02x", each, static_cast<unsigned char>(c));
    s += buf;
  }
  return s;
}

// A command that shows pgcodec's answer for one input.
std::string reproduce(Encoding e, Direction d, const std::string& in) {
  const std::string name(info(e).name);
  return "printf '" + hex(in, "\\x") + "' | pgcodec convert " +
         (d == Direction::Decode ? "-f " + name + " -t UTF8" : "-f UTF8 -t " + name);
}

// The SQL that shows PostgreSQL's answer for one single-character input.
std::string sql_for(Encoding e, Direction d, const std::string& in) {
  const std::string name(info(e).name), bytes = "'\\x" + hex(in, "") + "'::bytea";
  return d == Direction::Decode ? "SELECT convert(" + bytes + ", '" + name + "', 'UTF8');"
                                : "SELECT convert(" + bytes + ", 'UTF8', '" + name + "');";
}

// The explanation of a divergence's group, derived from what PostgreSQL
// itself does with the input (pgcodec, proven equal to the server on every
// enumerated input in the same run, answers the reverse question).
std::string explain(Encoding e, Direction d, const std::string& input, const Outcome& pg,
                    Category c) {
  const Codec& cd = codec(e);
  if (pg.ok() && e != Encoding::UTF8 && e != Encoding::SQL_ASCII) {
    if (d == Direction::Encode) {
      std::string back;
      try {
        back = cd.decode(pg.output);
      } catch (const ConversionError&) {
        return "PostgreSQL defect: it writes bytes that it rejects when reading them";
      }
      if (back != input) return "one-way mapping: PostgreSQL reads these bytes back as another character";
    } else {
      std::string back;
      try {
        back = cd.encode(pg.output);
      } catch (const ConversionError&) {
        back.clear();
      }
      if (back != input)
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
    case Category::Agree: break;
  }
  return "";
}

// ---------------------------------------------------------------------------

struct Progress {
  bool tty = isatty(2) != 0;
  std::size_t total_weight = 0, done_weight = 0;
  Clock::time_point t0 = Clock::now();
  void show(std::size_t index, std::size_t count, const std::string& what) {
    const double frac = total_weight ? static_cast<double>(done_weight) / static_cast<double>(total_weight) : 0;
    const int secs = static_cast<int>(since(t0));
    char head[96];
    std::snprintf(head, sizeof head, "%3d%% [%zu/%zu] %02d:%02d ", static_cast<int>(frac * 100), index,
                  count, secs / 60, secs % 60);
    if (tty) {
      const int width = 30, filled = static_cast<int>(frac * width);
      std::cerr << "\r\033[K" << head << "[" << std::string(static_cast<std::size_t>(filled), '#')
                << std::string(static_cast<std::size_t>(width - filled), '.') << "] " << what << std::flush;
    } else {
      std::cerr << "pgcodec verify: " << head << what << "\n";
    }
  }
  void line(const std::string& s) {
    if (tty) std::cerr << "\r\033[K";
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

// Random multi-character strings with errors at random places, built from
// what the server said about single characters.
struct StringMaker {
  std::vector<std::string> good, bad;  // characters that convert / that fail
  // Encode strings stay valid UTF-8 (the client path never carries
  // anything else); decode strings are now and then cut short.
  std::vector<std::string> make(std::mt19937_64& rng, std::size_t n, bool cut) const {
    std::vector<std::string> out;
    if (good.empty()) return out;
    std::uniform_int_distribution<std::size_t> len(1, 24), pick_good(0, good.size() - 1);
    std::uniform_int_distribution<int> pct(0, 99);
    for (std::size_t i = 0; i < n; ++i) {
      std::string s;
      const std::size_t chars = len(rng);
      for (std::size_t k = 0; k < chars; ++k) {
        if (!bad.empty() && pct(rng) < 6) {
          s += bad[std::uniform_int_distribution<std::size_t>(0, bad.size() - 1)(rng)];
        } else if (pct(rng) < 25) {
          s.push_back(static_cast<char>(std::uniform_int_distribution<int>(0x20, 0x7E)(rng)));
        } else {
          s += good[pick_good(rng)];
        }
      }
      // Now and then cut the last character short.
      if (cut && pct(rng) < 10 && s.size() > 1) s.pop_back();
      out.push_back(std::move(s));
    }
    return out;
  }
};

struct Verifier {
  const VerifyOptions& opt;
  oracle::ServerLease server;
  oracle::ProbePool pool;
  Progress progress;
  std::vector<Failure> failures;
  Atlas atlas;
  std::size_t pg_checks = 0, string_checks = 0, unlocated_offsets = 0;
  std::size_t unregistered = 0, stale = 0;
  std::vector<std::uint32_t> all_cps = oracle::all_code_points();

  explicit Verifier(const VerifyOptions& o) : opt(o), server(o.dsn), pool(server.conninfo(), o.jobs) {}

  oracle::Answers probe(Encoding e, std::uint64_t seed) {
    std::vector<std::uint32_t> cps = all_cps;
    std::vector<std::string> dec = oracle::decode_candidates(e);
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
      dec_pg.back().offset_known = !dec_pg.back().ok();
      one_in.push_back(dec_in[i]);
      one_pg.push_back(dec_pg.back());
    }
    for (std::size_t i = 0; i < a.enc_inputs.size(); ++i) {
      enc_in.push_back(oracle::utf8(a.enc_inputs[i]));
      enc_pg.push_back(oracle::to_outcome(a.encd[i]));
      enc_pg.back().offset_known = !enc_pg.back().ok();
    }
    for (std::size_t i = 0; i < a.pair_inputs.size(); ++i) {
      enc_in.push_back(oracle::utf8(a.pair_inputs[i].first) + oracle::utf8(a.pair_inputs[i].second));
      enc_pg.push_back(oracle::to_outcome(a.pairs[i]));
    }
    rep.decode_inputs = dec_in.size();
    rep.encode_inputs = enc_in.size();
    rep.policy_answers = a.policy_answers;

    // 1. pgcodec's own paths must give the server's answers exactly.
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
          const Category c = oracle::classify(pg[i], got[i]);
          if (c == Category::Agree) continue;
          ++rep.postgres_differences;
          fail(e, mine,
               self->name() + " " + oracle::to_string(d) + " " + input_text(in[i], d) + ": PostgreSQL " +
                   outcome_text(pg[i], d) + ", pgcodec " + outcome_text(got[i], d) + " (" +
                   oracle::to_string(c) + ")",
               reproduce(e, d, in[i]));
        }
      }
    }

    // 2. Random strings on the client_encoding path (offsets inside strings).
    if (e != Encoding::MULE_INTERNAL && opt.strings) verify_strings(e, a, rep, mine);

    // 3. PostgreSQL's own inconsistencies.
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
    for (std::size_t r = 0; r < refs.size(); ++r)
      rep.references.push_back(compare_reference(e, *refs[r], used_by[r], one_in, one_pg, enc_in, enc_pg, mine));
    return rep;
  }


  void verify_strings(Encoding e, const oracle::Answers& a, EncodingReport& rep, std::vector<Failure>& mine) {
    std::mt19937_64 rng(opt.seed * 1000003u + static_cast<std::uint64_t>(to_int(e)));
    StringMaker dm, em;
    for (std::size_t i = 0; i < a.dec_inputs.size(); ++i) {
      const bool one = oracle::single_char(e, a.dec_inputs[i]);
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
      (a.encd[i].verdict == oracle::Verdict::Ok ? em.good : em.bad).push_back(oracle::utf8(a.enc_inputs[i]));
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
          if (!pg[i].ok() && !pg[i].offset_known) ++unlocated_offsets;
          const Category c = oracle::classify(pg[i], got[i]);
          if (c == Category::Agree) continue;
          ++rep.postgres_differences;
          fail(e, mine,
               self->name() + " " + oracle::to_string(d) + " string " + oracle::hex_bytes(strings[i]) +
                   ": PostgreSQL (client path) " + outcome_text(pg[i], d) + " offset " +
                   (pg[i].offset_known ? std::to_string(pg[i].offset) : "?") + ", pgcodec " +
                   outcome_text(got[i], d) + " offset " + std::to_string(got[i].offset),
               reproduce(e, d, strings[i]));
        }
      }
      rep.strings += strings.size();
    }
  }

  void inconsistencies(Encoding e, const oracle::Answers& a, const std::vector<std::string>& enc_in,
                       const std::vector<Outcome>& enc_pg, EncodingReport& rep) {
    // MULE_INTERNAL converts only through its members (its answers are
    // compositions, docs/mule-internal.md), so it has no direct SQL to show.
    if (e == Encoding::UTF8 || e == Encoding::SQL_ASCII || e == Encoding::MULE_INTERNAL) return;
    const Codec& cd = codec(e);
    std::vector<char> buf(64);
    for (std::size_t i = 0; i < enc_in.size(); ++i) {
      if (!enc_pg[i].ok()) continue;
      const Result r = cd.decode(enc_pg[i].output, buf);
      Inconsistency x;
      x.input = oracle::code_points_text(enc_in[i]);
      x.written = oracle::hex_bytes(enc_pg[i].output);
      x.sql = sql_for(e, Direction::Encode, enc_in[i]) + " " + sql_for(e, Direction::Decode, enc_pg[i].output);
      if (!r.ok()) {
        x.read_back = r.error.kind == ErrorKind::InvalidByteSequence ? "invalid" : "no-equivalent";
        rep.unreadable.add(std::move(x));
      } else if (std::string_view(buf.data(), r.written) != enc_in[i]) {
        x.read_back = oracle::code_points_text(std::string(buf.data(), r.written));
        rep.one_way.add(std::move(x));
      }
    }
    for (std::size_t i = 0; i < a.dec_inputs.size(); ++i) {
      if (a.dec[i].verdict != oracle::Verdict::Ok || !oracle::single_char(e, a.dec_inputs[i])) continue;
      const std::string text(a.dec[i].output());
      const Result r = cd.encode(text, buf);
      if (r.ok() && std::string_view(buf.data(), r.written) == a.dec_inputs[i]) continue;
      Inconsistency x;
      x.input = oracle::hex_bytes(a.dec_inputs[i]);
      x.written = oracle::code_points_text(text);
      x.read_back = r.ok() ? oracle::hex_bytes(std::string(buf.data(), r.written)) : "no-equivalent";
      x.sql = sql_for(e, Direction::Decode, a.dec_inputs[i]) + " " + sql_for(e, Direction::Encode, text);
      rep.many_to_one.add(std::move(x));
    }
  }

  ReferenceReport compare_reference(Encoding e, oracle::Reference& ref, const std::vector<std::string>& used_by,
                                    const std::vector<std::string>& dec_in, const std::vector<Outcome>& dec_pg,
                                    const std::vector<std::string>& enc_in, const std::vector<Outcome>& enc_pg,
                                    std::vector<Failure>& mine) {
    ReferenceReport rr;
    rr.name = ref.name();
    rr.used_by = used_by;
    RegistryFile found{std::string(info(e).name), rr.name, {}};
    std::set<std::pair<std::string, std::string>> tested;  // (direction, input) in sample runs
    std::vector<Outcome> got, enc_got;
    for (Direction d : {Direction::Decode, Direction::Encode}) {
      const auto& in = d == Direction::Decode ? dec_in : enc_in;
      const auto& pg = d == Direction::Decode ? dec_pg : enc_pg;
      auto& out = d == Direction::Decode ? got : enc_got;
      ref.run(d, in, out);
      (d == Direction::Decode ? rr.decode_inputs : rr.encode_inputs) = in.size();
      for (std::size_t i = 0; i < in.size(); ++i) {
        const Category c = oracle::classify(pg[i], out[i]);
        if (opt.sample) tested.emplace(oracle::to_string(d), input_text(in[i], d));
        if (c == Category::Agree) continue;
        RegistryRow row{oracle::to_string(d), input_text(in[i], d), outcome_text(pg[i], d),
                        outcome_text(out[i], d), oracle::to_string(c), explain(e, d, in[i], pg[i], c)};
        rr.count(c, d);
        if (rr.examples[row.category].size() < 3) rr.examples[row.category].push_back(row);
        found.rows.push_back(std::move(row));
      }
    }
    // Does the driver read what PostgreSQL writes, and write what it reads?
    std::vector<std::string> pg_written;
    std::vector<std::size_t> which;
    for (std::size_t i = 0; i < enc_in.size(); ++i)
      if (enc_pg[i].ok()) {
        pg_written.push_back(enc_pg[i].output);
        which.push_back(i);
      }
    std::vector<Outcome> read;
    ref.run(Direction::Decode, pg_written, read);
    rr.reads_total = pg_written.size();
    for (std::size_t k = 0; k < read.size(); ++k) {
      if (read[k].ok() && read[k].output == enc_in[which[k]]) continue;
      if (rr.read_examples.size() < 3)
        rr.read_examples.push_back(oracle::hex_bytes(pg_written[k]) + " (PostgreSQL's " +
                                   oracle::code_points_text(enc_in[which[k]]) + ") -> " +
                                   outcome_text(read[k], Direction::Decode));
      ++rr.reads_wrong;
    }
    const Codec& cd = codec(e);
    std::vector<char> buf(64);
    for (std::size_t i = 0; i < enc_in.size(); ++i) {
      if (!enc_got[i].ok()) continue;
      ++rr.writes_total;
      const Result r = cd.decode(enc_got[i].output, buf);
      if (r.ok() && std::string_view(buf.data(), r.written) == enc_in[i]) continue;
      if (rr.write_examples.size() < 3)
        rr.write_examples.push_back(oracle::code_points_text(enc_in[i]) + " -> " +
                                    oracle::hex_bytes(enc_got[i].output) + " -> PostgreSQL " +
                                    (r.ok() ? oracle::code_points_text(std::string(buf.data(), r.written))
                                            : std::string(r.error.kind == ErrorKind::InvalidByteSequence
                                                              ? "invalid"
                                                              : "no-equivalent")));
      ++rr.writes_wrong;
    }

    // The registry: exactly these rows.
    const std::string path = registry_path(opt.registry, e, rr.name);
    if (opt.update_registry) {
      write_registry(path, found, atlas.versions);
      rr.divergences = found.rows.size();
      return rr;
    }
    RegistryFile reg;
    if (!read_registry(path, reg)) {
      fail(e, mine, rr.name + ": no registry file " + path, "pgcodec verify --update-registry");
      ++unregistered;
      rr.divergences = found.rows.size();
      return rr;
    }
    const RegistryCheck check(reg.rows);
    // In a sample run only the sampled inputs' rows can go stale.
    RegistryCheck::Tested was_tested;
    if (opt.sample)
      was_tested = [&](const std::string& d, const std::string& in) { return tested.count({d, in}) > 0; };
    std::size_t shown = 0;
    for (auto& r : found.rows)
      if (!check.registered(r)) {
        ++unregistered;
        ++rr.unregistered;
        if (shown++ < opt.show)
          fail(e, mine,
               rr.name + " unregistered divergence: " + r.direction + " " + r.input + ": PostgreSQL " +
                   r.postgres + ", " + rr.name + " " + r.reference + " (" + r.category + ")",
               "pgcodec verify --encodings " + std::string(info(e).name) + " --references " + rr.name);
      }
    for (auto& k : check.stale(found.rows, was_tested)) {
      ++stale;
      ++rr.stale;
      if (shown++ < opt.show)
        fail(e, mine, rr.name + " stale registry row (no longer diverges so): " + k,
             "pgcodec verify --encodings " + std::string(info(e).name) + " --references " + rr.name);
    }
    if (shown > opt.show)
      mine.push_back({std::string(info(e).name) + ": " + rr.name + ": ... " +
                          std::to_string(shown - opt.show) + " more registry mismatches",
                      ""});
    rr.divergences = found.rows.size();
    return rr;
  }
};

std::string python_version() {
  oracle::python_codec_name("utf-8");  // starts the interpreter
  return oracle::python_version_string();
}

}  // namespace

int run_verify(const VerifyOptions& opt) {
  const auto t0 = Clock::now();
  if (opt.update_registry && opt.sample)
    throw std::runtime_error("--update-registry needs an exhaustive run (drop --sample)");
  Verifier v(opt);
  std::vector<Encoding> list = opt.encodings;
  if (list.empty())
    for (auto& i : encodings()) list.push_back(i.id);
  v.atlas.versions = "PostgreSQL " + v.pool.server_version().substr(0, v.pool.server_version().find(' ')) +
                     ", ICU " + U_ICU_VERSION + ", Python " + python_version();
  v.progress.total_weight = 0;
  for (auto e : list) v.progress.total_weight += weight(e);
  v.progress.line("pgcodec verify: " + std::to_string(list.size()) + " encodings, " +
                  (opt.sample ? "a sample of " + std::to_string(opt.sample) + " inputs per direction"
                              : std::string("every enumerated input")) +
                  ", " + std::to_string(opt.strings) + " strings per direction; " + v.atlas.versions +
                  (v.server.is_throwaway() ? " (throwaway server)" : ""));

  // The server works on the next encoding while this thread compares.
  auto launch = [&](std::size_t i) {
    return std::async(std::launch::async, [&v, e = list[i], &opt] { return v.probe(e, opt.seed + static_cast<std::uint64_t>(to_int(e))); });
  };
  std::future<oracle::Answers> next = launch(0);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Encoding e = list[i];
    v.progress.show(i + 1, list.size(), std::string(info(e).name) + ": asking the server");
    const auto t1 = Clock::now();
    oracle::Answers a = next.get();
    if (i + 1 < list.size()) next = launch(i + 1);
    v.progress.show(i + 1, list.size(), std::string(info(e).name) + ": comparing");
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

  // Summary.
  const bool full = !opt.sample && opt.encodings.empty() && opt.references.empty();
  std::cerr << "\n" << v.atlas.summary_table();
  std::cerr << "pgcodec verify: " << v.pg_checks << " single-character checks and " << v.string_checks
            << " string checks against PostgreSQL; " << v.unlocated_offsets
            << " string errors whose offset the server's message could not place; " << v.unregistered
            << " unregistered and " << v.stale << " stale divergences; " << v.failures.size()
            << " failures; " << static_cast<int>(since(t0)) << " s\n";
  const std::string out = opt.out ? *opt.out : full ? "docs/atlas" : "";
  if (!out.empty()) {
    v.atlas.write(out);
    std::cerr << "pgcodec verify: atlas written to " << out << "/ (atlas.md, atlas.json, index.html)\n";
  }
  if (opt.update_registry) std::cerr << "pgcodec verify: registry rewritten in " << opt.registry << "/\n";
  return v.failures.empty() ? 0 : 1;
}

}  // namespace pgcodec::cli
