#include "core/generators.hpp"

#include "core/text.hpp"
#include "rules/grammar.hpp"
#include "tables/table.hpp"

namespace pgcodec::harness {

std::vector<std::string> decode_candidates(Encoding e) {
  std::vector<std::string> c;
  auto push = [&](std::initializer_list<int> bytes) {
    std::string s;
    for (int b : bytes) s.push_back(static_cast<char>(b));
    c.push_back(std::move(s));
  };
  for (int b = 0; b < 0x100; ++b) push({b});
  for (int b1 = 0x80; b1 < 0x100; ++b1)
    for (int b2 = 0; b2 < 0x100; ++b2) push({b1, b2});
  switch (e) {
    case Encoding::EUC_JP:
    case Encoding::EUC_JIS_2004:
      for (int b2 = 0x80; b2 < 0x100; ++b2)
        for (int b3 = 0x80; b3 < 0x100; ++b3) push({0x8F, b2, b3});
      break;
    case Encoding::EUC_TW:
      for (int b2 = 0x80; b2 < 0x100; ++b2)
        for (int b3 = 0x80; b3 < 0x100; ++b3) push({0x8F, b2, b3});
      for (int b2 = 0x80; b2 < 0x100; ++b2)
        for (int b3 = 0x80; b3 < 0x100; ++b3)
          for (int b4 = 0x80; b4 < 0x100; ++b4) push({0x8E, b2, b3, b4});
      break;
    case Encoding::MULE_INTERNAL:  // the official two-byte sets and the private one-byte sets
      for (int b1 = 0x90; b1 <= 0x9B; ++b1)
        for (int b2 = 0x80; b2 < 0x100; ++b2)
          for (int b3 = 0x80; b3 < 0x100; ++b3) push({b1, b2, b3});
      break;
    case Encoding::GB18030:
      for (int b1 = 0x81; b1 <= 0xFE; ++b1)
        for (int b2 = 0x30; b2 <= 0x39; ++b2)
          for (int b3 = 0x81; b3 <= 0xFE; ++b3)
            for (int b4 = 0x30; b4 <= 0x39; ++b4) push({b1, b2, b3, b4});
      break;
    default:
      break;
  }
  return c;
}

std::vector<std::uint32_t> all_code_points() {
  std::vector<std::uint32_t> v;
  v.reserve(0x10FFFF);
  for (std::uint32_t cp = 1; cp <= 0x10FFFF; ++cp)
    if (cp < 0xD800 || cp > 0xDFFF) v.push_back(cp);
  return v;
}

bool single_char(Encoding e, std::string_view s) {
  auto* p = reinterpret_cast<const unsigned char*>(s.data());
  return detail::verify_char(e, p, s.size()) == static_cast<int>(s.size());
}

std::vector<std::string> StringMaker::make(std::mt19937_64& rng, std::size_t n, bool cut) const {
  std::vector<std::string> out;
  if (good.empty()) return out;
  std::uniform_int_distribution<std::size_t> len(1, 24), pick_good(0, good.size() - 1);
  std::uniform_int_distribution<int> pct(0, 99);
  for (std::size_t i = 0; i < n; ++i) {
    std::string s;
    const std::size_t chars = len(rng);
    for (std::size_t k = 0; k < chars; ++k) {
      if (!bad.empty() && pct(rng) < 6) {
        s += bad[std::uniform_int_distribution<std::size_t>(0, bad.size() - 1)(rng)];
      } else if (pct(rng) < 25) {
        s.push_back(static_cast<char>(std::uniform_int_distribution<int>(0x20, 0x7E)(rng)));
      } else {
        s += good[pick_good(rng)];
      }
    }
    if (cut && pct(rng) < 10 && s.size() > 1) s.pop_back();
    out.push_back(std::move(s));
  }
  return out;
}

namespace {
std::size_t pick(std::mt19937& rng, std::size_t n) {
  return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}
}  // namespace

std::string random_bytes(std::mt19937& rng, const std::vector<std::uint32_t>& chars, std::size_t max_chars) {
  std::string in;
  const std::size_t len = 1 + pick(rng, max_chars);
  for (std::size_t k = 0; k < len; ++k) {
    const auto roll = pick(rng, 20);
    if (roll < 8)
      in.push_back(static_cast<char>('a' + pick(rng, 26)));
    else if (roll < 15 && !chars.empty())
      detail::append_code(in, chars[pick(rng, chars.size())]);
    else if (roll < 19)
      in.push_back(static_cast<char>(0x80 + pick(rng, 128)));
    else
      in.push_back(static_cast<char>(pick(rng, 3) == 0 ? 0 : pick(rng, 256)));
  }
  return in;
}

std::string random_text(std::mt19937& rng, const std::vector<std::uint32_t>& repertoire, std::size_t max_chars) {
  std::string in;
  const std::size_t len = 1 + pick(rng, max_chars);
  for (std::size_t k = 0; k < len; ++k) {
    const auto roll = pick(rng, 20);
    std::uint32_t cp;
    if (roll < 8) {
      cp = 'a' + static_cast<std::uint32_t>(pick(rng, 26));
    } else if (roll < 19) {
      cp = repertoire[pick(rng, repertoire.size())];
    } else {
      do cp = 0x80 + static_cast<std::uint32_t>(pick(rng, 0x10FF7F));
      while (cp >= 0xD800 && cp <= 0xDFFF);
    }
    append_utf8(in, cp);
  }
  return in;
}

}  // namespace pgcodec::harness
