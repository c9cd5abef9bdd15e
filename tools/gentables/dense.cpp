#include "dense.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "codec_table.hpp"
#include "pgcodec/encoding.hpp"
#include "rules/utf8.hpp"
#include "tables.hpp"
#include "tables/lookup.hpp"

namespace pgcodec::gen {
namespace {

using detail::LinearRun;
using detail::MappingTable;
using detail::Pair;

bool is_single_byte(const MappingTable& t) {
  return t.kind == detail::TableKind::Mapped && info(t.encoding).max_char_length == 1;
}

std::string hex(std::uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

// Writes `name[] = {...}` of type `type` (or nothing when v is empty) and
// returns the expression naming it ("nullptr" when empty).
template <class V, class F>
std::string emit(std::ostringstream& o, const char* type, const std::string& name, const V& v,
                 int per_line, F field) {
  if (v.empty()) return "nullptr";
  o << "constexpr " << type << " " << name << "[] = {\n";
  int col = 0;
  for (const auto& x : v) {
    o << (col == 0 ? "    " : " ") << field(x) << ",";
    if (++col == per_line) {
      o << "\n";
      col = 0;
    }
  }
  if (col) o << "\n";
  o << "};\n";
  return name;
}

std::string header(const MappingTable& t, const std::string& version, const std::string& command,
                   const std::string& what) {
  std::ostringstream o;
  o << kGeneratedMarker << "\n"
    << "// Regenerate: " << command << "\n"
    << "// (or, from the committed run tables alone: build/release/tools/gentables/pgcodec-gentables"
       " --dense-only)\n"
    << "// " << info(t.encoding).name << " dense tables from " << version << ": " << what
    << ";\n// see src/tables/dense.hpp.\n"
    << "#include \"tables/dense.hpp\"\n"
    << "#include \"tables/generated/dense/dense_index.hpp\"\n\n"
    << "namespace pgcodec::detail::dense {\nnamespace {\n";
  return o.str();
}

// Every (key, value) of a run table, one at a time.
template <class F>
void each_entry(std::span<const detail::Run> runs, F f) {
  for (const auto& r : runs)
    for (std::uint32_t k = 0; k < r.length; ++k) f(r.code + k, r.cp + k);
}

// ---------------------------------------------------------------------------
// Single byte

std::string single_byte_source(const MappingTable& t, const std::string& version,
                               const std::string& command) {
  std::array<std::array<unsigned char, 4>, 128> dec{};
  std::array<std::uint32_t, 256> code_point{};
  for (std::uint32_t b = 1; b < 0x80; ++b) code_point[b] = b;
  for (std::uint32_t b = 0x80; b < 0x100; ++b) {
    std::uint32_t cp = 0, cp2 = 0;
    if (!detail::lookup_decode(t, b, cp, cp2)) continue;
    if (cp2 || cp >= 0x10000 || cp < 0x80)
      throw std::runtime_error(std::string(info(t.encoding).name) + ": byte " + hex(b) +
                               " decodes outside U+0080..U+FFFF");
    code_point[b] = cp;
    char u[4] = {};
    const std::size_t n = detail::write_utf8(u, cp);
    for (std::size_t k = 0; k < n; ++k) dec[b - 0x80][k] = static_cast<unsigned char>(u[k]);
    dec[b - 0x80][3] = static_cast<unsigned char>(n);
  }
  std::array<std::uint8_t, 256> page_of{};
  std::vector<std::array<std::uint8_t, 256>> pages;
  std::size_t mapped = 0;
  each_entry(t.encode, [&](std::uint32_t code, std::uint32_t cp) {
    if (cp < 0x80) return;  // ASCII is the identity everywhere
    if (cp >= 0x10000 || code < 0x80 || code > 0xFF)
      throw std::runtime_error(std::string(info(t.encoding).name) + ": U+" + hex(cp) +
                               " encodes outside 0x80..0xFF");
    auto& slot = page_of[cp >> 8];
    if (!slot) {
      pages.emplace_back();
      pages.back().fill(0);
      slot = static_cast<std::uint8_t>(pages.size());
    }
    pages[slot - 1u][cp & 0xFF] = static_cast<std::uint8_t>(code);
    ++mapped;
  });
  std::ostringstream o;
  o << header(t, version, command,
              std::to_string(mapped) + " code points encoded through " +
                  std::to_string(pages.size()) + " pages");
  o << "constexpr std::uint8_t pages[][256] = {\n";
  for (auto& p : pages) {
    o << "    {";
    for (std::size_t k = 0; k < p.size(); ++k)
      o << (k ? (k % 16 ? ", " : ",\n     ") : "") << (p[k] ? hex(p[k]) : std::string("0"));
    o << "},\n";
  }
  o << "};\n";
  // The same mapping in the planes the block kernels look up
  // (kernels/single_byte.hpp).
  std::array<std::uint8_t, 128> lead{}, trail{}, two{};
  for (std::size_t k = 0; k < 128; ++k)
    if (dec[k][3] == 2) {
      lead[k] = dec[k][0];
      trail[k] = dec[k][1];
      two[k] = 1;
    }
  std::array<std::array<std::uint8_t, 64>, 32> from_two{};
  for (std::uint32_t cp = 0x80; cp < 0x800; ++cp)
    if (const std::uint8_t pg = page_of[cp >> 8])
      from_two[(0xC0 | (cp >> 6)) & 0x1F][cp & 0x3F] = pages[pg - 1u][cp & 0xFF];
  auto bytes = [&](const auto& a) {
    o << "{";
    for (std::size_t k = 0; k < a.size(); ++k)
      o << (k ? (k % 16 ? ", " : ",\n     ") : "") << (a[k] ? hex(a[k]) : std::string("0"));
    o << "}";
  };
  o << "constexpr kernels::SingleBytePlanes planes = {\n    ";
  bytes(lead);
  o << ",\n    ";
  bytes(trail);
  o << ",\n    ";
  bytes(two);
  o << ",\n    {";
  for (std::size_t l = 0; l < 32; ++l) {
    o << (l ? ",\n     " : "");
    bytes(from_two[l]);
  }
  o << "}};\n}  // namespace\n\n";
  const std::string sym = table_symbol(t.encoding);
  o << "constinit const SingleByteDense " << sym << "{\n    {";
  for (std::size_t b = 0; b < 128; ++b) {
    o << (b ? (b % 4 ? ", " : ",\n     ") : "") << "{";
    for (std::size_t k = 0; k < 4; ++k) {
      // As char: bytes >= 0x80 written as negative would be implementation
      // specific; an explicit conversion from the unsigned value is not.
      o << (k ? ", " : "") << "char(" << hex(dec[b][k]) << ")";
    }
    o << "}";
  }
  o << "},\n    {";
  for (std::size_t k = 0; k < 256; ++k) o << (k ? (k % 16 ? ", " : ",\n     ") : "") << unsigned(page_of[k]);
  o << "},\n    pages,\n    &planes,\n    {";
  for (std::size_t b = 0; b < 256; ++b)
    o << (b ? (b % 16 ? ", " : ",\n     ") : "") << (code_point[b] ? hex(code_point[b]) : std::string("0"));
  o << "}};\n\n}  // namespace pgcodec::detail::dense\n";
  return o.str();
}

// ---------------------------------------------------------------------------
// Multibyte

struct Linear {
  std::vector<LinearRun> runs;
  std::vector<std::uint64_t> mask;
  std::vector<std::uint16_t> base;
};

// The rank index of a LinearIndex (see dense.hpp) over runs sorted by key.
template <class Key>
Linear linear_index(std::span<const LinearRun> runs, Key key_of, const std::string& name) {
  Linear x;
  x.runs.assign(runs.begin(), runs.end());
  if (runs.empty()) return x;
  if (runs.size() > 0xFFFF) throw std::runtime_error(name + ": too many linear runs");
  // Keys up to the end of the last run but one; the last run (GB18030's
  // supplementary planes, a million keys) needs no blocks.
  const std::uint32_t cover =
      runs.size() < 2 ? 0 : key_of(runs[runs.size() - 2]) + runs[runs.size() - 2].length;
  const std::uint32_t blocks = (cover + 63) / 64;
  x.mask.assign(blocks, 0);
  x.base.assign(blocks, 0);
  std::size_t i = 0;  // runs starting before the block
  for (std::uint32_t b = 0; b < blocks; ++b) {
    while (i < runs.size() && key_of(runs[i]) < b * 64) ++i;
    x.base[b] = static_cast<std::uint16_t>(i);
    for (std::size_t j = i; j < runs.size() && key_of(runs[j]) < (b + 1) * 64; ++j)
      x.mask[b] |= std::uint64_t{1} << (key_of(runs[j]) & 63);
  }
  return x;
}

std::string linear_fields(const LinearRun& r) {
  std::ostringstream s;
  s << "{" << r.linear << ", " << hex(r.cp) << ", " << r.length << "}";
  return s.str();
}

std::string multibyte_source(const MappingTable& t, const std::string& version,
                             const std::string& command) {
  const std::string name(info(t.encoding).name);
  // Decoding: code -> value, grouped as one[] and rows by prefix per length.
  std::vector<std::uint16_t> one(128, 0);
  std::vector<detail::WideChar> wide;
  std::map<std::uint32_t, std::uint16_t> by_code[5];  // by length
  auto value_of = [&](std::uint32_t cp1, std::uint32_t cp2) -> std::uint16_t {
    if (!cp2 && cp1 < 0x10000) {
      if (cp1 == 0 || (cp1 >= detail::kWideFirst && cp1 < detail::kWideEnd))
        throw std::runtime_error(name + ": decodes to U+" + hex(cp1));
      return static_cast<std::uint16_t>(cp1);
    }
    if (wide.size() >= detail::kWideEnd - detail::kWideFirst)
      throw std::runtime_error(name + ": too many wide decode entries");
    wide.push_back({cp1, cp2});
    return static_cast<std::uint16_t>(detail::kWideFirst + wide.size() - 1);
  };
  auto put = [&](std::uint32_t code, std::uint16_t v) {
    const std::size_t len = detail::code_length(code);
    if (code < 0x80) return;  // ASCII is copied, never looked up
    if (len == 1)
      one[code - 0x80] = v;
    else
      by_code[len][code] = v;
  };
  each_entry(t.decode, [&](std::uint32_t code, std::uint32_t cp) { put(code, value_of(cp, 0)); });
  for (const Pair& p : t.decode_pairs) put(p.code, value_of(p.cp1, p.cp2));

  std::vector<std::array<std::uint16_t, 256>> nodes(1);  // node 0: all zero
  nodes[0].fill(0);
  std::vector<detail::DecodeRow> rows{{0, 1, 0}};  // row 0: empty
  std::vector<std::uint16_t> values;
  std::uint16_t root[5] = {0, 0, 0, 0, 0};
  auto new_node = [&] {
    nodes.emplace_back();
    nodes.back().fill(0);
    if (nodes.size() > 0xFFFF) throw std::runtime_error(name + ": too many decode nodes");
    return static_cast<std::uint16_t>(nodes.size() - 1);
  };
  const detail::DecodeRow empty{0, 1, 0};
  std::vector<detail::DecodeRow> two(256, empty);
  for (std::size_t len = 2; len <= 4; ++len) {
    if (by_code[len].empty()) continue;
    if (len == 4 && !t.decode_linear.empty())
      throw std::runtime_error(name + ": four-byte codes both tabulated and linear");
    if (len > 2) root[len] = new_node();
    // Rows: consecutive codes of one prefix.
    for (auto it = by_code[len].begin(); it != by_code[len].end();) {
      const std::uint32_t prefix = it->first >> 8;
      auto end = it;
      while (end != by_code[len].end() && (end->first >> 8) == prefix) ++end;
      const unsigned lo = it->first & 0xFF, hi = std::prev(end)->first & 0xFF;
      const auto offset = static_cast<std::uint32_t>(values.size());
      values.resize(values.size() + (hi - lo + 1), 0);
      for (auto j = it; j != end; ++j) values[offset + (j->first & 0xFF) - lo] = j->second;
      // base + b == offset + (b - lo), modulo 2^32.
      const detail::DecodeRow row{offset - lo, static_cast<std::uint8_t>(lo),
                                  static_cast<std::uint8_t>(hi)};
      it = end;
      if (len == 2) {
        two[prefix] = row;
        continue;
      }
      rows.push_back(row);
      if (rows.size() > 0xFFFF) throw std::runtime_error(name + ": too many decode rows");
      // Walk the prefix bytes from the first; the last one holds the row.
      std::uint16_t node = root[len];
      for (std::size_t k = 0; k + 2 < len; ++k) {
        const unsigned b = (prefix >> (8 * (len - 2 - k))) & 0xFF;
        if (!nodes[node][b]) {
          const std::uint16_t n = new_node();
          nodes[node][b] = n;
        }
        node = nodes[node][b];
      }
      nodes[node][prefix & 0xFF] = static_cast<std::uint16_t>(rows.size() - 1);
    }
  }
  const Linear dlin = linear_index(t.decode_linear, [](const LinearRun& r) { return r.linear; },
                                   name);

  // Encoding: pages.
  std::map<std::uint32_t, std::map<std::uint32_t, std::uint32_t>> by_page;
  each_entry(t.encode, [&](std::uint32_t code, std::uint32_t cp) {
    if (cp < 0x80) return;  // ASCII is copied, never looked up
    by_page[cp >> 8][cp & 0xFF] = code;
  });
  const std::uint32_t page_count = by_page.empty() ? 0 : by_page.rbegin()->first + 1;
  std::vector<std::uint16_t> page_of(page_count, 0);
  std::vector<std::uint16_t> pages;
  std::vector<std::uint32_t> wide_codes;
  for (const auto& [pg, codes] : by_page) {
    pages.resize(pages.size() + 256, 0);
    page_of[pg] = static_cast<std::uint16_t>(pages.size() / 256);
    if (pages.size() / 256 > 0xFFFF) throw std::runtime_error(name + ": too many encode pages");
    for (const auto& [lo, code] : codes) {
      std::uint16_t v = 0;
      if (code > 0xFFFF) {
        if (wide_codes.size() >= detail::kWideCodeEnd - detail::kWideCodeFirst)
          throw std::runtime_error(name + ": too many three- and four-byte codes");
        wide_codes.push_back(code);
        v = static_cast<std::uint16_t>(detail::kWideCodeFirst + wide_codes.size() - 1);
      } else if (code >= detail::kWideCodeFirst && code < detail::kWideCodeEnd) {
        throw std::runtime_error(name + ": code " + hex(code) + " in the escape range");
      } else {
        v = static_cast<std::uint16_t>(code);
      }
      pages[pages.size() - 256 + lo] = v;
    }
  }
  const Linear elin =
      linear_index(t.encode_linear, [](const LinearRun& r) { return r.cp; }, name);
  std::vector<Pair> pairs(t.encode_pairs.begin(), t.encode_pairs.end());

  std::ostringstream o;
  {
    std::ostringstream what;
    what << "decode " << std::count_if(two.begin(), two.end(), [](auto& r) { return r.lo <= r.hi; })
         << " lead rows, " << nodes.size() << " nodes, " << rows.size() << " rows, " << values.size()
         << " values, " << wide.size() << " wide, " << dlin.runs.size()
         << " linear runs; encode " << pages.size() / 256 << " pages, " << wide_codes.size()
         << " wide codes, " << pairs.size() << " pairs, " << elin.runs.size() << " linear runs";
    o << header(t, version, command, what.str());
  }
  // (Zeros, the most common entry, as "0": a smaller source.)
  auto h16 = [](std::uint16_t v) { return v ? hex(v) : std::string("0"); };
  auto h32 = [](std::uint32_t v) { return v ? hex(v) : std::string("0"); };
  auto u16 = [](std::uint16_t v) { return std::to_string(v); };
  auto h64 = [](std::uint64_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v << "u";
    return s.str();
  };
  const auto one_e = emit(o, "std::uint16_t", "one", one, 16, h16);
  std::vector<std::uint16_t> flat_nodes;
  for (auto& n : nodes) flat_nodes.insert(flat_nodes.end(), n.begin(), n.end());
  const auto nodes_e = emit(o, "std::uint16_t", "nodes", flat_nodes, 16, h16);
  auto row_fields = [](const detail::DecodeRow& r) {
    std::ostringstream s;
    s << "{" << r.base << "u, " << hex(r.lo) << ", " << hex(r.hi) << "}";
    return s.str();
  };
  const auto two_e = emit(o, "DecodeRow", "two", two, 6, row_fields);
  const auto rows_e = emit(o, "DecodeRow", "rows", rows, 6, row_fields);
  const auto values_e = emit(o, "std::uint16_t", "values", values, 16, h16);
  const auto wide_e = emit(o, "WideChar", "wide", wide, 6, [](const detail::WideChar& w) {
    return "{" + hex(w.cp1) + ", " + hex(w.cp2) + "}";
  });
  const auto dlin_e = emit(o, "LinearRun", "decode_runs", dlin.runs, 4, linear_fields);
  const auto dmask_e = emit(o, "std::uint64_t", "decode_mask", dlin.mask, 6, h64);
  const auto dbase_e = emit(o, "std::uint16_t", "decode_base", dlin.base, 16, u16);
  const auto page_of_e = emit(o, "std::uint16_t", "page_of", page_of, 16, h16);
  const auto pages_e = emit(o, "std::uint16_t", "pages", pages, 16, h16);
  const auto wide_codes_e = emit(o, "std::uint32_t", "wide_codes", wide_codes, 12, h32);
  const auto pairs_e = emit(o, "Pair", "pairs", pairs, 4, [](const Pair& p) {
    std::ostringstream s;
    s << "{" << hex(p.code) << ", " << hex(p.cp1) << ", " << hex(p.cp2) << "}";
    return s.str();
  });
  const auto elin_e = emit(o, "LinearRun", "encode_runs", elin.runs, 4, linear_fields);
  const auto emask_e = emit(o, "std::uint64_t", "encode_mask", elin.mask, 6, h64);
  const auto ebase_e = emit(o, "std::uint16_t", "encode_base", elin.base, 16, u16);
  o << "}  // namespace\n\n";
  o << "constinit const MultibyteDense " << table_symbol(t.encoding) << "{\n"
    << "    " << one_e << ",\n"
    << "    " << two_e << ",\n"
    << "    {" << root[0] << ", " << root[1] << ", " << root[2] << ", " << root[3] << ", "
    << root[4] << "},\n"
    << "    " << nodes_e << ",\n    " << rows_e << ",\n    " << values_e << ",\n    " << wide_e
    << ",\n"
    << "    {" << dlin_e << ", " << dlin.runs.size() << ", " << dmask_e << ", " << dbase_e
    << ", " << dlin.base.size() << "},\n"
    << "    " << page_of_e << ",\n    " << page_count << ",\n    " << pages_e << ",\n    "
    << wide_codes_e << ",\n    " << pairs_e << ",\n    " << pairs.size() << ",\n"
    << "    {" << elin_e << ", " << elin.runs.size() << ", " << emask_e << ", " << ebase_e
    << ", " << elin.base.size() << "}};\n\n"
    << "}  // namespace pgcodec::detail::dense\n";
  return o.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path);
}

// ---------------------------------------------------------------------------
// Checking

struct Checker {
  const MappingTable& t;
  std::vector<std::string>& out;
  std::size_t limit;
  std::size_t count = 0;
  void add(const std::string& what) {
    if (count++ < limit) out.push_back(std::string(info(t.encoding).name) + ": " + what);
  }
};

std::string utf8_of(std::uint32_t cp1, std::uint32_t cp2) {
  char b[8];
  std::size_t n = detail::write_utf8(b, cp1);
  if (cp2) n += detail::write_utf8(b + n, cp2);
  return std::string(b, n);
}

void check_single_byte(Checker& c, const detail::SingleByteDense& d) {
  for (std::uint32_t b = 0x80; b < 0x100; ++b) {
    std::uint32_t cp = 0, cp2 = 0;
    const bool runs = detail::lookup_decode(c.t, b, cp, cp2);
    const auto& slot = d.decode[b - 0x80];
    const std::string dense(slot, static_cast<std::size_t>(slot[3]));
    if ((runs ? utf8_of(cp, cp2) : std::string()) != dense) c.add("decode " + hex(b));
    if ((runs ? cp : 0) != d.code_point[b]) c.add("decode " + hex(b) + " (code point)");
  }
  for (std::uint32_t b = 0; b < 0x80; ++b)
    if (d.code_point[b] != b) c.add("decode " + hex(b) + " (code point)");
  for (std::uint32_t cp = 0x80; cp < 0x110000; ++cp) {
    std::uint32_t code = 0;
    const bool runs = detail::lookup_encode(c.t, cp, code);
    if ((runs ? code : 0) != detail::single_byte_encode(d, cp)) c.add("encode U+" + hex(cp));
  }
  // The kernels' planes say the same: every two-byte decoding, and the byte
  // of every two-byte UTF-8 character.
  const kernels::SingleBytePlanes& pl = *d.planes;
  for (std::uint32_t b = 0x80; b < 0x100; ++b) {
    std::uint32_t cp = 0, cp2 = 0;
    const bool two = detail::lookup_decode(c.t, b, cp, cp2) && cp < 0x800;
    const std::size_t k = b - 0x80;
    if (two != (pl.two[k] == 1) ||
        (two && (pl.lead[k] != (0xC0 | (cp >> 6)) || pl.trail[k] != (0x80 | (cp & 0x3F)))))
      c.add("planes decode " + hex(b));
  }
  for (std::uint32_t cp = 0x80; cp < 0x800; ++cp) {
    std::uint32_t code = 0;
    const bool runs = detail::lookup_encode(c.t, cp, code);
    if ((runs ? code : 0) != pl.from_two[(0xC0 | (cp >> 6)) & 0x1F][cp & 0x3F])
      c.add("planes encode U+" + hex(cp));
  }
}

void check_decode(Checker& c, const detail::MultibyteDense& d, std::uint32_t code) {
  unsigned char b[4];
  const std::size_t n = detail::write_code(reinterpret_cast<char*>(b), code);
  std::uint32_t r1 = 0, r2 = 0, d1 = 0, d2 = 0;
  const bool runs = detail::lookup_decode(c.t, code, r1, r2);
  const bool dense = detail::dense_decode(d, b, n, d1, d2);
  if (runs != dense || (runs && (r1 != d1 || r2 != d2))) c.add("decode " + hex(code));
}

void check_multibyte(Checker& c, const detail::MultibyteDense& d) {
  for (std::uint32_t b = 0x80; b < 0x100; ++b) check_decode(c, d, b);
  for (std::uint32_t code = 0x8000; code < 0x10000; ++code) check_decode(c, d, code);
  for (std::uint32_t code = 0x808000; code < 0x1000000; ++code)
    if (code & 0x8000) check_decode(c, d, code);  // high first and second byte
  if (!c.t.decode_linear.empty()) {
    for (std::uint32_t lin = 0; lin < 126u * 10 * 126 * 10; ++lin)
      check_decode(c, d, detail::gb18030_code(lin));
  } else {
    // Every four-byte code either form holds.
    each_entry(c.t.decode, [&](std::uint32_t code, std::uint32_t) {
      if (code > 0xFFFFFF) check_decode(c, d, code);
    });
    for (const Pair& p : c.t.decode_pairs)
      if (p.code > 0xFFFFFF) check_decode(c, d, p.code);
    if (d.root[4]) {
      for (unsigned b0 = 0; b0 < 256; ++b0) {
        const std::uint16_t n1 = d.nodes[d.root[4] * 256u + b0];
        if (!n1) continue;
        for (unsigned b1 = 0; b1 < 256; ++b1) {
          const std::uint16_t n2 = d.nodes[n1 * 256u + b1];
          if (!n2) continue;
          for (unsigned b2 = 0; b2 < 256; ++b2) {
            const std::uint16_t row = d.nodes[n2 * 256u + b2];
            if (!row) continue;
            for (unsigned b3 = 0; b3 < 256; ++b3)
              check_decode(c, d, (b0 << 24) | (b1 << 16) | (b2 << 8) | b3);
          }
        }
      }
    }
  }
  for (std::uint32_t cp = 0x80; cp < 0x110000; ++cp) {
    std::uint32_t r = 0, x = 0;
    const bool runs = detail::lookup_encode(c.t, cp, r);
    const bool dense = detail::dense_encode(d, cp, x);
    if (runs != dense || (runs && r != x)) c.add("encode U+" + hex(cp));
  }
  if (d.pair_count != c.t.encode_pairs.size()) c.add("a different number of combined pairs");
  for (const Pair& p : c.t.encode_pairs) {
    std::uint32_t x = 0;
    if (!detail::dense_encode_pair(d, p.cp1, p.cp2, x) || x != p.code)
      c.add("encode pair U+" + hex(p.cp1) + " U+" + hex(p.cp2));
  }
  std::uint32_t x = 0;
  if (detail::dense_encode_pair(d, 0x41, 0x300, x)) c.add("encode pair U+41 U+300");
}

}  // namespace

std::size_t write_dense_source(const std::string& dir, const MappingTable& t,
                               const std::string& server_version, const std::string& command) {
  if (t.kind != detail::TableKind::Mapped) return 0;
  const std::string text = is_single_byte(t) ? single_byte_source(t, server_version, command)
                                             : multibyte_source(t, server_version, command);
  write_file(dir + "/" + table_symbol(t.encoding) + ".cpp", text);
  return text.size();
}

void write_dense_index(const std::string& dir, const std::string& server_version,
                       const std::string& command) {
  std::ostringstream o;
  o << kGeneratedMarker << "\n"
    << "// Regenerate: " << command << "\n"
    << "// The dense tables of every encoding that has a table (" << server_version
    << ");\n// see src/tables/dense.hpp.\n"
    << "#pragma once\n\n#include \"tables/dense.hpp\"\n\nnamespace pgcodec::detail::dense {\n\n";
  for (const auto& e : encodings()) {
    if (e.id == Encoding::UTF8 || e.id == Encoding::SQL_ASCII) continue;
    o << "extern const " << (e.max_char_length == 1 ? "SingleByteDense " : "MultibyteDense ")
      << table_symbol(e.id) << ";\n";
  }
  o << "\n}  // namespace pgcodec::detail::dense\n";
  write_file(dir + "/dense_index.hpp", o.str());
}

std::size_t check_dense(const MappingTable& t, std::vector<std::string>& out, std::size_t limit) {
  Checker c{t, out, limit};
  const auto& row = detail::codec_row(t.encoding);
  if (t.kind != detail::TableKind::Mapped) {
    if (row.tables.single_byte || row.tables.multibyte) c.add("has dense tables but no runs");
    return c.count;
  }
  if (is_single_byte(t)) {
    if (!row.tables.single_byte)
      c.add("no dense single-byte table");
    else
      check_single_byte(c, *row.tables.single_byte);
  } else {
    if (!row.tables.multibyte)
      c.add("no dense multibyte table");
    else
      check_multibyte(c, *row.tables.multibyte);
  }
  return c.count;
}

}  // namespace pgcodec::gen
