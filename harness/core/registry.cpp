// The divergence registry's files: one per encoding and reference, rows
// grouped under a header line that explains the group.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "core/registry.hpp"
#include "core/text.hpp"

namespace pgcodec::harness {

std::string RegistryRow::key() const {
  return std::string(to_string(direction)) + '\t' + input + '\t' + postgres + '\t' + reference + '\t' +
         to_string(category);
}

std::string outcome_text(const Outcome& o, Direction d) {
  std::string s;
  switch (o.kind) {
    case OutcomeKind::Ok:
      return d == Direction::Decode ? code_points_text(o.output) : hex_bytes(o.output);
    case OutcomeKind::InvalidByteSequence: s = "invalid"; break;
    case OutcomeKind::NoEquivalent: s = "no-equivalent"; break;
    case OutcomeKind::Unspecified: s = "error"; break;
  }
  if (o.offset && *o.offset > 0) s += "@" + std::to_string(*o.offset);
  return s;
}

std::string transcoded_text(const Outcome& o, const std::optional<std::string>& reads_as) {
  if (!o.ok()) return outcome_text(o, Direction::Decode);
  return hex_bytes(o.output) + " [" + (reads_as ? code_points_text(*reads_as) : std::string("unreadable")) + "]";
}

std::string input_text(std::string_view in, Direction d) {
  return d == Direction::Decode ? hex_bytes(in) : code_points_text(in);
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

namespace {

bool failure_text(const std::string& t) {
  return t.starts_with("invalid") || t.starts_with("no-equivalent") || t.starts_with("error");
}
std::string norm(const std::string& t) { return failure_text(t) ? t : "converts"; }

std::string member_key(const RegistryRow& r, const std::string& input) {
  return std::string(to_string(r.direction)) + '\t' + input + '\t' + norm(r.postgres) + '\t' +
         norm(r.reference) + '\t' + to_string(r.category);
}

// An input as a number: (byte count, big-endian code) for decode, the code
// point for encode; false for inputs that are not one number (pairs).
bool input_number(const RegistryRow& r, const std::string& text, std::uint64_t& n) {
  n = 0;
  if (r.direction == Direction::Decode) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < text.size(); i += 3, ++count) {
      if (count == 4) return false;
      n = (n << 8) | std::stoul(text.substr(i, 2), nullptr, 16);
    }
    n |= static_cast<std::uint64_t>(count) << 40;
    return true;
  }
  if (!text.starts_with("U+") || text.find(' ') != std::string::npos) return false;
  n = std::stoul(text.substr(2), nullptr, 16);
  return true;
}

std::string number_text(const RegistryRow& r, std::uint64_t n) {
  char buf[16];
  if (r.direction == Direction::Encode) {
    std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(n));
    return buf;
  }
  const auto count = static_cast<int>(n >> 40);
  std::string s;
  for (int k = count - 1; k >= 0; --k) {
    std::snprintf(buf, sizeof buf, "%s%02x", s.empty() ? "" : " ", static_cast<unsigned>((n >> (8 * k)) & 0xFF));
    s += buf;
  }
  return s;
}

constexpr std::size_t kFoldAt = 8;  // shorter runs stay single rows

}  // namespace

std::vector<RegistryRow> fold(std::vector<RegistryRow> rows) {
  std::vector<std::pair<std::uint64_t, RegistryRow>> keyed;
  std::vector<RegistryRow> out;
  for (auto& r : rows) {
    std::uint64_t n = 0;
    const bool foldable = r.category != Category::DifferentMapping && input_number(r, r.input, n);
    if (foldable)
      keyed.emplace_back(n, std::move(r));
    else
      out.push_back(std::move(r));
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](auto& a, auto& b) {
    return std::tie(a.second.direction, a.second.category, a.second.note, a.first) <
           std::tie(b.second.direction, b.second.category, b.second.note, b.first);
  });
  for (std::size_t i = 0; i < keyed.size();) {
    std::size_t j = i + 1;
    const RegistryRow& a = keyed[i].second;
    while (j < keyed.size()) {
      const RegistryRow& b = keyed[j].second;
      if (keyed[j].first != keyed[j - 1].first + 1 || b.direction != a.direction || b.category != a.category ||
          b.note != a.note || norm(b.postgres) != norm(a.postgres) || norm(b.reference) != norm(a.reference))
        break;
      ++j;
    }
    if (j - i >= kFoldAt) {
      RegistryRow r = a;
      r.input = a.input + ".." + keyed[j - 1].second.input;
      r.postgres = norm(a.postgres);
      r.reference = norm(a.reference);
      out.push_back(std::move(r));
    } else {
      for (std::size_t k = i; k < j; ++k) out.push_back(std::move(keyed[k].second));
    }
    i = j;
  }
  return out;
}

RegistryCheck::RegistryCheck(const std::vector<RegistryRow>& registered) {
  for (auto& r : registered) {
    const auto dots = r.input.find("..");
    if (dots == std::string::npos) {
      exact_.insert(r.key());
      inputs_.insert(std::string(to_string(r.direction)) + '\t' + r.input);
      continue;
    }
    std::uint64_t lo = 0, hi = 0;
    if (!input_number(r, r.input.substr(0, dots), lo) || !input_number(r, r.input.substr(dots + 2), hi) || hi < lo)
      throw std::runtime_error("registry: bad range " + r.input);
    for (std::uint64_t n = lo; n <= hi; ++n) {
      const std::string member = number_text(r, n);
      members_.insert(member_key(r, member));
      inputs_.insert(std::string(to_string(r.direction)) + '\t' + member);
    }
  }
}

