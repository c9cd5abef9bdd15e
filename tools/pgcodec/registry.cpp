// The divergence registry's files: one per encoding and reference, rows
// grouped under a header line that explains the group.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "oracle/postgres.hpp"
#include "verify.hpp"

namespace pgcodec::cli {

std::string outcome_text(const oracle::Outcome& o, oracle::Direction d) {
  std::string s;
  switch (o.kind) {
    case oracle::OutcomeKind::Ok:
      return d == oracle::Direction::Decode ? oracle::code_points_text(o.output)
                                            : oracle::hex_bytes(o.output);
    case oracle::OutcomeKind::InvalidByteSequence: s = "invalid"; break;
    case oracle::OutcomeKind::NoEquivalent: s = "no-equivalent"; break;
    case oracle::OutcomeKind::Unspecified: s = "error"; break;
  }
  if (o.offset_known && o.offset > 0) s += "@" + std::to_string(o.offset);
  return s;
}

std::string registry_path(const std::string& dir, Encoding e, const std::string& reference) {
  return dir + "/" + std::string(info(e).name) + "." + reference + ".tsv";
}

namespace {
std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  std::size_t start = 0;
  for (;;) {
    const auto tab = line.find('\t', start);
    f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return f;
    start = tab + 1;
  }
}
}  // namespace

bool read_registry(const std::string& path, RegistryFile& out) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line, note;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.starts_with("## ")) {
      // "## <direction> <category>: <note> (<count>)"
      const auto colon = line.find(": ");
      const auto paren = line.rfind(" (");
      note = colon == std::string::npos ? "" : line.substr(colon + 2, paren > colon ? paren - colon - 2 : std::string::npos);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    auto f = split_tabs(line);
    if (f.size() != 5)
      throw std::runtime_error(path + ":" + std::to_string(n) + ": expected 5 tab-separated fields");
    out.rows.push_back({f[0], f[1], f[2], f[3], f[4], note});
  }
  return true;
}

void write_registry(const std::string& path, const RegistryFile& f, const std::string& versions) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  // Groups in a fixed order: direction, category, note.
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<const RegistryRow*>> groups;
  for (auto& r : f.rows) groups[{r.direction, r.category, r.note}].push_back(&r);
  std::ostringstream o;
  o << "# pgcodec divergence registry: " << f.encoding << " read and written by PostgreSQL and by "
    << f.reference << "\n"
    << "# Written by `pgcodec verify --update-registry` (" << versions
    << "); review a change as a diff, never edit by hand.\n"
    << "# " << f.rows.size() << " divergences in " << groups.size()
    << " groups. Columns: direction, input, PostgreSQL's outcome, the reference's outcome, category.\n"
    << "# Decode inputs are bytes in " << f.encoding << ", encode inputs code points; outputs are\n"
    << "# code points (decode) or bytes (encode); failures are invalid, no-equivalent or error\n"
    << "# (the reference does not say which), with @N when reported at byte N.\n";
  for (auto& [key, rows] : groups) {
    o << "\n## " << std::get<0>(key) << " " << std::get<1>(key) << ": " << std::get<2>(key) << " ("
      << rows.size() << ")\n";
    for (auto* r : rows)
      o << r->direction << '\t' << r->input << '\t' << r->postgres << '\t' << r->reference << '\t'
        << r->category << '\n';
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << o.str();
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace pgcodec::cli
