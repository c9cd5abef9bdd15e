#include "verifier/atlas.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace pgcodec::verifier {
namespace {

using nlohmann::ordered_json;

const char* const kCategories[] = {"different-mapping", "only-postgres", "only-reference",
                                   "different-error-kind", "different-offset"};

// The rules the page states, and the code below follows.
const char* const kClosestRule =
    "Closest reference: the one a driver gets the fewest characters wrong with (misreads of what PostgreSQL "
    "sends plus miswrites, PostgreSQL's own one-way writes and the NUL byte not counted); ties go to fewer "
    "misreads, then fewer divergences in the registry, then the name.";
const char* const kRecommendationRule =
    "Recommendation: the closest Python codec by that rule, when it gets at most 1 in 100 of the characters "
    "PostgreSQL sends wrong (misreads plus miswrites) and none of the ASCII characters U+0001..U+007F (SQL's "
    "quotes, backslash and the like); otherwise pgcodec, which reads and writes every character as PostgreSQL "
    "does.";

bool closer(const ReferenceReport& a, const ReferenceReport& b) {
  return std::make_tuple(a.driver_wrong(), a.reads_wrong, a.divergences, a.name) <
         std::make_tuple(b.driver_wrong(), b.reads_wrong, b.divergences, b.name);
}

const ReferenceReport* closest(const EncodingReport& e, bool python_only = false) {
  const ReferenceReport* best = nullptr;
  for (auto& r : e.references)
    if ((!python_only || r.name.starts_with("python-")) && (!best || closer(r, *best))) best = &r;
  return best;
}

// The references of an encoding, closest first.
std::vector<const ReferenceReport*> ranked(const EncodingReport& e) {
  std::vector<const ReferenceReport*> v;
  for (auto& r : e.references) v.push_back(&r);
  std::sort(v.begin(), v.end(), [](auto* a, auto* b) { return closer(*a, *b); });
  return v;
}

// The first three cases, then how many more (atlas.md lists five).
std::string cases_text(const std::vector<std::string>& examples, std::size_t n) {
  std::string o;
  std::size_t shown = 0;
  for (auto& x : examples) {
    if (shown == 3) break;
    o += (o.empty() ? "" : ", ") + x;
    ++shown;
  }
  if (n > shown) o += " and " + std::to_string(n - shown) + " more";
  return o;
}

struct Recommendation {
  std::string use;    // "python" or "pgcodec"
  std::string codec;  // the Python codec's name ("cp932"), empty for pgcodec
  std::string line;   // the sentence a driver author copies
};

Recommendation recommend(const EncodingReport& e) {
  const ReferenceReport* r = closest(e, true);
  const std::string enc(info(e.encoding).name);
  if (!r) return {"pgcodec", "", "use pgcodec: Python has no codec for " + enc};
  const std::string codec = r->name.substr(std::string("python-").size());
  const std::string m = std::to_string(r->reads_total);
  if (r->ascii_wrong > 0)
    return {"pgcodec", "",
            "use pgcodec: the closest Python codec, " + codec + ", gets " + std::to_string(r->ascii_wrong) +
                " ASCII character" + (r->ascii_wrong == 1 ? "" : "s") + " wrong (" +
                cases_text(r->ascii_examples, r->ascii_wrong) + ")"};
  if (r->reads_total == 0 || r->driver_wrong() * 100 > r->reads_total) {
    std::string what = r->reads_wrong && r->writes_wrong ? "reads and writes it right"
                       : r->reads_wrong                   ? "reads it right"
                                                          : "writes it right";
    return {"pgcodec", "",
            "use pgcodec: no Python codec " + what + " (the closest, " + codec + ", misreads " +
                std::to_string(r->reads_wrong) + " of " + m + " characters PostgreSQL sends and miswrites " +
                std::to_string(r->writes_wrong) + ")"};
  }
  std::string line = "use Python codec " + codec + " (";
  if (r->reads_wrong == 0)
    line += "reads all " + m + " characters PostgreSQL sends";
  else
    line += "misreads " + std::to_string(r->reads_wrong) + " of " + m +
            " characters PostgreSQL sends; the cases are " + cases_text(r->read_examples, r->reads_wrong);
  if (r->writes_wrong == 0)
    line += r->reads_wrong ? "; writes none wrong)" : " and writes none wrong)";
  else
    line += "; miswrites " + std::to_string(r->writes_wrong) + ": " + cases_text(r->write_examples, r->writes_wrong) +
            ")";
  return {"python", codec, line};
}

const ReferenceReport* for_driver(const EncodingReport& e, const std::string& driver) {
  for (auto& r : e.references)
    if (std::find(r.used_by.begin(), r.used_by.end(), driver) != r.used_by.end()) return &r;
  return nullptr;
}

// How a driver's own codec does with PostgreSQL's text: "misreads 453 of
// 7524 and miswrites 12 (12 refused)".
std::string driver_wrong_text(const ReferenceReport& r) {
  std::string o = "misreads " + std::to_string(r.reads_wrong) + " of " + std::to_string(r.reads_total);
  o += " and miswrites " + std::to_string(r.writes_wrong);
  if (r.writes_refused) o += " (" + std::to_string(r.writes_refused) + " refused)";
  return o;
}

bool exact(const ReferenceReport& r) { return r.driver_wrong() == 0 && r.ascii_wrong == 0; }

// The drivers whose choices the atlas records (ReferenceReport::used_by)
// with their titles.
const std::pair<const char*, const char*> kDrivers[] = {
    {"psycopg3", "psycopg 3"}, {"psycopg2", "psycopg2"}, {"asyncpg", "asyncpg"}};

// What a user of `driver` can actually do in this encoding: keep the
// driver's own codec where it is exact, else what each driver allows (psycopg
// 3 has no public way to pick a Python codec; psycopg2 takes one through
// psycopg2.extensions.encodings; asyncpg 0.27 and 0.28 return (str, length)
// tuples for every client encoding but UTF8) and pgcodec's install().
std::string driver_advice(const EncodingReport& e, const std::string& driver) {
  const std::string enc(info(e.encoding).name);
  const ReferenceReport* r = for_driver(e, driver);
  if (driver == "asyncpg") {
    if (e.encoding == Encoding::UTF8)
      return r && exact(*r) ? "its own decoder (" + r->name.substr(7) + ") is right" : "its own decoder";
    std::string codec_text = !r        ? "it has no Python codec for " + enc
                             : exact(*r) ? "its codec, " + r->name.substr(7) + ", would be right"
                                         : "its codec, " + r->name.substr(7) + ", " + driver_wrong_text(*r);
    return "use pgcodec, `await pgcodec.drivers.asyncpg.install(conn)` (text, varchar, bpchar), or "
           "client_encoding UTF8: asyncpg 0.27 and 0.28 return (str, length) tuples for every other "
           "client encoding (" +
           codec_text + ")";
  }
  if (r && exact(*r)) return "its own codec, " + r->name.substr(7) + ", is right";
  if (driver == "psycopg3") {
    if (!r)
      return "psycopg 3 refuses " + enc + " (no Python codec): `pgcodec.drivers.psycopg.enable_missing_encodings()`, "
             "then `pgcodec.drivers.psycopg.install(conn)`";
    return "use pgcodec, `pgcodec.drivers.psycopg.install(conn)`: its own codec, " + r->name.substr(7) + ", " +
           driver_wrong_text(*r) + ", and psycopg 3 has no public way to pick another";
  }
  // psycopg2: another Python codec, where one is exact.
  if (!r)
    return "psycopg2 refuses " + enc + " (no Python codec): `pgcodec.drivers.psycopg2.install()` makes it usable";
  const ReferenceReport* better = nullptr;
  for (auto& x : e.references)
    if (x.name.starts_with("python-") && exact(x) && (!better || closer(x, *better))) better = &x;
  std::string line = "use pgcodec, `pgcodec.drivers.psycopg2.install(conn)`";
  if (better)
    line += ", or `psycopg2.extensions.encodings['" + enc + "'] = '" + better->name.substr(7) +
            "'` before connecting";
  return line + ": its own codec, " + r->name.substr(7) + ", " + driver_wrong_text(*r);
}

const ReferenceReport* icu_of(const EncodingReport& e) {
  for (auto& r : e.references)
    if (r.name.starts_with("icu-")) return &r;
  return nullptr;
}

std::string md_escape(std::string s) {
  std::string o;
  for (char c : s) {
    if (c == '|') o += "\\|";
    else o.push_back(c);
  }
  return o;
}

std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '&': o += "&amp;"; break;
      case '"': o += "&quot;"; break;
      default: o.push_back(c);
    }
  }
  return o;
}

