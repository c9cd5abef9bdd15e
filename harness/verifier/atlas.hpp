// The atlas: what `pgcodec verify` found, per encoding and reference, as
// Markdown for people, JSON for tools and an HTML heat map for a browser.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "verifier/verify.hpp"

namespace pgcodec::verifier {

struct Inconsistency {
  std::string input, written, read_back, sql;
};

struct InconsistencyList {
  std::size_t count = 0;
  std::vector<Inconsistency> examples;  // the first few
  void add(Inconsistency x) {
    if (count++ < 5) examples.push_back(std::move(x));
  }
};

struct ReferenceReport {
  std::string name;                  // "python-cp932"
  std::vector<std::string> used_by;  // drivers whose choice this is
  std::size_t decode_inputs = 0, encode_inputs = 0;
  std::size_t divergences = 0, unregistered = 0, stale = 0;
  std::map<std::string, std::size_t> counts;  // "decode only-postgres" -> n
  std::map<std::string, std::vector<harness::RegistryRow>> examples;  // per category name
  // What a driver author needs. Reads: of every code point PostgreSQL
  // writes (reads_total), those whose bytes the codec reads as another text
  // or rejects (reads_wrong); PostgreSQL's own one-way writes, which it does
  // not read back as the code point either, are set aside
  // (reads_postgres_own). Writes: of every code point the codec writes, and
  // every one PostgreSQL writes and reads back that the codec refuses
  // (writes_total), those PostgreSQL stores as another text, or rejects
  // though it has the character, and those refusals (writes_wrong, of which
  // writes_refused are refusals); set aside are the codec
  // writing PostgreSQL's own one-way bytes (writes_postgres_own) and bytes
  // PostgreSQL rejects for a character it has no equivalent for, as it
  // would from any codec (writes_rejected_anyway).
  std::size_t reads_total = 0, reads_wrong = 0, reads_postgres_own = 0;
  std::size_t writes_total = 0, writes_wrong = 0, writes_refused = 0, writes_postgres_own = 0,
              writes_rejected_anyway = 0;
  std::vector<std::string> read_examples, write_examples;  // the first few wrong ones
  bool reads_nul = false;  // reads the byte 0x00, which PostgreSQL rejects
  // Of reads_wrong + writes_wrong, those of an ASCII character (U+0001..
  // U+007F: SQL's quotes, backslash and the like), and the first few.
  std::size_t ascii_wrong = 0;
  std::vector<std::string> ascii_examples;
  std::size_t driver_wrong() const { return reads_wrong + writes_wrong; }
  void count(Category c, Direction d) {
    ++counts[std::string(to_string(d)) + " " + to_string(c)];
  }
};

struct EncodingReport {
  Encoding encoding{};
  std::size_t decode_inputs = 0, encode_inputs = 0, strings = 0;
  std::size_t postgres_differences = 0, policy_answers = 0;
  std::vector<ReferenceReport> references;
  // PostgreSQL against itself: code points it writes as bytes it then
  // rejects, or reads back as another character; bytes it reads as a
  // character that it writes with other bytes.
  InconsistencyList unreadable, one_way, many_to_one;
};

// PostgreSQL's direct conversion between two encodings against going
// through UTF-8, for one pair (one registry file).
struct DirectExample {
  std::string input, direct, via_utf8, sql;  // registry texts and the SQL that shows it
};
struct DirectGroup {
  std::string category, note;
  std::size_t count = 0;
  std::vector<DirectExample> examples;  // the first few
};
struct DirectReport {
  std::string from, to, reference;  // "SJIS", "EUC_JP", "postgres-direct-EUC_JP"
  std::size_t inputs = 0, differences = 0, unregistered = 0, stale = 0;
  std::vector<DirectGroup> groups;
};

struct Atlas {
  std::string versions;  // "PostgreSQL 15.18, ICU 72.1, Python 3.11.2"
  std::vector<EncodingReport> encodings;
  // The direct conversions compared (empty when the run compared none) and
  // the pairs left out, "A -> B, C -> D: why" for each reason.
  std::vector<DirectReport> direct;
  std::vector<std::string> direct_left_out;

  std::string summary_table() const;
  // atlas.json, then atlas.md and index.html rendered from what atlas.json
  // holds (render_atlas), so a re-render gives the same files.
  void write(const std::string& dir) const;
};

// Reads <dir>/atlas.json (as Atlas::write wrote it) and writes atlas.md
// and index.html from it, and atlas.json again with what is derived from
// the counts (closest reference, recommendation) as this code derives it:
// `pgcodec verify --render-atlas <dir>`. Throws std::runtime_error when the
// file is missing or not an atlas.
void render_atlas(const std::string& dir);

}  // namespace pgcodec::verifier
