#include "core/byte_rules.hpp"

#include <array>
#include <bitset>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace pgcodec::harness {
namespace {

// A character pattern: one set of allowed byte values per position.
using Pattern = std::vector<std::bitset<256>>;

// Reads "8E A1-DF" (positions separated by blanks, each a comma-separated
// list of hex bytes or ranges) into a Pattern.
Pattern parse(std::string_view text) {
  Pattern p;
  std::size_t i = 0;
  auto hex = [&](std::size_t at) { return std::stoul(std::string(text.substr(at, 2)), nullptr, 16); };
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    std::bitset<256> set;
    for (;;) {
      const unsigned long lo = hex(i);
      unsigned long hi = lo;
      i += 2;
      if (i < text.size() && text[i] == '-') {
        hi = hex(i + 1);
        i += 3;
      }
      for (unsigned long b = lo; b <= hi; ++b) set.set(b);
      if (i < text.size() && text[i] == ',') {
        ++i;
        continue;
      }
      break;
    }
    p.push_back(set);
  }
  return p;
}

// The characters of each grammar (ASCII but NUL is a character everywhere).
std::vector<std::string_view> patterns_of(Encoding e) {
  switch (e) {
    case Encoding::UTF8:
      return {"C2-DF 80-BF",          "E0 A0-BF 80-BF",       "E1-EC 80-BF 80-BF",
              "ED 80-9F 80-BF",       "EE-EF 80-BF 80-BF",    "F0 90-BF 80-BF 80-BF",
              "F1-F3 80-BF 80-BF 80-BF", "F4 80-8F 80-BF 80-BF"};
    case Encoding::EUC_JP:
    case Encoding::EUC_JIS_2004:
      return {"8E A1-DF", "8F A1-FE A1-FE", "A1-FE A1-FE"};
    case Encoding::EUC_CN:
    case Encoding::EUC_KR:
      return {"A1-FE A1-FE"};
    case Encoding::EUC_TW:
      // Plane 1 takes any high lead but the single shifts; SS2 names a plane.
      return {"80-8D,90-FF A1-FE", "8E A1-A7 A1-FE A1-FE"};
    case Encoding::JOHAB:
      // EUC lengths (SS3 three bytes, every other high lead two), trailing
      // bytes in A1..FE, the lead itself unchecked.
      return {"80-8E,90-FF A1-FE", "8F A1-FE A1-FE"};
    case Encoding::MULE_INTERNAL:
      // A leading byte sets the length; trailing bytes need the high bit.
      // Any other high byte is a character of its own.
      return {"81-8D 80-FF", "90-99 80-FF 80-FF", "9A-9B 80-FF 80-FF", "9C-9D 80-FF 80-FF 80-FF",
              "80,8E-8F,9E-FF"};
    case Encoding::SJIS:
    case Encoding::SHIFT_JIS_2004:
      return {"A1-DF", "81-9F,E0-FC 40-7E,80-FC"};
    case Encoding::BIG5:
    case Encoding::GBK:
    case Encoding::UHC:
      // Any high lead and any trailing byte but NUL; 8D 20 is refused
      // (PostgreSQL 15.11 and later).
      return {"80-8C,8E-FF 01-FF", "8D 01-1F,21-FF"};
    case Encoding::GB18030:
      return {"81-FE 40-7E,80-FE", "81-FE 30-39 81-FE 30-39"};
    default:
      return {"80-FF"};  // the single-byte encodings
  }
}

struct Grammar {
  std::vector<Pattern> chars;
};

const Grammar& grammar(Encoding e) {
  static std::array<Grammar, encoding_count> all;
  static std::once_flag once;
  std::call_once(once, [] {
    for (int i = 0; i < encoding_count; ++i) {
      Grammar& g = all[static_cast<std::size_t>(i)];
      g.chars.push_back(parse("01-7F"));
      for (std::string_view p : patterns_of(static_cast<Encoding>(i))) g.chars.push_back(parse(p));
    }
  });
  return all[static_cast<std::size_t>(to_int(e))];
}

bool matches(const Pattern& p, std::string_view s) {
  if (s.size() < p.size()) return false;
  for (std::size_t k = 0; k < p.size(); ++k)
    if (!p[k].test(static_cast<unsigned char>(s[k]))) return false;
  return true;
}

}  // namespace

std::size_t well_formed_length(Encoding e, std::string_view s) noexcept {
  for (const Pattern& p : grammar(e).chars)
    if (matches(p, s)) return p.size();
  return 0;
}

std::vector<std::string> grammar_edges(Encoding e) {
  std::set<std::string> out;
  for (const Pattern& p : grammar(e).chars) {
    for (std::size_t k = 0; k < p.size(); ++k) {
      std::vector<int> values;  // the ends of each range at k, and just past them
      for (int b = 0; b < 256; ++b) {
        const bool in = p[k].test(static_cast<std::size_t>(b));
        const bool before = b > 0 && p[k].test(static_cast<std::size_t>(b - 1));
        const bool after = b < 255 && p[k].test(static_cast<std::size_t>(b + 1));
        if (in && (!before || !after)) values.push_back(b);
        if (!in && (before || after)) values.push_back(b);
      }
      for (bool last : {false, true})
        for (int v : values) {
          std::string s;
          for (std::size_t j = 0; j < p.size(); ++j) {
            int b = v;
            if (j != k) {
              b = -1;
              for (int x = 0; x < 256; ++x)
                if (p[j].test(static_cast<std::size_t>(x)) && (b < 0 || last)) b = x;
            }
            s.push_back(static_cast<char>(b));
          }
          out.insert(s);
        }
    }
  }
  return {out.begin(), out.end()};
}

std::size_t well_formed_prefix(Encoding e, std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t n = well_formed_length(e, s.substr(i));
    if (!n) break;
    i += n;
  }
  return i;
}

std::size_t lead_length(Encoding e, std::string_view s) noexcept {
  if (s.empty()) return 0;
  const auto b = static_cast<unsigned char>(s[0]);
  const auto second = s.size() > 1 ? static_cast<unsigned char>(s[1]) : 0;
  const bool high = b >= 0x80;
  switch (e) {
    case Encoding::UTF8:
      return b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 1;
    case Encoding::EUC_JP:
    case Encoding::EUC_JIS_2004:
    case Encoding::EUC_KR:
    case Encoding::JOHAB:
      return b == 0x8E ? 2 : b == 0x8F ? 3 : high ? 2 : 1;
    case Encoding::EUC_CN:
      return b == 0x8E || b == 0x8F ? 3 : high ? 2 : 1;
    case Encoding::EUC_TW:
      return b == 0x8E ? 4 : b == 0x8F ? 3 : high ? 2 : 1;
    case Encoding::MULE_INTERNAL:
      if (b >= 0x81 && b <= 0x8D) return 2;
      if (b >= 0x90 && b <= 0x9B) return 3;
      if (b == 0x9C || b == 0x9D) return 4;
      return 1;
    case Encoding::SJIS:
    case Encoding::SHIFT_JIS_2004:
      return b >= 0xA1 && b <= 0xDF ? 1 : high ? 2 : 1;
    case Encoding::BIG5:
    case Encoding::GBK:
    case Encoding::UHC:
      return high ? 2 : 1;
    case Encoding::GB18030:
      return !high ? 1 : second >= 0x30 && second <= 0x39 ? 4 : 2;
    default:
      return 1;
  }
}

}  // namespace pgcodec::harness
