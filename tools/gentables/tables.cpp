#include "tables.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "pgcodec/encoding.hpp"

namespace pgcodec::gen {
namespace {

bool gb_four(Encoding e, std::uint32_t code) { return e == Encoding::GB18030 && code > 0xFFFFFF; }

// Sorts (key, value) and merges runs where both advance by one.
template <class RunT, class Make>
std::vector<RunT> runs_of(std::vector<std::pair<std::uint32_t, std::uint32_t>> v, Make make) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i].first == v[i - 1].first)
      throw std::runtime_error("two mappings for one key " + std::to_string(v[i].first));
  std::vector<RunT> out;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i + 1;
    while (j < v.size() && v[j].first == v[j - 1].first + 1 && v[j].second == v[j - 1].second + 1)
      ++j;
    out.push_back(make(v[i].first, v[i].second, static_cast<std::uint32_t>(j - i)));
    i = j;
  }
  return out;
}

std::string hex(std::uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

}  // namespace

TableBuilder::TableBuilder(Encoding e) : enc_(e) {}

void TableBuilder::add_decode(std::uint32_t code, std::uint32_t cp) {
  if (gb_four(enc_, code))
    dec_lin_.emplace_back(detail::gb18030_linear(code), cp);
  else
    dec_.emplace_back(code, cp);
}
void TableBuilder::add_decode_pair(std::uint32_t code, std::uint32_t cp1, std::uint32_t cp2) {
  dpairs_.push_back({code, cp1, cp2});
}
void TableBuilder::add_encode(std::uint32_t cp, std::uint32_t code) {
  if (gb_four(enc_, code))
    enc_lin_.emplace_back(cp, detail::gb18030_linear(code));
  else
    enc_map_.emplace_back(cp, code);
}
void TableBuilder::add_encode_pair(std::uint32_t cp1, std::uint32_t cp2, std::uint32_t code) {
  epairs_.push_back({code, cp1, cp2});
}

BuiltTable TableBuilder::finish(detail::TableKind kind) {
  BuiltTable t;
  t.encoding = enc_;
  t.kind = kind;
  using detail::LinearRun;
  using detail::Run;
  t.decode = runs_of<Run>(dec_, [](auto code, auto cp, auto n) { return Run{code, cp, n}; });
  t.encode = runs_of<Run>(enc_map_, [](auto cp, auto code, auto n) { return Run{code, cp, n}; });
  t.decode_linear = runs_of<LinearRun>(
      dec_lin_, [](auto lin, auto cp, auto n) { return LinearRun{lin, cp, n}; });
  t.encode_linear = runs_of<LinearRun>(
      enc_lin_, [](auto cp, auto lin, auto n) { return LinearRun{lin, cp, n}; });
  std::sort(dpairs_.begin(), dpairs_.end(),
            [](auto& a, auto& b) { return a.code < b.code; });
  std::sort(epairs_.begin(), epairs_.end(), [](auto& a, auto& b) {
    return std::pair{a.cp1, a.cp2} < std::pair{b.cp1, b.cp2};
  });
  t.decode_pairs = dpairs_;
  t.encode_pairs = epairs_;
  return t;
}

