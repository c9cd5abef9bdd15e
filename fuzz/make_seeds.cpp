// pgcodec-fuzz-seeds OUTDIR: writes a seed corpus for every fuzz target
// into OUTDIR/<target>/, made from each encoding's tables (core/generators.hpp):
// valid text, single characters at the tables' edges, truncated characters,
// every class of malformed input, unmapped characters, and for the names
// target every alias spelled as users spell it. Files are named by a hash of
// their bytes; ci/fuzz minimises the result with libFuzzer's -merge=1.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/byte_rules.hpp"
#include "core/generators.hpp"
#include "fuzz_case.hpp"
#include "pgcodec/encoding.hpp"

namespace {

namespace fs = std::filesystem;
using pgcodec::Encoding;

void put(const fs::path& dir, const std::string& bytes) {
  fs::create_directories(dir);
  const fs::path p = dir / pgcodec::fuzz::input_name(bytes);
  std::ofstream f(p, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

// The four header bytes (fuzz/fuzz_case.hpp), varied by `k`.
std::string header(Encoding e, bool encode, unsigned k) {
  std::string h(pgcodec::fuzz::kHeader, '\0');
  h[0] = static_cast<char>(pgcodec::to_int(e));
  h[1] = static_cast<char>((k & 1) | (encode ? 2 : 0) | ((k >> 1 & 1) << 2));
  static const unsigned char chunks[] = {0x00, 0x11, 0x21, 0x73, 0x05};
  h[2] = static_cast<char>(chunks[k % 5]);
  h[3] = static_cast<char>(k * 7);
  return h;
}

// Up to `n` elements spread over `v`.
std::vector<std::string> some(const std::vector<std::string>& v, std::size_t n) {
  std::vector<std::string> out;
  if (v.empty()) return out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(v[i * v.size() / n % v.size()]);
  return out;
}

std::string joined(const std::vector<std::string>& parts, const std::string& sep) {
  std::string s;
  for (const auto& p : parts) s += p + sep;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pgcodec-fuzz-seeds OUTDIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  try {
    for (const pgcodec::EncodingInfo& info : pgcodec::encodings()) {
      const Encoding e = info.id;
      const auto& rep = pgcodec::harness::repertoire(e);
      // Byte strings in the encoding.
      std::vector<std::string> bytes;
      bytes.push_back("plain ascii text, with \"quotes\" and \\backslashes\\");
      bytes.push_back(joined(some(rep.chars, 12), "a"));
      bytes.push_back(joined(some(rep.chars_edges, 12), ""));
      bytes.push_back(joined(some(rep.ascii_trails, 8), "'"));
      for (const auto& c : some(rep.chars, 4))
        if (c.size() > 1) bytes.push_back("x" + c.substr(0, c.size() - 1));  // truncated at the end
      for (const auto& u : some(rep.unmapped, 3)) bytes.push_back("ab" + u + "cd");
      for (const auto& g : some(rep.grammar_edges, 8)) bytes.push_back("a" + g + "b");
      bytes.push_back(std::string("a\0b", 3));
      // UTF-8 text for encoding.
      std::vector<std::string> text;
      text.push_back("plain ascii text");
      text.push_back(joined(some(rep.text, 12), " "));
      text.push_back(joined(some(rep.text_edges, 12), ""));
      for (const auto& f : some(rep.foreign, 2)) text.push_back("ab" + f + "cd");
      for (const auto& m : pgcodec::harness::malformed_utf8()) text.push_back("ok " + m + " ok");
      unsigned k = 0;
      for (const auto& b : bytes) {
        ++k;
        put(out / "decode_fuzzer", header(e, false, k) + b);
        put(out / "roundtrip_fuzzer", header(e, false, k) + b);
        put(out / "check_fuzzer", header(e, false, k) + b);
      }
      for (const auto& t : text) {
        ++k;
        put(out / "encode_fuzzer", header(e, true, k) + t);
        put(out / "roundtrip_fuzzer", header(e, true, k) + t);
        put(out / "check_fuzzer", header(e, true, k) + t);
      }
    }
    for (const pgcodec::Alias& a : pgcodec::aliases()) {
      const std::string n(a.name);
      put(out / "names_fuzzer", n);
      std::string spelled;
      for (char c : n) spelled += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c, spelled += '-';
      put(out / "names_fuzzer", spelled);
    }
    put(out / "names_fuzzer", std::string("utf\0" "8", 5));
    put(out / "names_fuzzer", std::string(70, 'u') + "tf8");
    put(out / "names_fuzzer", "\xC3\xBCtf8");
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "pgcodec-fuzz-seeds: %s\n", ex.what());
    return 1;
  }
  return 0;
}