bool RegistryCheck::lists(Direction d, const std::string& input) const {
  return inputs_.count(std::string(to_string(d)) + '\t' + input) > 0;
}

bool RegistryCheck::registered(const RegistryRow& r) const {
  return exact_.count(r.key()) || members_.count(member_key(r, r.input));
}

std::vector<std::string> RegistryCheck::stale(const std::vector<RegistryRow>& found, const Tested& tested) const {
  std::unordered_set<std::string> exact, members;
  for (auto& r : found) {
    exact.insert(r.key());
    members.insert(member_key(r, r.input));
  }
  auto counts = [&](const std::string& k) {
    if (!tested) return true;
    const auto t1 = k.find('\t'), t2 = k.find('\t', t1 + 1);
    Direction d{};
    parse_direction(std::string_view(k).substr(0, t1), d);
    return tested(d, k.substr(t1 + 1, t2 - t1 - 1));
  };
  std::vector<std::string> out;
  for (auto& k : exact_)
    if (!exact.count(k) && counts(k)) out.push_back(k);
  for (auto& k : members_)
    if (!members.count(k) && counts(k)) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

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
    if (line.starts_with("# shows: ")) {
      out.group_sql[note] = line.substr(9);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    auto f = split_tabs(line);
    if (f.size() != 5)
      throw std::runtime_error(path + ":" + std::to_string(n) + ": expected 5 tab-separated fields");
    RegistryRow row{Direction::Decode, f[1], f[2], f[3], Category::Agree, note};
    if (!parse_direction(f[0], row.direction) || !parse_category(f[4], row.category) ||
        row.category == Category::Agree)
      throw std::runtime_error(path + ":" + std::to_string(n) + ": unknown direction or category");
    out.rows.push_back(std::move(row));
  }
  return true;
}

void write_registry(const std::string& path, const RegistryFile& f, const std::string& versions) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  // Groups in a fixed order: direction, category, note.
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<const RegistryRow*>> groups;
  const std::vector<RegistryRow> rows = fold(f.rows);
  // (By the names, as the files have always been ordered.)
  for (auto& r : rows) groups[{to_string(r.direction), to_string(r.category), r.note}].push_back(&r);
  std::ostringstream o;
  std::size_t ranges = 0;
  for (auto& r : rows) ranges += r.input.find("..") != std::string::npos;
  if (f.target.empty()) {
    o << "# pgcodec divergence registry: " << f.encoding << " read and written by PostgreSQL and by "
      << f.reference << "\n"
      << "# Written by `pgcodec verify --update-registry` (" << versions
      << "); review a change as a diff, never edit by hand.\n"
      << "# " << f.rows.size() << " divergences in " << groups.size() << " groups, " << rows.size() << " rows ("
      << ranges << " of them ranges of consecutive inputs). Columns: direction, input, PostgreSQL's outcome, the reference's outcome, category.\n"
      << "# Decode inputs are bytes in " << f.encoding << ", encode inputs code points; outputs are\n"
      << "# code points (decode) or bytes (encode); failures are invalid, no-equivalent or error\n"
      << "# (the reference does not say which), with @N when reported at byte N. In a range row\n"
      << "# (A..B) the side that converts is written \"converts\".\n";
  } else {
    o << "# pgcodec divergence registry: PostgreSQL's direct conversion " << f.encoding << " -> " << f.target
      << " against going through UTF-8 (" << f.encoding << " -> UTF8 -> " << f.target << ")\n"
      << "# Written by `pgcodec verify --update-registry` (" << versions
      << "); review a change as a diff, never edit by hand.\n"
      << "# " << f.rows.size() << " differences in " << groups.size() << " groups, " << rows.size() << " rows ("
      << ranges << " of them ranges of consecutive inputs). Columns: direction, input, the direct\n"
      << "# conversion's outcome, the outcome through UTF-8, category. Both are PostgreSQL's own answers:\n"
      << "# these rows are PostgreSQL disagreeing with itself, not pgcodec failures. Inputs are single\n"
      << "# characters in " << f.encoding << " (direction decode); outputs are bytes in " << f.target
      << " with, in brackets, what\n"
      << "# " << f.target << " reads them as; failures are invalid or no-equivalent. In a range row (A..B) the\n"
      << "# side that converts is written \"converts\". Each group's \"shows:\" line is SQL that shows a member.\n";
  }
  for (auto& [key, members] : groups) {
    o << "\n## " << std::get<0>(key) << " " << std::get<1>(key) << ": " << std::get<2>(key) << " ("
      << members.size() << (members.size() == 1 ? " row" : " rows") << ")\n";
    if (auto sql = f.group_sql.find(std::get<2>(key)); sql != f.group_sql.end())
      o << "# shows: " << sql->second << "\n";
    for (auto* r : members)
      o << r->key() << '\n';
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << o.str();
    if (!out) throw std::runtime_error("cannot write " + tmp);
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace pgcodec::harness
