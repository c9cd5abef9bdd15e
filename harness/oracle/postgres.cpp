#include "oracle/postgres.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>

#include "core/generators.hpp"
#include "core/model.hpp"
#include "core/text.hpp"

namespace pgcodec::oracle {
namespace {

using harness::code_points_of;
using harness::decode_candidates;
using harness::OutcomeKind;
using harness::single_char;
using harness::utf8;

std::string chain_name(Encoding e) { return std::string(info(e).name); }

}  // namespace

Answers probe_encoding(ProbePool& pool, Encoding e, const std::vector<std::uint32_t>& cps,
                       Path path, const std::vector<std::string>* dec_inputs) {
  Answers a;
  a.enc = e;
  a.dec_inputs = dec_inputs ? *dec_inputs : decode_candidates(e);
  // SQL_ASCII on the client path: the server validates as UTF8.
  const std::string from = path == Path::Client && e == Encoding::SQL_ASCII ? "UTF8" : chain_name(e);
  a.dec = pool.run({from, "UTF8"}, a.dec_inputs.size(),
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

std::span<const Encoding> mule_members() noexcept { return kMuleMembers; }

Answers probe_mule(ProbePool& pool, const MemberTable& member, const std::vector<std::uint32_t>& cps,
                   std::ostream& log) {
  const Encoding mule = Encoding::MULE_INTERNAL;
  Answers a;
  a.enc = mule;
  // 1. Which member owns which character set: convert every character each
  //    member decodes into MULE and note the sets that come out.
  std::map<std::uint32_t, Encoding> owner;
  std::set<std::string> images;
  for (Encoding m : kMuleMembers) {
    auto chars = harness::decoded_codes(member(m));
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
  // (Named references, not structured bindings: lambdas below capture them,
  // which clang accepts only from version 16.)
  for (auto& group : groups) {
    const int m = group.first;
    const std::vector<std::string>& inputs = group.second;
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
  std::vector<harness::TableModel> models;
  for (Encoding m : kMuleMembers) models.emplace_back(member(m));
  std::map<int, std::vector<std::uint32_t>> by_member;
  std::vector<std::uint32_t> orphans;
  for (auto cp : cps) {
    bool found = false;
    for (const harness::TableModel& model : models) {
      const Encoding m = model.encoding();
      if (model.encode_code_point(cp)) {
        by_member[to_int(m)].push_back(cp);
        found = true;
        break;
      }
    }
    if (!found) orphans.push_back(cp);
  }
  for (auto& group : by_member) {
    const int m = group.first;
    const std::vector<std::uint32_t>& list = group.second;
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


Outcome to_outcome(const Probe& p) {
  if (p.verdict == Verdict::Ok) return Outcome::converted(std::string(p.output()));
  const bool invalid = p.verdict == Verdict::Invalid;
  Outcome o = Outcome::failed(invalid ? OutcomeKind::InvalidByteSequence : OutcomeKind::NoEquivalent);
  o.sqlstate = invalid ? "22021" : "22P05";
  return o;
}

}  // namespace pgcodec::oracle

namespace pgcodec::oracle {

std::string quoted_bytes(std::string_view m) {
  std::string out;
  auto hexval = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (std::size_t i = 0; i + 3 < m.size(); ++i) {
    if (m[i] != '0' || m[i + 1] != 'x') continue;
    if (i > 0 && m[i - 1] != ' ') continue;
    const int hi = hexval(m[i + 2]), lo = hexval(m[i + 3]);
    if (hi < 0 || lo < 0) continue;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 3;
  }
  return out;
}

Outcome server_error(const std::string& sqlstate, const std::string& message) {
  Outcome o;
  o.kind = sqlstate == "22021"   ? OutcomeKind::InvalidByteSequence
           : sqlstate == "22P05" ? OutcomeKind::NoEquivalent
                                 : OutcomeKind::Unspecified;
  o.sqlstate = sqlstate;
  o.message = message;
  if (std::string quoted = quoted_bytes(message); !quoted.empty()) o.bytes = std::move(quoted);
  return o;
}

Outcome server_outcome(const Result& r, bool bytea) {
  if (PQresultStatus(r.raw()) == PGRES_TUPLES_OK)
    return Outcome::converted(bytea ? unhex_bytea(r.get(0, 0)) : std::string(r.get(0, 0)));
  const char* st = PQresultErrorField(r.raw(), PG_DIAG_SQLSTATE);
  const char* msg = PQresultErrorField(r.raw(), PG_DIAG_MESSAGE_PRIMARY);
  return server_error(st ? st : "", msg ? msg : "");
}

ClientPath::ClientPath(const std::string& conninfo, Encoding e) : conn_(conninfo) {
  conn_.exec("SET client_encoding = '" + std::string(info(e).name) + "'");
}

std::vector<ClientPath::Raw> ClientPath::send(bool decoding, const std::vector<std::string>& in) {
  constexpr std::size_t kWindow = 256;
  PGconn* c = conn_.raw();
  const char* sql = decoding ? "SELECT convert_to($1, 'UTF8')" : "SELECT convert_from($1, 'UTF8')";
  const Oid type = decoding ? 25 : 17;  // text in client_encoding / bytea
  std::vector<Raw> out(in.size());
  if (PQenterPipelineMode(c) != 1) throw std::runtime_error("cannot enter pipeline mode");
  for (std::size_t first = 0; first < in.size(); first += kWindow) {
    const std::size_t last = std::min(in.size(), first + kWindow);
    for (std::size_t i = first; i < last; ++i) {
      const char* value = in[i].data();
      const int length = static_cast<int>(in[i].size());
      const int format = 1;
      if (!PQsendQueryParams(c, sql, 1, &type, &value, &length, &format, 0) || !PQpipelineSync(c))
        throw std::runtime_error(std::string("pipeline send failed: ") + PQerrorMessage(c));
    }
    for (std::size_t i = first; i < last; ++i) {
      Result r(PQgetResult(c));
      if (!r.raw()) throw std::runtime_error("pipeline: missing result");
      if (PQresultStatus(r.raw()) == PGRES_TUPLES_OK) {
        out[i].ok = true;
        out[i].output = decoding ? unhex_bytea(r.get(0, 0)) : std::string(r.get(0, 0));
      } else {
        const char* st = PQresultErrorField(r.raw(), PG_DIAG_SQLSTATE);
        const char* msg = PQresultErrorField(r.raw(), PG_DIAG_MESSAGE_PRIMARY);
        out[i].sqlstate = st ? st : "";
        out[i].message = msg ? msg : "";
      }
      while (PGresult* extra = PQgetResult(c)) PQclear(extra);  // end of this query
      Result sync(PQgetResult(c));
      if (!sync.raw() || PQresultStatus(sync.raw()) != PGRES_PIPELINE_SYNC)
        throw std::runtime_error("pipeline: expected a sync point");
    }
  }
  if (PQexitPipelineMode(c) != 1) throw std::runtime_error("cannot leave pipeline mode");
  return out;
}

std::vector<Outcome> ClientPath::run(bool decoding, const std::vector<std::string>& in) {
  const std::vector<Raw> raw = send(decoding, in);
  std::vector<Outcome> out(in.size());
  // Offsets: candidate prefixes for every failure, asked in one more round.
  std::vector<std::string> prefixes;
  std::vector<std::pair<std::size_t, std::size_t>> owner;  // (input, candidate offset)
  for (std::size_t i = 0; i < in.size(); ++i) {
    Outcome& o = out[i];
    if (raw[i].ok) {
      o = Outcome::converted(raw[i].output);
      continue;
    }
    o = server_error(raw[i].sqlstate, raw[i].message);
    if (o.kind == OutcomeKind::Unspecified)
      throw std::runtime_error("unexpected SQLSTATE " + raw[i].sqlstate + ": " + raw[i].message);
    if (!o.bytes) continue;
    const std::string& quoted = *o.bytes;
    for (std::size_t p = in[i].find(quoted); p != std::string::npos; p = in[i].find(quoted, p + 1)) {
      prefixes.push_back(in[i].substr(0, p));
      owner.emplace_back(i, p);
    }
  }
  const std::vector<Raw> pre = send(decoding, prefixes);
  for (std::size_t k = 0; k < pre.size(); ++k) {
    if (!pre[k].ok) continue;
    Outcome& o = out[owner[k].first];
    o.offset = std::max(o.offset.value_or(0), owner[k].second);
  }
  return out;
}

}  // namespace pgcodec::oracle
