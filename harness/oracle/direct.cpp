#include "oracle/direct.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/generators.hpp"
#include "core/registry.hpp"
#include "core/text.hpp"
#include "oracle/postgres.hpp"
#include "oracle/pq.hpp"
#include "pgcodec/codec.hpp"

namespace pgcodec::oracle {
namespace {

using harness::Category;
using harness::Outcome;
using harness::OutcomeKind;

std::string name_of(Encoding e) { return std::string(info(e).name); }

// pgcodec's answer for one conversion to or from UTF-8.
Outcome pgcodec_convert(Encoding e, bool decoding, std::string_view in) {
  return harness::pgcodec_outcome(codec(e), decoding ? harness::Direction::Decode : harness::Direction::Encode, in);
}

const char* failure_word(const Outcome& o) {
  return o.kind == OutcomeKind::InvalidByteSequence ? "malformed"
         : o.kind == OutcomeKind::NoEquivalent     ? "unmapped"
                                                   : "an error";
}

}  // namespace

std::string to_string(DirectPair p) { return name_of(p.from) + " -> " + name_of(p.to); }

std::vector<DirectPair> direct_conversions(const std::string& conninfo, std::vector<LeftOut>* left_out) {
  if (left_out) left_out->clear();  // none today; the parameter stays for pairs a later server adds
  Connection conn(conninfo);
  auto r = conn.exec(
      "SELECT pg_encoding_to_char(conforencoding), pg_encoding_to_char(contoencoding) FROM pg_conversion "
      "WHERE condefault ORDER BY 1, 2");
  std::vector<DirectPair> out;
  for (int row = 0; row < r.rows(); ++row) {
    const auto from = lookup(r.get(row, 0)), to = lookup(r.get(row, 1));
    if (!from || !to)
      throw std::runtime_error("pg_conversion names an encoding pgcodec does not know: " +
                               std::string(r.get(row, 0)) + " -> " + std::string(r.get(row, 1)));
    auto plain = [](Encoding e) { return e != Encoding::UTF8 && e != Encoding::SQL_ASCII; };
    if (!plain(*from) || !plain(*to)) continue;
    out.push_back(DirectPair{*from, *to});
  }
  return out;
}

namespace {

// Decodes, or is well formed without a UTF-8 equivalent (SJIS 87 c2: the
// direct conversions may still convert such characters arithmetically).
bool well_formed(Encoding from, const std::string& s) {
  const Outcome o = pgcodec_convert(from, true, s);
  return o.ok() || o.kind == harness::OutcomeKind::NoEquivalent;
}

}  // namespace

std::vector<std::string> direct_inputs(Encoding from) {
  std::vector<std::string> out;
  for (auto& s : harness::decode_candidates(from))
    if (harness::single_char(from, s) && well_formed(from, s)) out.push_back(std::move(s));
  return out;
}

DirectComparison compare_direct(ProbePool& pool, DirectPair p, const std::vector<std::string>& inputs) {
  DirectComparison c;
  c.pair = p;
  c.inputs = inputs.size();
  const auto direct = pool.run({name_of(p.from), name_of(p.to)}, inputs.size(),
                               [&](std::size_t i) { return inputs[i]; });
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    Outcome d = to_outcome(direct[i]);
    const Outcome text = pgcodec_convert(p.from, true, inputs[i]);
    // A character with no UTF-8 equivalent fails through UTF-8 on the way in.
    Outcome via = text.ok() ? pgcodec_convert(p.to, false, text.output) : text;
    // One character: a failure is at its first byte on both sides.
    if (!d.ok()) d.offset = 0;
    if (!via.ok()) via.offset = 0;
    const Category cat = harness::classify(d, via);
    if (cat == Category::Agree) continue;
    c.differences.push_back({inputs[i], text.output, std::move(d), std::move(via), cat, {}, {}});
  }
  // What `to` reads each side's bytes as, asked of the server.
  std::vector<std::string> outputs;
  for (auto& x : c.differences) {
    if (x.direct.ok()) outputs.push_back(x.direct.output);
    if (x.via_utf8.ok()) outputs.push_back(x.via_utf8.output);
  }
  // MULE_INTERNAL has no conversion to UTF8 on the server: pgcodec reads it
  // through its member encodings, as the verifier holds it to PostgreSQL.
  std::vector<Probe> reads;
  if (p.to == Encoding::MULE_INTERNAL) {
    for (auto& o : outputs) {
      const Outcome t = pgcodec_convert(p.to, true, o);
      Probe r;
      r.verdict = t.ok() && t.output.size() <= sizeof r.bytes ? Verdict::Ok : Verdict::NoEquivalent;
      if (r.verdict == Verdict::Ok) {
        std::copy(t.output.begin(), t.output.end(), r.bytes);
        r.size = static_cast<std::uint8_t>(t.output.size());
      }
      reads.push_back(std::move(r));
    }
  } else {
    reads = pool.run({name_of(p.to), "UTF8"}, outputs.size(), [&](std::size_t i) { return outputs[i]; });
  }
  std::size_t k = 0;
  for (auto& x : c.differences) {
    if (x.direct.ok() && reads[k++].verdict == Verdict::Ok) x.direct_reads = std::string(reads[k - 1].output());
    if (x.via_utf8.ok() && reads[k++].verdict == Verdict::Ok) x.via_reads = std::string(reads[k - 1].output());
  }
  // A substitute: one output the direct conversion gives at least eight
  // characters whose text it does not keep.
  std::map<std::string, std::size_t> same;
  for (auto& x : c.differences)
    if (x.direct.ok() && x.direct_reads != x.text) ++same[x.direct.output];
  std::size_t most = 7;
  for (auto& [out, n] : same)
    if (n > most) {
      most = n;
      c.substitute = out;
    }
  return c;
}