std::string table_symbol(Encoding e) {
  std::string s(info(e).name);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::size_t write_table_source(const std::string& dir, const BuiltTable& t,
                               const std::string& server_version, const std::string& command) {
  const std::string sym = table_symbol(t.encoding);
  const auto& inf = info(t.encoding);
  std::ostringstream o;
  auto entries = [](auto& v) {
    std::size_t n = 0;
    for (auto& r : v) n += r.length;
    return n;
  };
  o << kGeneratedMarker << "\n"
    << "// Regenerate: " << command << "\n"
    << "// " << inf.name << " mapping table from PostgreSQL " << server_version << ".\n"
    << "// decode: " << entries(t.decode) + entries(t.decode_linear) + t.decode_pairs.size()
    << " characters in " << t.decode.size() << " runs, " << t.decode_linear.size()
    << " linear runs, " << t.decode_pairs.size() << " pairs; encode: "
    << entries(t.encode) + entries(t.encode_linear) + t.encode_pairs.size() << " code points in "
    << t.encode.size() << " runs, " << t.encode_linear.size() << " linear runs, "
    << t.encode_pairs.size() << " pairs.\n"
    << "// A run {code, cp, n} maps n consecutive byte codes to n consecutive code points;\n"
    << "// see src/tables/table.hpp.\n"
    << "#include \"tables/table.hpp\"\n\n"
    << "namespace pgcodec::detail::tables {\nnamespace {\n";
  auto emit = [&](const char* type, const std::string& name, const auto& v, auto fields) {
    if (v.empty()) return std::string("{}");
    o << "constexpr " << type << " " << name << "[] = {\n";
    int col = 0;
    for (auto& r : v) {
      o << (col == 0 ? "    " : " ") << fields(r) << ",";
      if (++col == 4) {
        o << "\n";
        col = 0;
      }
    }
    if (col) o << "\n";
    o << "};\n";
    return name;
  };
  // (Streams rather than string concatenation: GCC 12 at -O3 reports a false
  // -Wrestrict on chains of operator+.)
  auto run = [](const detail::Run& r) {
    std::ostringstream x;
    x << "{" << hex(r.code) << ", " << hex(r.cp) << ", " << r.length << "}";
    return x.str();
  };
  auto lin = [](const detail::LinearRun& r) {
    std::ostringstream x;
    x << "{" << r.linear << ", " << hex(r.cp) << ", " << r.length << "}";
    return x.str();
  };
  auto pair = [](const detail::Pair& p) {
    std::ostringstream x;
    x << "{" << hex(p.code) << ", " << hex(p.cp1) << ", " << hex(p.cp2) << "}";
    return x.str();
  };
  const auto d = emit("Run", "decode", t.decode, run);
  const auto dp = emit("Pair", "decode_pairs", t.decode_pairs, pair);
  const auto dl = emit("LinearRun", "decode_linear", t.decode_linear, lin);
  const auto e = emit("Run", "encode", t.encode, run);
  const auto ep = emit("Pair", "encode_pairs", t.encode_pairs, pair);
  const auto el = emit("LinearRun", "encode_linear", t.encode_linear, lin);
  o << "}  // namespace\n\n"
    << "extern const MappingTable " << sym << ";\n"
    << "const MappingTable " << sym << "{Encoding::" << inf.name << ", TableKind::"
    << (t.kind == detail::TableKind::Identity ? "Identity" : "Mapped") << ", " << d << ", " << dp
    << ", " << dl << ", " << e << ", " << ep << ", " << el << ", \"PostgreSQL " << server_version
    << "\"};\n\n}  // namespace pgcodec::detail::tables\n";
  const std::string text = o.str();
  std::ofstream f(dir + "/" + sym + ".cpp", std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + dir + "/" + sym + ".cpp");
  return text.size();
}

void write_index_source(const std::string& dir, const std::string& server_version,
                        const std::string& command) {
  std::ostringstream o;
  o << kGeneratedMarker << "\n"
    << "// Regenerate: " << command << "\n"
    << "// Index of the generated mapping tables (PostgreSQL " << server_version << ").\n"
    << "#include \"tables/table.hpp\"\n\nnamespace pgcodec::detail {\n"
    << "namespace tables {\n";
  for (auto& e : encodings()) o << "extern const MappingTable " << table_symbol(e.id) << ";\n";
  o << "}  // namespace tables\n\nconst MappingTable* mapping_table(Encoding e) noexcept {\n"
    << "  static const MappingTable* const all[] = {\n";
  for (auto& e : encodings()) o << "      &tables::" << table_symbol(e.id) << ",\n";
  o << "  };\n  return all[static_cast<int>(e)];\n}\n\n}  // namespace pgcodec::detail\n";
  std::ofstream f(dir + "/index.cpp", std::ios::binary);
  f << o.str();
  if (!f) throw std::runtime_error("cannot write " + dir + "/index.cpp");
}

}  // namespace pgcodec::gen
