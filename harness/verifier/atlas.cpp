#include "verifier/atlas.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pgcodec::verifier {
namespace {

using nlohmann::ordered_json;

const char* const kCategories[] = {"different-mapping", "only-postgres", "only-reference",
                                   "different-error-kind", "different-offset"};
const char* const kDrivers[] = {"psycopg3", "psycopg2", "asyncpg"};

const ReferenceReport* closest(const EncodingReport& e) {
  const ReferenceReport* best = nullptr;
  for (auto& r : e.references)
    if (!best || std::tie(r.reads_wrong, r.divergences) < std::tie(best->reads_wrong, best->divergences))
      best = &r;
  return best;
}

const ReferenceReport* for_driver(const EncodingReport& e, const std::string& driver) {
  for (auto& r : e.references)
    if (std::find(r.used_by.begin(), r.used_by.end(), driver) != r.used_by.end()) return &r;
  return nullptr;
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
      jr["reads_postgres_output"] = {{"total", r.reads_total}, {"wrong", r.reads_wrong}, {"examples", r.read_examples}};
      jr["writes_for_postgres"] = {{"total", r.writes_total}, {"wrong", r.writes_wrong}, {"examples", r.write_examples}};
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
  return "`" + r->name + "`: " + std::to_string(r->divergences) + ", " + reads_text(*r);
}

std::string markdown(const Atlas& a) {
  std::ostringstream o;
  o << "# The pgcodec atlas: where PostgreSQL, ICU and Python disagree\n\n"
    << "Generated by `pgcodec verify` (" << a.versions
    << "); do not edit, rerun the README's main command. The same data: [atlas.json](atlas.json); "
       "the heat map: [index.html](index.html).\n\n"
    << "## Method\n\n"
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
    << "*Reads* counts, for every code point PostgreSQL writes in the encoding, whether the codec reads "
       "PostgreSQL's bytes back as that code point: what a driver needs to read query results. *Writes* "
       "counts code points the codec writes that PostgreSQL then reads as something else or rejects.\n\n";
  o << "## Summary\n\n| encoding | pgcodec vs PostgreSQL | closest reference | psycopg 3 | psycopg2 | asyncpg | ICU |\n"
    << "|---|---|---|---|---|---|---|\n";
  for (auto& e : a.encodings) {
    const ReferenceReport* best = closest(e);
    o << "| " << info(e.encoding).name << " | " << e.postgres_differences << " differences in "
      << e.decode_inputs + e.encode_inputs << " inputs + " << e.strings << " strings | "
      << (best ? "`" + best->name + "`" : std::string("—")) << " | " << cell_md(for_driver(e, "psycopg3"))
      << " | " << cell_md(for_driver(e, "psycopg2")) << " | " << cell_md(for_driver(e, "asyncpg")) << " | "
      << cell_md(icu_of(e)) << " |\n";
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
    o << "\n\n";
    if (e.references.empty()) {
      o << "No ICU converter or Python codec exists for this encoding.\n";
      continue;
    }
    o << "| reference | used by | divergences | decode (map / only PG / only ref / kind / offset) | encode "
         "(same) | reads PostgreSQL's output | writes |\n|---|---|---|---|---|---|---|\n";
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
      o << "| `" << r.name << "` | " << (users.empty() ? "—" : users) << " | " << r.divergences << " | "
        << counts("decode") << " | " << counts("encode") << " | " << reads_text(r) << " | "
        << (r.writes_wrong ? std::to_string(r.writes_wrong) + " wrong of " + std::to_string(r.writes_total)
                           : "all " + std::to_string(r.writes_total) + " right")
        << " |\n";
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

std::string heat_color(std::size_t n) {
  if (n == 0) return "#c8e6c9";
  const double t = std::min(1.0, std::log10(static_cast<double>(n) + 1.0) / 6.0);
  char buf[48];
  std::snprintf(buf, sizeof buf, "hsl(%d, 85%%, %d%%)", static_cast<int>(50 * (1 - t)),
                static_cast<int>(80 - 25 * t));
  return buf;
}

std::string html(const Atlas& a) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    << "<title>pgcodec atlas: PostgreSQL vs ICU vs Python</title>\n<style>\n"
    << "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
    << "table{border-collapse:collapse;font-size:14px}\n"
    << "th,td{border:1px solid #999;padding:4px 8px;text-align:center}\n"
    << "th{background:#eee}td.name{text-align:left;font-weight:bold}\n"
    << "td small{display:block;color:#333}\n.legend span{display:inline-block;padding:2px 8px;margin-right:4px}\n"
    << "</style></head><body>\n"
    << "<h1>Where PostgreSQL, ICU and Python disagree</h1>\n"
    << "<p>Generated by <code>pgcodec verify</code> (" << html_escape(a.versions)
    << "). Each cell counts the inputs (single characters both ways) on which a reference's outcome "
       "differs from PostgreSQL's; hover for the codec and categories. <em>reads</em> tells whether the "
       "codec reads every character PostgreSQL writes correctly, which is what a driver needs.</p>\n"
    << "<p class=\"legend\">";
  for (std::size_t n : {0UL, 1UL, 10UL, 100UL, 1000UL, 10000UL, 100000UL, 1000000UL})
    o << "<span style=\"background:" << heat_color(n) << "\">" << (n ? "≥" + std::to_string(n) : "0") << "</span>";
  o << "</p>\n<table>\n<tr><th>encoding</th><th>pgcodec vs PostgreSQL</th><th>psycopg 3</th><th>psycopg2</th>"
       "<th>asyncpg</th><th>ICU</th><th>closest</th></tr>\n";
  auto cell = [&](const ReferenceReport* r) {
    if (!r) {
      o << "<td style=\"background:#f5f5f5\">—</td>";
      return;
    }
    std::string tip = r->name + "\n";
    for (auto& [k, n] : r->counts) tip += k + ": " + std::to_string(n) + "\n";
    tip += reads_text(*r);
    o << "<td style=\"background:" << heat_color(r->divergences) << "\" title=\"" << html_escape(tip) << "\">"
      << r->divergences << "<small>" << html_escape(r->name) << "</small><small>" << html_escape(reads_text(*r))
      << "</small></td>";
  };
  for (auto& e : a.encodings) {
    o << "<tr><td class=\"name\">" << info(e.encoding).name << "</td><td style=\"background:"
      << (e.postgres_differences ? "#ef9a9a" : "#c8e6c9") << "\">" << e.postgres_differences << "<small>of "
      << e.decode_inputs + e.encode_inputs << " + " << e.strings << " strings</small></td>";
    for (auto* d : kDrivers) cell(for_driver(e, d));
    cell(icu_of(e));
    const ReferenceReport* best = closest(e);
    o << "<td>" << (best ? html_escape(best->name) : "—") << "</td></tr>\n";
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

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
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
  write_file(std::filesystem::path(dir) / "atlas.md", markdown(*this));
  write_file(std::filesystem::path(dir) / "index.html", html(*this));
}

}  // namespace pgcodec::verifier