std::string direct_sql(DirectPair p, std::string_view input) {
  const std::string bytes = "'\\x" + harness::hex_digits(input) + "'::bytea", f = name_of(p.from),
                    t = name_of(p.to);
  if (p.from == Encoding::MULE_INTERNAL || p.to == Encoding::MULE_INTERNAL)
    return "SELECT convert(" + bytes + ", '" + f + "', '" + t + "') AS direct; -- through UTF-8 there is no "
           "server path: MULE_INTERNAL goes through its member encodings (docs/mule-internal.md)";
  return "SELECT convert(" + bytes + ", '" + f + "', '" + t + "') AS direct, convert(convert(" + bytes + ", '" +
         f + "', 'UTF8'), 'UTF8', '" + t + "') AS via_utf8;";
}

namespace {

// The named blocks of the two Japanese encodings whose direct conversion
// treats them specially (PostgreSQL's SJIS is Windows-31J, whose NEC and IBM
// rows EUC_JP holds at 0xAD, 0xF9-0xFC and 0x8F 0xF3-0xF4).
std::string block_of(Encoding e, std::string_view in) {
  const auto b0 = static_cast<unsigned char>(in[0]);
  const auto b1 = in.size() > 1 ? static_cast<unsigned char>(in[1]) : 0u;
  if (e == Encoding::SJIS) {
    if (b0 == 0x87) return "NEC row 13";
    if (b0 == 0xED || b0 == 0xEE) return "NEC-selected IBM extension";
    if (b0 >= 0xFA && b0 <= 0xFC) return "IBM extension";
  }
  if (e == Encoding::EUC_JP) {
    if (b0 == 0xAD) return "NEC row 13";
    if (b0 >= 0xF9 && b0 <= 0xFC) return "NEC-selected IBM extension";
    if (b0 == 0x8F && (b1 == 0xF3 || b1 == 0xF4)) return "IBM extension";
    if (b0 == 0x8F) return "JIS X 0212";
  }
  return "";
}

}  // namespace

std::string explain_direct(const DirectComparison& c, const DirectDifference& d) {
  const DirectPair p = c.pair;
  const std::string conv = "PostgreSQL's " + to_string(p) + " conversion", t = name_of(p.to);
  const std::string block = block_of(p.from, d.input);
  const std::string chars = block.empty() ? "characters" : "the " + block + " characters";
  const std::string these = block.empty() ? "these characters" : chars;
  const bool substitute = c.substitute && d.direct.ok() && d.direct.output == *c.substitute;
  const std::string sub = substitute ? harness::transcoded_text(d.direct, d.direct_reads) : "";
  switch (d.category) {
    case Category::DifferentMapping:
      if (!d.direct_reads)
        return conv + " writes " + these + " as bytes " + t + " cannot read back, where going through UTF-8 writes other bytes";
      if (substitute) return conv + " writes its substitute " + sub + " for " + chars + " that going through UTF-8 converts";
      if (d.direct_reads == d.via_reads)
        return conv + " writes " + these + " with other bytes than going through UTF-8 (" + t + " has two codes for each)";
      if (*d.direct_reads == d.text)
        return conv + " keeps " + these + ", where going through UTF-8 writes bytes " + t + " reads as other characters";
      return conv + " maps " + these + " to other characters than going through UTF-8";
    case Category::OnlyExpected:
      if (d.text.empty())  // no character decodes to nothing: `from` has no UTF-8 equivalent for it
        return conv + " converts " + chars + " that " + name_of(p.from) + " -> UTF8 has no equivalent for" +
               (d.direct_reads ? "" : ", to bytes " + t + " cannot read back");
      if (!d.direct_reads)
        return conv + " writes " + these + " as bytes " + t + " cannot read back, where going through UTF-8 finds no equivalent";
      if (substitute)
        return conv + " writes its substitute " + sub + " for " + chars + " that going through UTF-8 finds no equivalent for";
      if (*d.direct_reads == d.text)
        return conv + " converts " + chars + " that UTF8 -> " + t + " has no equivalent for (" + t +
               " reads the direct bytes back as the same characters)";
      return conv + " writes other characters for " + these + ", where going through UTF-8 finds no equivalent";
    case Category::OnlyActual:
      return conv + " rejects (as " + failure_word(d.direct) + ") " + chars + " that going through UTF-8 converts";
    case Category::DifferentErrorKind:
      return "both fail: " + conv + " calls " + these + " " + failure_word(d.direct) + ", going through UTF-8 " +
             failure_word(d.via_utf8);
    default: break;
  }
  return conv + " and going through UTF-8 fail differently";
}

}  // namespace pgcodec::oracle