std::string reads_text(const ReferenceReport& r) {
  if (r.reads_total == 0) return "nothing to read";
  if (r.reads_wrong == 0) return "reads all " + std::to_string(r.reads_total);
  return "misreads " + std::to_string(r.reads_wrong) + " of " + std::to_string(r.reads_total);
}

std::string writes_text(const ReferenceReport& r) {
  if (r.writes_wrong == 0) return "writes none wrong";
  return "miswrites " + std::to_string(r.writes_wrong) + " of " + std::to_string(r.writes_total) +
         (r.writes_refused ? " (" + std::to_string(r.writes_refused) + " refused)" : "");
}

std::string set_aside_text(const ReferenceReport& r) {
  std::string o;
  auto add = [&](std::size_t n, const std::string& what) {
    if (n) o += (o.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(r.reads_postgres_own, "of PostgreSQL's one-way writes read");
  add(r.writes_postgres_own, "written as PostgreSQL's own one-way bytes");
  add(r.writes_rejected_anyway, "written that PostgreSQL rejects, having no equivalent");
  if (r.reads_nul) o += std::string(o.empty() ? "" : ", ") + "reads 0x00";
  return o.empty() ? "none" : o;
}

ordered_json list_json(const InconsistencyList& l) {
  ordered_json j;
  j["count"] = l.count;
  j["examples"] = ordered_json::array();
  for (auto& x : l.examples)
    j["examples"].push_back({{"input", x.input}, {"written", x.written}, {"read_back", x.read_back}, {"sql", x.sql}});
  return j;
}

ordered_json to_json(const Atlas& a) {
  ordered_json j;
  j["generated_by"] = "pgcodec verify";
  j["versions"] = a.versions;
  j["closest_rule"] = kClosestRule;
  j["recommendation_rule"] = kRecommendationRule;
  j["encodings"] = ordered_json::array();
  for (auto& e : a.encodings) {
    ordered_json je;
    je["name"] = info(e.encoding).name;
    je["decode_inputs"] = e.decode_inputs;
    je["encode_inputs"] = e.encode_inputs;
    je["strings"] = e.strings;
    je["pgcodec_postgres_differences"] = e.postgres_differences;
    if (e.policy_answers) je["mule_policy_answers"] = e.policy_answers;
    const ReferenceReport* best = closest(e);
    je["closest_reference"] = best ? ordered_json(best->name) : ordered_json();
    const Recommendation rec = recommend(e);
    je["recommendation"] = {{"use", rec.use}, {"python_codec", rec.codec.empty() ? ordered_json() : ordered_json(rec.codec)},
                            {"line", rec.line}};
    je["driver_advice"] = ordered_json::object();
    for (auto& [driver, title] : kDrivers) je["driver_advice"][driver] = driver_advice(e, driver);
    je["references"] = ordered_json::array();
    for (auto& r : e.references) {
      ordered_json jr;
      jr["name"] = r.name;
      jr["used_by"] = r.used_by;
      jr["decode_inputs"] = r.decode_inputs;
      jr["encode_inputs"] = r.encode_inputs;
      jr["divergences"] = r.divergences;
      jr["counts"] = r.counts;
      ordered_json ex = ordered_json::object();
      for (auto& [cat, rows] : r.examples)
        for (auto& row : rows)
          ex[cat].push_back({{"direction", to_string(row.direction)}, {"input", row.input}, {"postgres", row.postgres},
                             {"reference", row.reference}, {"note", row.note}});
      jr["examples"] = ex;
      jr["driver_wrong"] = r.driver_wrong();
      jr["reads_postgres_output"] = {{"total", r.reads_total},
                                     {"wrong", r.reads_wrong},
                                     {"postgres_one_way_set_aside", r.reads_postgres_own},
                                     {"examples", r.read_examples}};
      jr["writes_for_postgres"] = {{"total", r.writes_total},
                                   {"wrong", r.writes_wrong},
                                   {"refused", r.writes_refused},
                                   {"postgres_one_way_set_aside", r.writes_postgres_own},
                                   {"rejected_as_from_any_codec_set_aside", r.writes_rejected_anyway},
                                   {"examples", r.write_examples}};
      jr["reads_nul_postgres_rejects"] = r.reads_nul;
      jr["ascii_wrong"] = {{"count", r.ascii_wrong}, {"examples", r.ascii_examples}};
      je["references"].push_back(std::move(jr));
    }
    je["postgresql_inconsistencies"] = {{"writes_bytes_it_rejects", list_json(e.unreadable)},
                                        {"one_way_writes", list_json(e.one_way)},
                                        {"many_to_one_reads", list_json(e.many_to_one)}};
    j["encodings"].push_back(std::move(je));
  }
  if (!a.direct.empty() || !a.direct_left_out.empty()) {
    ordered_json jd;
    jd["pairs"] = ordered_json::array();
    for (auto& d : a.direct) {
      ordered_json jp;
      jp["from"] = d.from;
      jp["to"] = d.to;
      jp["registry"] = d.from + "." + d.reference + ".tsv";
      jp["inputs"] = d.inputs;
      jp["differences"] = d.differences;
      jp["groups"] = ordered_json::array();
      for (auto& g : d.groups) {
        ordered_json jg;
        jg["category"] = g.category;
        jg["note"] = g.note;
        jg["count"] = g.count;
        jg["examples"] = ordered_json::array();
        for (auto& x : g.examples)
          jg["examples"].push_back({{"input", x.input}, {"direct", x.direct}, {"via_utf8", x.via_utf8}, {"sql", x.sql}});
        jp["groups"].push_back(std::move(jg));
      }
      jd["pairs"].push_back(std::move(jp));
    }
    jd["left_out"] = a.direct_left_out;
    j["postgresql_direct_conversions"] = std::move(jd);
  }
  return j;
}

// atlas.json back into an Atlas: what the Markdown and the HTML are
// rendered from, on a full run and on --render-atlas alike.
InconsistencyList list_from(const ordered_json& j) {
  InconsistencyList l;
  l.count = j.at("count").get<std::size_t>();
  for (auto& x : j.at("examples"))
    l.examples.push_back({x.at("input").get<std::string>(), x.at("written").get<std::string>(),
                          x.at("read_back").get<std::string>(), x.at("sql").get<std::string>()});
  return l;
}

Atlas from_json(const ordered_json& j) {
  Atlas a;
  a.versions = j.at("versions").get<std::string>();
  for (auto& je : j.at("encodings")) {
    EncodingReport e;
    const std::string name = je.at("name").get<std::string>();
    const auto enc = lookup(name);
    if (!enc) throw std::runtime_error("atlas.json: unknown encoding " + name);
    e.encoding = *enc;
    e.decode_inputs = je.at("decode_inputs").get<std::size_t>();
    e.encode_inputs = je.at("encode_inputs").get<std::size_t>();
    e.strings = je.at("strings").get<std::size_t>();
    e.postgres_differences = je.at("pgcodec_postgres_differences").get<std::size_t>();
    e.policy_answers = je.value("mule_policy_answers", std::size_t{0});
    for (auto& jr : je.at("references")) {
      ReferenceReport r;
      r.name = jr.at("name").get<std::string>();
      r.used_by = jr.at("used_by").get<std::vector<std::string>>();
      r.decode_inputs = jr.at("decode_inputs").get<std::size_t>();
      r.encode_inputs = jr.at("encode_inputs").get<std::size_t>();
      r.divergences = jr.at("divergences").get<std::size_t>();
      r.counts = jr.at("counts").get<std::map<std::string, std::size_t>>();
      for (auto& [cat, rows] : jr.at("examples").items())
        for (auto& row : rows) {
          harness::RegistryRow x;
          if (!harness::parse_direction(row.at("direction").get<std::string>(), x.direction) ||
              !harness::parse_category(cat, x.category))
            throw std::runtime_error("atlas.json: bad example of " + r.name);
          x.input = row.at("input").get<std::string>();
          x.postgres = row.at("postgres").get<std::string>();
          x.reference = row.at("reference").get<std::string>();
          x.note = row.at("note").get<std::string>();
          r.examples[cat].push_back(std::move(x));
        }
      auto& rd = jr.at("reads_postgres_output");
      r.reads_total = rd.at("total").get<std::size_t>();
      r.reads_wrong = rd.at("wrong").get<std::size_t>();
      r.reads_postgres_own = rd.at("postgres_one_way_set_aside").get<std::size_t>();
      r.read_examples = rd.at("examples").get<std::vector<std::string>>();
      auto& wr = jr.at("writes_for_postgres");
      r.writes_total = wr.at("total").get<std::size_t>();
      r.writes_wrong = wr.at("wrong").get<std::size_t>();
      r.writes_refused = wr.at("refused").get<std::size_t>();
      r.writes_postgres_own = wr.at("postgres_one_way_set_aside").get<std::size_t>();
      r.writes_rejected_anyway = wr.at("rejected_as_from_any_codec_set_aside").get<std::size_t>();
      r.write_examples = wr.at("examples").get<std::vector<std::string>>();
      r.reads_nul = jr.at("reads_nul_postgres_rejects").get<bool>();
      auto& aw = jr.at("ascii_wrong");
      r.ascii_wrong = aw.at("count").get<std::size_t>();
      r.ascii_examples = aw.at("examples").get<std::vector<std::string>>();
      e.references.push_back(std::move(r));
    }
    auto& inc = je.at("postgresql_inconsistencies");
    e.unreadable = list_from(inc.at("writes_bytes_it_rejects"));
    e.one_way = list_from(inc.at("one_way_writes"));
    e.many_to_one = list_from(inc.at("many_to_one_reads"));
    a.encodings.push_back(std::move(e));
  }
  if (j.contains("postgresql_direct_conversions")) {
    auto& jd = j.at("postgresql_direct_conversions");
    for (auto& jp : jd.at("pairs")) {
      DirectReport d;
      d.from = jp.at("from").get<std::string>();
      d.to = jp.at("to").get<std::string>();
      const std::string reg = jp.at("registry").get<std::string>();  // FROM.REFERENCE.tsv
      d.reference = reg.substr(d.from.size() + 1, reg.size() - d.from.size() - 1 - 4);
      d.inputs = jp.at("inputs").get<std::size_t>();
      d.differences = jp.at("differences").get<std::size_t>();
      for (auto& jg : jp.at("groups")) {
        DirectGroup g;
        g.category = jg.at("category").get<std::string>();
        g.note = jg.at("note").get<std::string>();
        g.count = jg.at("count").get<std::size_t>();
        for (auto& x : jg.at("examples"))
          g.examples.push_back({x.at("input").get<std::string>(), x.at("direct").get<std::string>(),
                                x.at("via_utf8").get<std::string>(), x.at("sql").get<std::string>()});
        d.groups.push_back(std::move(g));
      }
      a.direct.push_back(std::move(d));
    }
    a.direct_left_out = jd.at("left_out").get<std::vector<std::string>>();
  }
  return a;
}

// "PostgreSQL's own inconsistencies": the direct conversions part.
void direct_markdown(const Atlas& a, std::ostringstream& o) {
  if (a.direct.empty() && a.direct_left_out.empty()) return;
  o << "\n### Direct conversions that disagree with UTF-8\n\n"
    << "A client encoding and a server encoding other than UTF8 are converted directly, by PostgreSQL's "
       "own conversion functions (`pg_conversion`, `condefault`), not through UTF-8. For every such pair "
       "whose ends are neither UTF8 nor SQL_ASCII, every well-formed single character of the source "
       "encoding (those without a UTF-8 equivalent too) is converted directly and through UTF-8 "
       "(`convert()` to UTF8 and on to the target, which pgcodec reproduces exactly; for MULE_INTERNAL, "
       "which the server does not convert to or from UTF8, pgcodec's composition through the member "
       "encodings, docs/mule-internal.md); each difference is PostgreSQL disagreeing with itself and a row of "
       "`corpus/divergences/<FROM>.postgres-direct-<TO>.tsv`. Outputs are bytes in the target, with what "
       "the target reads them as in brackets.\n\n"
    << "| conversion | characters | differences |\n|---|---|---|\n";
  for (auto& d : a.direct)
    o << "| " << d.from << " → " << d.to << " | " << d.inputs << " | " << d.differences << " |\n";
  o << "\n";
  for (auto& d : a.direct) {
    if (d.groups.empty()) continue;
    o << "- " << d.from << " → " << d.to << " (" << d.differences << "):\n";
    for (auto& g : d.groups) {
      o << "  - " << g.category << ", " << g.count << ": " << md_escape(g.note) << "\n";
      for (auto& x : g.examples)
        o << "    - " << x.input << ": direct " << md_escape(x.direct) << ", through UTF-8 " << md_escape(x.via_utf8)
          << ": `" << x.sql << "`\n";
    }
  }
  for (auto& l : a.direct_left_out) o << "- Left out: " << l << ".\n";
}

std::string cell_md(const ReferenceReport* r) {
  if (!r) return "—";
  return "`" + r->name + "`: " + reads_text(*r) + ", " + writes_text(*r) + "; " + std::to_string(r->divergences) +
         " divergences";
}

std::size_t references_reading_nul(const EncodingReport& e) {
  std::size_t n = 0;
  for (auto& r : e.references) n += r.reads_nul;
  return n;
}

std::string markdown(const Atlas& a) {
  std::ostringstream o;
  o << "<!-- Generated by pgcodec verify from atlas.json (harness/verifier/atlas.cpp); do not edit: run pgcodec "
       "verify, or pgcodec verify --render-atlas docs/atlas. -->\n"
    << "# The pgcodec atlas: where PostgreSQL, ICU and Python disagree\n\n"
    << "Generated by `pgcodec verify` (" << a.versions
    << "); do not edit, rerun the README's main command (or `pgcodec verify --render-atlas docs/atlas` to "
       "render this page and index.html again from atlas.json). The same data: [atlas.json](atlas.json); "
       "the heat map: [index.html](index.html).\n\n"
    << "## What to use\n\n"
    << "One line per encoding for a driver author. " << kRecommendationRule << " " << kClosestRule << "\n\n";
  for (auto& e : a.encodings)
    o << "- **" << info(e.encoding).name << "**: " << md_escape(recommend(e).line) << "\n";
  o << "\n## What a driver's user can do\n\n"
    << "The line above is for whoever picks a codec. A driver's user gets the codec the driver picks, and "
       "each driver allows something else: psycopg 3 has no public way to pick a Python codec; psycopg2 "
       "takes one through `psycopg2.extensions.encodings`; asyncpg 0.27 and 0.28 return (str, length) "
       "tuples for every client encoding but UTF8. Where the driver's own codec reads and writes every "
       "character as PostgreSQL does (refusing none), keep it; otherwise what to do (docs/python.md, "
       "\"Drivers\").\n\n";
  for (auto& e : a.encodings) {
    o << "- **" << info(e.encoding).name << "**:";
    const char* sep = " ";
    for (auto& [driver, title] : kDrivers) {
      o << sep << title << ": " << md_escape(driver_advice(e, driver));
      sep = "; ";
    }
    o << "\n";
  }
  o << "\n## Method\n\n"
    << "For every encoding the server is asked (`convert()`, thousands of inputs per round trip) about "
       "every single byte, every two-byte sequence with a high lead byte, the three- and four-byte spaces "
       "of EUC_JP, EUC_JIS_2004, EUC_TW, GB18030 and MULE_INTERNAL, and every code point "
       "U+0001..U+10FFFF (surrogates excluded), plus the two-code-point characters. A SQL_ASCII client's "
       "bytes are validated as UTF8, as a UTF8 server does. Random strings with errors at random places "
       "are sent on the client_encoding path (a Bind parameter, a result column) to check offsets inside "
       "strings. pgcodec's cached, by-name and table paths must give the server's answer for every "
       "input; ICU (strict callbacks, no fallbacks) and Python's codecs are compared on every input that "
       "is one character by its lead byte and every code point, and each difference is a row of "
       "`corpus/divergences/<ENCODING>.<reference>.tsv`.\n\n"
    << "Categories: *different-mapping* (both convert, differently), *only-postgres* (PostgreSQL "
       "converts, the reference fails), *only-reference* (the reference converts, PostgreSQL fails), "
       "*different-error-kind* (both fail: malformed versus unmapped), *different-offset*. Python's CJK "
       "codecs say \"illegal multibyte sequence\" for both kinds; that agrees with either.\n\n"
    << "What a driver author needs is counted apart from the divergences. *Misreads*: of every code point "
       "PostgreSQL writes in the encoding (the characters PostgreSQL sends), those whose bytes the codec "
       "reads as another text or rejects. *Miswrites*: of every code point the codec writes, those "
       "PostgreSQL stores as another text, or rejects though it has the character; and every code point "
       "PostgreSQL writes and reads back that the codec refuses to write (a driver cannot send it). Not "
       "counted, and shown "
       "apart: PostgreSQL's own one-way writes (code points it writes as bytes it reads back as another "
       "code point or rejects; no codec can undo them: a codec that reads such bytes as PostgreSQL does "
       "\"misreads\" them, and one that writes them as PostgreSQL does \"miswrites\" them), bytes "
       "PostgreSQL rejects for a character it has no equivalent for (it would reject them from any codec), "
       "and the byte 0x00, which every reference reads and PostgreSQL rejects. The heat map is shaded by "
       "misreads plus miswrites. A related count: `python/tests/misreads.py` (docs/python.md, \"Drivers\") "
       "counts, per driver, the characters PostgreSQL *reads* (every byte sequence it decodes, those it never "
       "writes too) that the driver's codec reads otherwise.\n\n";
  o << "## Summary\n\n| encoding | pgcodec vs PostgreSQL | closest reference | psycopg 3 | psycopg2 | asyncpg | ICU | "
       "PostgreSQL's own (one-way writes, writes it rejects) | reads 0x00 |\n"
    << "|---|---|---|---|---|---|---|---|---|\n";
  for (auto& e : a.encodings) {
    const ReferenceReport* best = closest(e);
    o << "| " << info(e.encoding).name << " | " << e.postgres_differences << " differences in "
      << e.decode_inputs + e.encode_inputs << " inputs + " << e.strings << " strings | "
      << (best ? "`" + best->name + "`" : std::string("—")) << " | " << cell_md(for_driver(e, "psycopg3"))
      << " | " << cell_md(for_driver(e, "psycopg2")) << " | " << cell_md(for_driver(e, "asyncpg")) << " | "
      << cell_md(icu_of(e)) << " | " << e.one_way.count << ", " << e.unreadable.count << " | "
      << references_reading_nul(e) << " of " << e.references.size() << " references |\n";
  }
  o << "\n## PostgreSQL's own inconsistencies\n\n"
    << "Code points PostgreSQL writes as bytes it rejects when reading them, writes as bytes it reads "
       "back as another character (one-way), and bytes it reads as a character it writes with other "
       "bytes (many-to-one). Each example comes with the SQL that shows it.\n\n"
    << "| encoding | writes bytes it rejects | one-way writes | many-to-one reads |\n|---|---|---|---|\n";
  for (auto& e : a.encodings)
    if (e.unreadable.count + e.one_way.count + e.many_to_one.count)
      o << "| " << info(e.encoding).name << " | " << e.unreadable.count << " | " << e.one_way.count << " | "
        << e.many_to_one.count << " |\n";
  o << "\n";
  for (auto& e : a.encodings) {
    auto show = [&](const char* title, const InconsistencyList& l) {
      if (!l.count) return;
      o << "- " << info(e.encoding).name << ", " << title << " (" << l.count << "):\n";
      for (auto& x : l.examples)
        o << "  - " << x.input << " → " << x.written << " → " << x.read_back << ": `" << x.sql << "`\n";
    };
    show("writes bytes it rejects", e.unreadable);
    show("one-way writes", e.one_way);
    show("many-to-one reads", e.many_to_one);
  }
  direct_markdown(a, o);
  o << "\n## Per encoding\n";
  for (auto& e : a.encodings) {
    o << "\n### " << info(e.encoding).name << "\n\n"
      << e.decode_inputs << " byte sequences and " << e.encode_inputs << " code points asked; " << e.strings
      << " random strings on the client path; pgcodec differs from PostgreSQL on " << e.postgres_differences
      << ".";
    if (e.policy_answers)
      o << " " << e.policy_answers << " answers follow the MULE_INTERNAL policy (docs/mule-internal.md).";
    o << "\n\n" << md_escape(recommend(e).line) << ".\n\n";
    if (e.references.empty()) {
      o << "No ICU converter or Python codec exists for this encoding.\n";
      continue;
    }
    o << "| reference | used by | misreads | miswrites | not counted | divergences | decode (map / only PG / "
         "only ref / kind / offset) | encode (same) |\n|---|---|---|---|---|---|---|---|\n";
    for (auto& r : e.references) {
      auto counts = [&](const char* dir) {
        std::string s;
        for (auto* c : kCategories) {
          auto it = r.counts.find(std::string(dir) + " " + c);
          s += (s.empty() ? "" : " / ") + std::to_string(it == r.counts.end() ? 0 : it->second);
        }
        return s;
      };
      std::string users;
      for (auto& u : r.used_by) users += (users.empty() ? "" : ", ") + u;
      o << "| `" << r.name << "` | " << (users.empty() ? "—" : users) << " | " << r.reads_wrong << " of "
        << r.reads_total << " | " << r.writes_wrong << " of " << r.writes_total << " | " << set_aside_text(r) << " | "
        << r.divergences << " | " << counts("decode") << " | " << counts("encode") << " |\n";
    }
    for (auto& r : e.references) {
      if (r.examples.empty() && r.read_examples.empty()) continue;
      o << "\n`" << r.name << "` examples:\n";
      for (auto& [cat, rows] : r.examples)
        for (auto& row : rows)
          o << "- " << cat << ": " << to_string(row.direction) << " " << md_escape(row.input) << ": PostgreSQL "
            << md_escape(row.postgres) << ", reference " << md_escape(row.reference) << " — " << row.note << "\n";
      for (auto& x : r.read_examples) o << "- misread: " << x << "\n";
      for (auto& x : r.write_examples) o << "- miswritten: " << x << "\n";
    }
  }
  return o.str();
}

// The heat: zero is the "reads and writes all" green; more is never
// lighter (each stop is darker than the one before, by the Rec. 601 luma
// the browser test checks), on a log scale up to a million.
const char* const kZeroColor = "#d9f2d0";
std::string heat_color(std::size_t n) {
  if (n == 0) return kZeroColor;
  static const int stops[][3] = {{0xfd, 0xe0, 0x8a}, {0xfb, 0xc0, 0x6a}, {0xf7, 0x9a, 0x55}, {0xee, 0x6c, 0x45},
                                 {0xd6, 0x44, 0x3c}, {0xa8, 0x23, 0x2e}, {0x6d, 0x10, 0x20}};
  const double t = std::min(6.0, std::log10(static_cast<double>(n)));
  const int i = std::min(5, static_cast<int>(t));
  const double f = t - i;
  char buf[8];
  int c[3];
  for (int k = 0; k < 3; ++k) c[k] = static_cast<int>(std::lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k])));
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c[0], c[1], c[2]);
  return buf;
}
bool dark(std::size_t n) { return n >= 3000; }

