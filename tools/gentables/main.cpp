// pgcodec-gentables: derives the mapping tables from a PostgreSQL server.
//
// For every encoding it asks the server what every candidate byte sequence
// decodes to and what every code point encodes to, builds compact run tables
// from the answers, checks that the structural rules (src/verify.cpp) and the
// tables reproduce every answer, and writes src/tables/. With --check it
// compares the answers with the committed tables instead and lists every
// difference.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "detail/reference.hpp"
#include "detail/verify.hpp"
#include "oracle/temp_server.hpp"
#include "pgcodec/encoding.hpp"
#include "probe.hpp"
#include "tables.hpp"

namespace pgcodec::gen {
namespace {

using detail::Answer;
using detail::RefStatus;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string hex_bytes(std::string_view s) {
  std::string out;
  char buf[8];
  for (char c : s) {
    std::snprintf(buf, sizeof buf, "%s%02x", out.empty() ? "" : " ", static_cast<unsigned char>(c));
    out += buf;
  }
  return out.empty() ? "(empty)" : out;
}

std::string utf8(std::uint32_t cp) {
  std::string s;
  detail::append_utf8(s, cp);
  return s;
}

std::vector<std::uint32_t> code_points_of(std::string_view s) {
  std::vector<std::uint32_t> cps;
  for (std::size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    std::uint32_t c = n == 1 ? b : b & (0x7F >> n);
    for (int k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
    cps.push_back(c);
    i += static_cast<std::size_t>(n);
  }
  return cps;
}

std::string describe(const Answer& a, bool to_unicode) {
  switch (a.status) {
    case RefStatus::InvalidByteSequence: return "invalid byte sequence (22021)";
    case RefStatus::NoEquivalent: return "no equivalent (22P05)";
    case RefStatus::Ok: break;
  }
  if (!to_unicode) return "bytes " + hex_bytes(a.output);
  std::string s;
  for (auto cp : code_points_of(a.output)) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%sU+%04X", s.empty() ? "" : " ", cp);
    s += buf;
  }
  return s.empty() ? "(empty)" : s;
}

Answer to_answer(const Probe& p) {
  Answer a;
  a.status = p.verdict == Verdict::Ok        ? RefStatus::Ok
             : p.verdict == Verdict::Invalid ? RefStatus::InvalidByteSequence
                                             : RefStatus::NoEquivalent;
  if (a.status == RefStatus::Ok) a.output.assign(p.output());
  return a;
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
// Candidate inputs

std::vector<std::string> decode_candidates(Encoding e) {
  std::vector<std::string> c;
  auto push = [&](std::initializer_list<int> bytes) {
    std::string s;
    for (int b : bytes) s.push_back(static_cast<char>(b));
    c.push_back(std::move(s));
  };
  for (int b = 0; b < 0x100; ++b) push({b});
  for (int b1 = 0x80; b1 < 0x100; ++b1)
    for (int b2 = 0; b2 < 0x100; ++b2) push({b1, b2});
  switch (e) {
    case Encoding::EUC_JP:
    case Encoding::EUC_JIS_2004:
      for (int b2 = 0x80; b2 < 0x100; ++b2)
        for (int b3 = 0x80; b3 < 0x100; ++b3) push({0x8F, b2, b3});
      break;
    case Encoding::EUC_TW:
      for (int b2 = 0x80; b2 < 0x100; ++b2)
        for (int b3 = 0x80; b3 < 0x100; ++b3) push({0x8F, b2, b3});
      for (int b2 = 0x80; b2 < 0x100; ++b2)
        for (int b3 = 0x80; b3 < 0x100; ++b3)
          for (int b4 = 0x80; b4 < 0x100; ++b4) push({0x8E, b2, b3, b4});
      break;
    case Encoding::MULE_INTERNAL:  // the official two-byte sets and the private one-byte sets
      for (int b1 = 0x90; b1 <= 0x9B; ++b1)
        for (int b2 = 0x80; b2 < 0x100; ++b2)
          for (int b3 = 0x80; b3 < 0x100; ++b3) push({b1, b2, b3});
      break;
    case Encoding::GB18030:
      for (int b1 = 0x81; b1 <= 0xFE; ++b1)
        for (int b2 = 0x30; b2 <= 0x39; ++b2)
          for (int b3 = 0x81; b3 <= 0xFE; ++b3)
            for (int b4 = 0x30; b4 <= 0x39; ++b4) push({b1, b2, b3, b4});
      break;
    default:
      break;
  }
  return c;
}

// U+0001..U+10FFFF without the surrogates.
std::vector<std::uint32_t> all_code_points() {
  std::vector<std::uint32_t> v;
  v.reserve(0x10FFFF);
  for (std::uint32_t cp = 1; cp <= 0x10FFFF; ++cp)
    if (cp < 0xD800 || cp > 0xDFFF) v.push_back(cp);
  return v;
}

bool single_char(Encoding e, std::string_view s) {
  auto* p = reinterpret_cast<const unsigned char*>(s.data());
  return detail::verify_char(e, p, s.size()) == static_cast<int>(s.size());
}

// ---------------------------------------------------------------------------
// One encoding's answers

struct Answers {
  Encoding enc{};
  std::vector<std::string> dec_inputs;
  std::vector<Probe> dec;
  std::vector<std::uint32_t> enc_inputs;  // code points
  std::vector<Probe> encd;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pair_inputs;
  std::vector<Probe> pairs;
  // MULE_INTERNAL only: answers that are a policy of ours rather than the
  // server's (code points no member encoding has), see docs/mule-internal.md.
  std::size_t policy_answers = 0;
};

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
  BuiltTable partial = b.finish();
  for (std::size_t i = 0; i < a.pair_inputs.size(); ++i) {
    if (a.pairs[i].verdict != Verdict::Ok) continue;
    const auto [cp1, cp2] = a.pair_inputs[i];
    // Only a pair that encodes differently from its two halves needs an entry.
    const auto alone = detail::reference_encode(partial.view(), utf8(cp1) + utf8(cp2));
    if (alone.status == RefStatus::Ok && alone.output == a.pairs[i].output()) continue;
    const auto out = a.pairs[i].output();
    if (out.size() > 4) throw std::runtime_error("a pair encodes to more than 4 bytes");
    b.add_encode_pair(cp1, cp2, detail::code_of(out));
  }
  return b.finish();
}

Diffs compare(const Answers& a, const detail::MappingTable& t) {
  Diffs d;
  const std::string name(info(a.enc).name);
  for (std::size_t i = 0; i < a.dec_inputs.size(); ++i) {
    const Answer server = to_answer(a.dec[i]);
    const Answer ours = detail::reference_decode(t, a.dec_inputs[i]);
    if (server != ours)
      d.add("decode " + name + " " + hex_bytes(a.dec_inputs[i]) + ": server " +
            describe(server, true) + ", tables " + describe(ours, true));
  }
  for (std::size_t i = 0; i < a.enc_inputs.size(); ++i) {
    const Answer server = to_answer(a.encd[i]);
    const Answer ours = detail::reference_encode(t, utf8(a.enc_inputs[i]));
    if (server != ours) {
      char cp[16];
      std::snprintf(cp, sizeof cp, "U+%04X", a.enc_inputs[i]);
      d.add("encode " + name + " " + cp + ": server " + describe(server, false) + ", tables " +
            describe(ours, false));
    }
  }
  for (std::size_t i = 0; i < a.pair_inputs.size(); ++i) {
    const auto [cp1, cp2] = a.pair_inputs[i];
    const Answer server = to_answer(a.pairs[i]);
    const Answer ours = detail::reference_encode(t, utf8(cp1) + utf8(cp2));
    if (server != ours) {
      char cp[32];
      std::snprintf(cp, sizeof cp, "U+%04X U+%04X", cp1, cp2);
      d.add("encode " + name + " " + cp + ": server " + describe(server, false) + ", tables " +
            describe(ours, false));
    }
  }
  return d;
}

std::string chain_name(Encoding e) { return std::string(info(e).name); }

Answers probe_encoding(ProbePool& pool, Encoding e, const std::vector<std::uint32_t>& cps) {
  Answers a;
  a.enc = e;
  a.dec_inputs = decode_candidates(e);
  a.dec = pool.run({chain_name(e), "UTF8"}, a.dec_inputs.size(),
                   [&](std::size_t i) { return a.dec_inputs[i]; });
  a.enc_inputs = cps;
  a.encd = pool.run({"UTF8", chain_name(e)}, cps.size(), [&](std::size_t i) { return utf8(cps[i]); });
  // Characters that decode to two code points: does the pair encode back?
  for (std::size_t i = 0; i < a.dec_inputs.size(); ++i) {
    if (a.dec[i].verdict != Verdict::Ok || !single_char(e, a.dec_inputs[i])) continue;
    auto v = code_points_of(a.dec[i].output());
    if (v.size() == 2) a.pair_inputs.emplace_back(v[0], v[1]);
  }
  std::sort(a.pair_inputs.begin(), a.pair_inputs.end());
  a.pair_inputs.erase(std::unique(a.pair_inputs.begin(), a.pair_inputs.end()), a.pair_inputs.end());
  a.pairs = pool.run({"UTF8", chain_name(e)}, a.pair_inputs.size(), [&](std::size_t i) {
    return utf8(a.pair_inputs[i].first) + utf8(a.pair_inputs[i].second);
  });
  return a;
}

// ---------------------------------------------------------------------------
// MULE_INTERNAL: PostgreSQL converts it only to and from the encodings of its
// member character sets. Each MULE character is read through the member that
// owns its character set; a code point is written through the first member,
// in this order, that can encode it.
const Encoding kMuleMembers[] = {Encoding::LATIN1, Encoding::LATIN2, Encoding::LATIN3,
                                 Encoding::LATIN4, Encoding::KOI8R,  Encoding::EUC_JP,
                                 Encoding::EUC_CN, Encoding::EUC_KR, Encoding::EUC_TW};

// The character-set key of a MULE character: its leading byte, or for the
// private sets (0x9A..0x9D) the leading byte and the set byte after it.
std::uint32_t mule_charset(std::string_view s) {
  auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 >= 0x9A && b0 <= 0x9D && s.size() > 1)
    return (static_cast<std::uint32_t>(b0) << 8) | static_cast<unsigned char>(s[1]);
  return b0;
}

Answers probe_mule(ProbePool& pool, const std::map<Encoding, BuiltTable>& members,
                   const std::vector<std::uint32_t>& cps, std::ostream& log) {
  const Encoding mule = Encoding::MULE_INTERNAL;
  Answers a;
  a.enc = mule;
  // 1. Which member owns which character set: convert every character each
  //    member decodes into MULE and note the sets that come out.
  std::map<std::uint32_t, Encoding> owner;
  std::set<std::string> images;
  for (Encoding m : kMuleMembers) {
    auto chars = decoded_codes(members.at(m));
    auto r = pool.run({chain_name(m), "MULE_INTERNAL"}, chars.size(), [&](std::size_t i) {
      std::string s;
      detail::append_code(s, chars[i].first);
      return s;
    });
    std::size_t n = 0;
    for (auto& p : r) {
      if (p.verdict != Verdict::Ok || p.size == 0) continue;
      const std::string img(p.output());
      if (static_cast<unsigned char>(img[0]) < 0x80) continue;  // ASCII stays ASCII
      images.insert(img);
      owner.emplace(mule_charset(img), m);
      ++n;
    }
    log << "  MULE_INTERNAL: " << info(m).name << " reaches " << n << " MULE characters\n";
  }
  // 2. Decode candidates: every image, the one- to three-byte spaces, and
  //    the four-byte space of every private set seen (a sample of the rest).
  auto generic = decode_candidates(mule);
  std::set<std::string> cand(generic.begin(), generic.end());
  cand.insert(images.begin(), images.end());
  auto add = [&](std::initializer_list<int> bytes) {
    std::string s;
    for (int b : bytes) s.push_back(static_cast<char>(b));
    cand.insert(std::move(s));
  };
  for (int b1 = 0x9C; b1 <= 0x9D; ++b1)
    for (int b2 = 0x80; b2 < 0x100; ++b2) {
      const bool seen = owner.count((static_cast<std::uint32_t>(b1) << 8) | static_cast<std::uint32_t>(b2));
      for (int b3 = 0x80; b3 < 0x100; b3 += seen ? 1 : 0x1F)
        for (int b4 = 0x80; b4 < 0x100; b4 += seen ? 1 : 0x1F) add({b1, b2, b3, b4});
    }
  // Group by the chain each candidate goes through.
  std::map<int, std::vector<std::string>> groups;  // member id, or -1: no member
  for (auto& s : cand) {
    auto b0 = static_cast<unsigned char>(s[0]);
    int m = -1;
    if (b0 < 0x80)
      m = to_int(kMuleMembers[0]);
    else if (auto it = owner.find(mule_charset(s)); it != owner.end())
      m = to_int(it->second);
    groups[m].push_back(s);
  }
  for (auto& [m, inputs] : groups) {
    std::vector<std::string> chain = {"MULE_INTERNAL"};
    if (m >= 0) {
      chain.push_back(chain_name(static_cast<Encoding>(m)));
      chain.push_back("UTF8");
    } else {
      chain.push_back("MULE_INTERNAL");  // validation only
    }
    auto r = pool.run(chain, inputs.size(), [&](std::size_t i) { return inputs[i]; });
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      // Well formed, but no member encoding reads this character set; or
      // the member was handed bytes it cannot read (MULE -> EUC_JP turns
      // 89 80 into 8E 80, which EUC_JP's own verifier rejects): the MULE
      // character has no equivalent.
      if ((m < 0 && r[i].verdict == Verdict::Ok) || r[i].failed_step == 2) {
        r[i] = Probe{};
        r[i].verdict = Verdict::NoEquivalent;
        ++a.policy_answers;
      }
      a.dec_inputs.push_back(inputs[i]);
      a.dec.push_back(r[i]);
    }
  }
  // 3. Encoding: each code point through the first member that encodes it.
  std::map<int, std::vector<std::uint32_t>> by_member;
  std::vector<std::uint32_t> orphans;
  for (auto cp : cps) {
    bool found = false;
    for (Encoding m : kMuleMembers) {
      std::uint32_t code = 0;
      if (detail::lookup_encode(members.at(m).view(), cp, code)) {
        by_member[to_int(m)].push_back(cp);
        found = true;
        break;
      }
    }
    if (!found) orphans.push_back(cp);
  }
  for (auto& [m, list] : by_member) {
    auto r = pool.run({"UTF8", chain_name(static_cast<Encoding>(m)), "MULE_INTERNAL"}, list.size(),
                      [&](std::size_t i) { return utf8(list[i]); });
    for (std::size_t i = 0; i < list.size(); ++i) {
      // The member encodes the code point to bytes it then cannot convert
      // to MULE (UTF8 -> EUC_TW gives U+4E20 the plane-14 code 8E AE A2 E2,
      // which EUC_TW's own verifier rejects): no equivalent in MULE.
      if (r[i].failed_step == 2) {
        r[i] = Probe{};
        r[i].verdict = Verdict::NoEquivalent;
        ++a.policy_answers;
      }
      a.enc_inputs.push_back(list[i]);
      a.encd.push_back(r[i]);
    }
  }
  for (auto cp : orphans) {
    Probe p;
    p.verdict = Verdict::NoEquivalent;
    a.enc_inputs.push_back(cp);
    a.encd.push_back(p);
    ++a.policy_answers;
  }
  return a;
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
  std::string out_dir = "src/tables";
  bool check = false;
  std::optional<std::string> dsn;
  int jobs = 3;
  std::vector<std::string> only;
  app.add_option("--out", out_dir, "Directory to write the generated sources to")
      ->capture_default_str();
  app.add_flag("--check", check, "Compare with the compiled-in tables instead of writing");
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