std::string html(const Atlas& a) {
  std::ostringstream o;
  o << "<!-- Generated by pgcodec verify from atlas.json (harness/verifier/atlas.cpp); do not edit: run pgcodec "
       "verify, or pgcodec verify --render-atlas docs/atlas. -->\n<!DOCTYPE html>\n"
    << "<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    << "<title>pgcodec atlas: which codec reads PostgreSQL right</title>\n<style>\n"
    << "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
    << "table{border-collapse:collapse;font-size:13px}\n"
    << "th,td{border:1px solid #999;padding:3px 6px;text-align:center;vertical-align:top}\n"
    << "th{background:#eee}td.name{text-align:left;font-weight:bold}\n"
    << "td.use{text-align:left;min-width:30em;max-width:40em}td.use.pgcodec{background:#e3e8f8}\n"
    << "td small{display:block;color:inherit;opacity:.85}td.dark{color:#fff}\n"
    << "td.own{background:#f0f0f0;color:#555}td.ref{min-width:8.5em}td.pg{min-width:7em}\n"
    << ".legend span{display:inline-block;padding:2px 8px;margin-right:4px;border:1px solid #999}\n"
    << "</style></head><body>\n"
    << "<h1>Which codec reads and writes what PostgreSQL means</h1>\n"
    << "<p>Generated by <code>pgcodec verify</code> (" << html_escape(a.versions)
    << "). A cell per encoding and reference (ICU converter or Python codec), closest first, shaded by the "
       "characters a driver gets wrong with it: <em>misreads</em> (of the characters PostgreSQL sends, those "
       "the codec reads as another text or rejects) plus <em>miswrites</em> (characters it writes that "
       "PostgreSQL stores as another text, or rejects though it has them). Not counted, shown in their own "
       "columns: PostgreSQL's own one-way writes (no codec can undo them) and the byte 0x00 (every "
       "reference reads it, PostgreSQL rejects it). Hover a cell for the registry's divergence "
       "categories.</p>\n"
    << "<p id=\"closest-rule\">" << html_escape(kClosestRule) << "</p>\n"
    << "<p id=\"recommendation-rule\">" << html_escape(kRecommendationRule) << "</p>\n"
    << "<p class=\"legend\">characters wrong: ";
  for (std::size_t n : {0UL, 1UL, 10UL, 100UL, 1000UL, 10000UL, 100000UL, 1000000UL})
    o << "<span style=\"background:" << heat_color(n) << (dark(n) ? ";color:#fff" : "") << "\">"
      << (n ? "≥" + std::to_string(n) : "0: reads and writes all") << "</span>";
  std::size_t width = 0;
  for (auto& e : a.encodings) width = std::max(width, e.references.size());
  o << "</p>\n<table id=\"heat\">\n<tr><th>encoding</th><th>use</th><th>pgcodec vs PostgreSQL</th><th colspan=\""
    << std::max<std::size_t>(width, 1)
    << "\">references, closest first: misreads + miswrites</th><th>PostgreSQL's own one-way writes "
       "(not counted)</th><th>reads 0x00 (not counted)</th></tr>\n";
  for (auto& e : a.encodings) {
    const std::string enc(info(e.encoding).name);
    const Recommendation rec = recommend(e);
    o << "<tr data-encoding=\"" << enc << "\"><td class=\"name\">" << enc << "</td><td class=\"use "
      << rec.use << "\" data-use=\"" << rec.use << "\" data-codec=\"" << html_escape(rec.codec) << "\">"
      << html_escape(rec.line) << "</td><td class=\"pg\" style=\"background:" << heat_color(e.postgres_differences)
      << "\">" << e.postgres_differences << "<small>of " << e.decode_inputs + e.encode_inputs << " inputs + "
      << e.strings << " strings</small></td>";
    const auto refs = ranked(e);
    for (auto* r : refs) {
      const std::size_t n = r->driver_wrong();
      std::string tip = r->name + ": " + std::to_string(r->divergences) + " divergences in the registry\n";
      for (auto& [k, c] : r->counts) tip += k + ": " + std::to_string(c) + "\n";
      tip += "not counted: " + set_aside_text(*r);
      std::string users;
      for (auto& u : r->used_by) users += (users.empty() ? "" : ", ") + u;
      o << "<td class=\"ref" << (dark(n) ? " dark" : "") << "\" data-reference=\"" << html_escape(r->name)
        << "\" data-wrong=\"" << n << "\" data-misreads=\"" << r->reads_wrong << "\" data-miswrites=\""
        << r->writes_wrong << "\" style=\"background:" << heat_color(n) << "\" title=\"" << html_escape(tip)
        << "\"><b>" << html_escape(r->name) << "</b>" << (users.empty() ? "" : "<small>" + html_escape(users) + "</small>")
        << "<small>" << html_escape(reads_text(*r)) << "</small><small>" << html_escape(writes_text(*r))
        << "</small></td>";
    }
    if (refs.empty()) o << "<td class=\"none\" style=\"background:#f5f5f5\">no ICU converter or Python codec</td>";
    for (std::size_t k = std::max<std::size_t>(refs.size(), 1); k < width; ++k) o << "<td class=\"pad\"></td>";
    o << "<td class=\"own\">" << e.one_way.count + e.unreadable.count;
    if (e.one_way.count + e.unreadable.count)
      o << "<small>" << e.one_way.count << " read back as another, " << e.unreadable.count << " rejected</small>";
    o << "</td><td class=\"own\">" << references_reading_nul(e) << " of " << e.references.size() << "</td></tr>\n";
  }
  o << "</table>\n<h2>PostgreSQL's own inconsistencies</h2>\n<table>\n"
    << "<tr><th>encoding</th><th>writes bytes it rejects</th><th>one-way writes</th><th>many-to-one reads</th>"
       "<th>example</th></tr>\n";
  for (auto& e : a.encodings) {
    if (!(e.unreadable.count + e.one_way.count + e.many_to_one.count)) continue;
    const Inconsistency* ex = !e.unreadable.examples.empty() ? &e.unreadable.examples[0]
                              : !e.one_way.examples.empty()  ? &e.one_way.examples[0]
                                                             : &e.many_to_one.examples[0];
    o << "<tr><td class=\"name\">" << info(e.encoding).name << "</td><td>" << e.unreadable.count << "</td><td>"
      << e.one_way.count << "</td><td>" << e.many_to_one.count << "</td><td style=\"text-align:left\"><code>"
      << html_escape(ex->sql) << "</code></td></tr>\n";
  }
  o << "</table>\n";
  if (!a.direct.empty()) {
    o << "<h3>Direct conversions that disagree with UTF-8</h3>\n<table>\n"
      << "<tr><th>conversion</th><th>characters</th><th>differences</th><th>largest group</th><th>example</th></tr>\n";
    for (auto& d : a.direct) {
      const DirectGroup* big = nullptr;
      for (auto& g : d.groups)
        if (!big || g.count > big->count) big = &g;
      o << "<tr><td class=\"name\">" << html_escape(d.from + " → " + d.to) << "</td><td>" << d.inputs
        << "</td><td style=\"background:" << heat_color(d.differences) << "\">" << d.differences
        << "</td><td style=\"text-align:left\">" << (big ? html_escape(big->note) : std::string("—"))
        << "</td><td style=\"text-align:left\">";
      if (big && !big->examples.empty())
        o << "<code>" << html_escape(big->examples[0].sql) << "</code><small>" << html_escape(big->examples[0].input)
          << ": direct " << html_escape(big->examples[0].direct) << ", through UTF-8 "
          << html_escape(big->examples[0].via_utf8) << "</small>";
      o << "</td></tr>\n";
    }
    o << "</table>\n";
    for (auto& l : a.direct_left_out) o << "<p>Left out: " << html_escape(l) << ".</p>\n";
  }
  o << "<p>Details, examples and method: <a href=\"atlas.md\">atlas.md</a>; data: "
       "<a href=\"atlas.json\">atlas.json</a>.</p>\n</body></html>\n";
  return o.str();
}

// Written beside the file and renamed over it: a failed write leaves the
// old file, never half of a new one.
void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::path tmp = p;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      throw std::runtime_error("cannot write " + p.string());
    }
  }
  std::filesystem::rename(tmp, p);
}

}  // namespace

std::string Atlas::summary_table() const {
  std::ostringstream o;
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-15s %10s %10s %8s %6s  %s\n", "encoding", "bytes", "codepoints", "strings",
                "vs PG", "references (divergences / unregistered / stale)");
  o << buf;
  for (auto& e : encodings) {
    std::string refs;
    for (auto& r : e.references)
      refs += (refs.empty() ? "" : ", ") + r.name + " " + std::to_string(r.divergences) +
              (r.unregistered || r.stale ? " /" + std::to_string(r.unregistered) + "/" + std::to_string(r.stale) : "");
    std::snprintf(buf, sizeof buf, "%-15s %10zu %10zu %8zu %6zu  ", std::string(info(e.encoding).name).c_str(),
                  e.decode_inputs, e.encode_inputs, e.strings, e.postgres_differences);
    o << buf << (refs.empty() ? "-" : refs) << "\n";
  }
  return o.str();
}

void Atlas::write(const std::string& dir) const {
  std::filesystem::create_directories(dir);
  write_file(std::filesystem::path(dir) / "atlas.json", to_json(*this).dump(1) + "\n");
  render_atlas(dir);
}

void render_atlas(const std::string& dir) {
  const std::filesystem::path p = std::filesystem::path(dir) / "atlas.json";
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  ordered_json j;
  try {
    j = ordered_json::parse(in);
  } catch (const std::exception& x) {
    throw std::runtime_error(p.string() + ": " + x.what());
  }
  Atlas a;
  try {
    a = from_json(j);
  } catch (const nlohmann::json::exception& x) {
    throw std::runtime_error(p.string() + " is not an atlas pgcodec verify wrote: " + x.what());
  }
  // atlas.json again too: what the code derives from the data (the closest
  // reference, the recommendation, the rules) follows the code.
  write_file(p, to_json(a).dump(1) + "\n");
  write_file(std::filesystem::path(dir) / "atlas.md", markdown(a));
  write_file(std::filesystem::path(dir) / "index.html", html(a));
}

}  // namespace pgcodec::verifier