  const auto t0 = Clock::now();
  oracle::ServerLease server(dsn);
  ProbePool pool(server.conninfo(), jobs);
  const std::string version = pool.server_version();
  std::cerr << "pgcodec-gentables: PostgreSQL " << version << ", " << jobs << " connections"
            << (server.is_throwaway() ? " (throwaway server)" : "") << "\n";

  const auto cps = all_code_points();
  std::map<Encoding, BuiltTable> built;
  std::size_t total_diffs = 0, total_bytes = 0;
  std::vector<std::string> report;
  const std::string command =
      "cmake --preset release && cmake --build --preset release && "
      "build/release/tools/gentables/pgcodec-gentables --out src/tables";

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
    const bool member = std::find(std::begin(kMuleMembers), std::end(kMuleMembers), inf.id) !=
                        std::end(kMuleMembers);
    if (!wanted(inf.id) && !(member && wanted(Encoding::MULE_INTERNAL))) continue;
    const auto t1 = Clock::now();
    const Answers a = probe_encoding(pool, inf.id, cps);
    finish(a, seconds_since(t1));
  }
  if (wanted(Encoding::MULE_INTERNAL)) {
    const auto t1 = Clock::now();
    const Answers a = probe_mule(pool, built, cps, std::cerr);
    finish(a, seconds_since(t1));
  }

  if (!check && total_diffs == 0 && selected.empty()) {
    for (auto& [e, t] : built) total_bytes += write_table_source(out_dir, t, version, command);
    write_index_source(out_dir, version);
  }
  std::cerr << "pgcodec-gentables: " << pool.items_probed() << " inputs probed in "
            << static_cast<int>(seconds_since(t0)) << " s; ";
  if (check) {
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
