#include "core/generators.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>

#include "core/model.hpp"

#include "core/text.hpp"
#include "core/byte_rules.hpp"
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
  return !s.empty() && well_formed_length(e, s) == s.size();
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

namespace {

constexpr std::size_t kMaxPieces = 4000;

template <class T>
std::vector<T> spread(const std::vector<T>& all) {
  if (all.size() <= kMaxPieces) return all;
  std::vector<T> out;
  const double step = static_cast<double>(all.size() - 1) / (kMaxPieces - 1);
  for (std::size_t i = 0; i < kMaxPieces; ++i)
    out.push_back(all[static_cast<std::size_t>(static_cast<double>(i) * step)]);
  return out;
}

std::string code_bytes(std::uint32_t code) {
  std::string b;
  detail::append_code(b, code);
  return b;
}

// The first and last `k` of each class, in key order.
template <class Key>
void ends_of_classes(const std::map<int, std::map<Key, std::string>>& classes, std::size_t k,
                     std::vector<std::string>& into) {
  for (const auto& [cls, members] : classes) {
    std::size_t i = 0;
    for (const auto& [key, s] : members) {
      if (i < k || i + k >= members.size()) into.push_back(s);
      ++i;
    }
  }
}

// Over-long UTF-8 forms of cp: two bytes (C0/C1) below U+0080, three (E0
// 80..9F) below U+0800, four (F0 80..8F) below U+10000.
std::vector<std::string> overlong_forms(std::uint32_t cp) {
  auto b = [](std::uint32_t x) { return static_cast<char>(x); };
  std::vector<std::string> v;
  if (cp < 0x80) v.push_back({b(0xC0 | (cp >> 6)), b(0x80 | (cp & 0x3F))});
  if (cp < 0x800) v.push_back({b(0xE0), b(0x80 | (cp >> 6)), b(0x80 | (cp & 0x3F))});
  if (cp < 0x10000)
    v.push_back({b(0xF0), b(0x80 | (cp >> 12)), b(0x80 | ((cp >> 6) & 0x3F)), b(0x80 | (cp & 0x3F))});
  return v;
}

void add_kernel_inputs(Encoding e, Repertoire& p) {
  const TableModel& m = model(e);
  const detail::MappingTable& t = *detail::mapping_table(e);
  std::map<unsigned char, Repertoire::Script> by_lead;
  std::map<int, std::map<std::uint32_t, std::string>> code_classes, cp_classes;
  std::vector<std::string> overlongs;
  auto add = [&](std::uint32_t code, std::uint32_t cp, bool round_trips) {
    const std::string bytes = t.kind == detail::TableKind::Identity ? utf8(cp) : code_bytes(code);
    const std::string text = utf8(cp);
    if (round_trips) {
      Repertoire::Script& s = by_lead[static_cast<unsigned char>(text[0])];
      s.chars.push_back(bytes);
      s.text.push_back(text);
    }
    const int length = static_cast<int>(bytes.size());
    code_classes[length * 2 + (cp > 0xFFFF)][code] = bytes;
    cp_classes[length * 8 + static_cast<int>(text.size())][cp] = text;
    if (cp < 0x800 && overlongs.size() < 4096)
      for (std::string& o : overlong_forms(cp)) overlongs.push_back(std::move(o));
  };
  if (t.kind == detail::TableKind::Identity) {
    for (std::uint32_t cp : all_code_points())
      if (cp >= 0x80 && (cp < 0x3000 || cp % 61 == 0 || cp % 0x1000 < 4 || cp % 0x1000 > 0xFFC)) add(cp, cp, true);
  } else {
    auto add_code = [&](std::uint32_t code, std::uint32_t cp) {
      if (code < 0x80 || cp < 0x80) return;
      const auto back = m.encode_code_point(cp);
      add(code, cp, back && *back == code);
    };
    for (const detail::Run& r : t.decode)
      for (std::uint32_t k = 0; k < r.length; ++k) add_code(r.code + k, r.cp + k);
    // GB18030's four-byte ranges hold over a million codes: their ends and
    // a sample are enough (every process of the property suites builds
    // this; expanding them all cost seconds each, and more under ASan).
    for (const detail::LinearRun& r : t.decode_linear)
      for (std::uint32_t k = 0; k < r.length; ++k)
        if (k < 4 || k + 4 >= r.length || k % 97 == 0) add_code(detail::gb18030_code(r.linear + k), r.cp + k);
    for (const auto& pr : t.decode_pairs) {  // two code points: the wide table's class
      const std::string bytes = code_bytes(pr.code);
      code_classes[static_cast<int>(bytes.size()) * 2 + 1][pr.code] = bytes;
    }
  }
  for (auto& [lead, s] : by_lead) {
    if (s.chars.size() > 256) {
      s.chars = spread(s.chars);
      s.text = spread(s.text);
    }
    p.scripts.push_back(std::move(s));
  }
  ends_of_classes(code_classes, 4, p.kernel_edges);
  ends_of_classes(cp_classes, 4, p.kernel_text_edges);
  p.overlongs = spread(overlongs);
}

Repertoire build(Encoding e) {
  Repertoire p;
  const TableModel& m = model(e);
  const detail::MappingTable& t = *detail::mapping_table(e);
  std::vector<std::string> chars, text;
  if (t.kind == detail::TableKind::Identity) {
    // UTF-8 itself: code points spread over the whole range, and the ends of
    // every length class and of the surrogate gap as edges.
    for (std::uint32_t cp : all_code_points())
      if (cp >= 0x80) chars.push_back(utf8(cp));
    for (std::uint32_t cp : {0x80u, 0x7FFu, 0x800u, 0xFFFu, 0x1000u, 0xD7FFu, 0xE000u, 0xFFFDu, 0xFFFFu,
                             0x10000u, 0x3FFFFu, 0x40000u, 0xFFFFFu, 0x100000u, 0x10FFFFu})
      p.chars_edges.push_back(utf8(cp));
    text = chars;
    p.text_edges = p.chars_edges;
  } else {
    for (const auto& [code, cp] : decoded_codes(t)) {
      if (code < 0x80) continue;
      chars.push_back(code_bytes(code));
      const auto back = m.encode_code_point(cp);
      if (!back || *back != code) p.non_injective.insert(code);
    }
    for (const auto& pr : t.decode_pairs) {
      chars.push_back(code_bytes(pr.code));
      text.push_back(utf8(pr.cp1) + utf8(pr.cp2));
      const auto back = m.encode_pair(pr.cp1, pr.cp2);
      if (!back || *back != pr.code) p.non_injective.insert(pr.code);
    }
    for (const detail::Run& r : t.encode)
      for (std::uint32_t k = 0; k < r.length; ++k) {
        const std::uint32_t cp = r.cp + k;
        if (cp >= 0x80) text.push_back(utf8(cp));
        const auto back = m.decode_code(r.code + k);
        if (!back || back->first != cp || back->second) p.one_way.insert(cp);
        if (!single_char(e, code_bytes(r.code + k))) p.writes_ill_formed.insert(cp);
      }
    for (const detail::Pair& pr : t.encode_pairs) {
      const auto back = m.decode_code(pr.code);
      if (!back || back->first != pr.cp1 || back->second != pr.cp2) {
        p.one_way.insert(pr.cp1);
        p.one_way.insert(pr.cp2);
      }
    }
    for (const detail::LinearRun& r : t.encode_linear)
      for (std::uint32_t k = 0; k < r.length; k += 97) text.push_back(utf8(r.cp + k));
    for (const detail::Pair& pr : t.encode_pairs)
      if (!single_char(e, code_bytes(pr.code))) {
        p.writes_ill_formed.insert(pr.cp1);
        p.writes_ill_formed.insert(pr.cp2);
      }
  }
  p.chars = spread(chars);
  p.text = spread(text);
  if (t.kind != detail::TableKind::Identity) {
    std::set<std::uint32_t> codes, cps;
    auto both_ends = [](std::set<std::uint32_t>& into, std::uint32_t first, std::uint32_t length) {
      into.insert(first);
      into.insert(first + length - 1);
    };
    for (const detail::Run& r : t.decode) both_ends(codes, r.code, r.length);
    for (const detail::LinearRun& r : t.decode_linear) {
      codes.insert(detail::gb18030_code(r.linear));
      codes.insert(detail::gb18030_code(r.linear + r.length - 1));
    }
    for (const detail::Pair& pr : t.decode_pairs) codes.insert(pr.code);
    for (const auto& [code, cp] : decoded_codes(t))
      if ((code & 0xFF) == 0x5C && code > 0xFF) codes.insert(code);
    codes.insert(p.non_injective.begin(), p.non_injective.end());
    for (const detail::Run& r : t.encode) both_ends(cps, r.cp, r.length);
    for (const detail::LinearRun& r : t.encode_linear) both_ends(cps, r.cp, r.length);
    cps.insert(p.one_way.begin(), p.one_way.end());
    for (std::uint32_t code : codes)
      if (code >= 0x80 && m.decode_code(code)) p.chars_edges.push_back(code_bytes(code));
    for (std::uint32_t cp : cps)
      if (cp >= 0x80 && m.encode_code_point(cp)) p.text_edges.push_back(utf8(cp));
    for (const detail::Pair& pr : t.encode_pairs) p.text_edges.push_back(utf8(pr.cp1) + utf8(pr.cp2));
    // The runs handed over (see Repertoire::run_handovers): the code past a
    // run whether it has a mapping or not; the code point past it where it
    // has one (the text is what text_in draws, which must encode).
    for (const detail::LinearRun& r : t.encode_linear)
      if (const std::uint32_t past = r.cp + r.length; m.encode_code_point(past - 1) && m.encode_code_point(past))
        p.run_handovers_text.push_back(utf8(past - 1) + utf8(past));
    for (const detail::LinearRun& r : t.decode_linear)
      if (r.linear + r.length < 126u * 10 * 126 * 10)  // the last four-byte code is FE 39 FE 39
        p.run_handovers.push_back(code_bytes(detail::gb18030_code(r.linear + r.length - 1)) +
                                  code_bytes(detail::gb18030_code(r.linear + r.length)));
    p.chars_edges = spread(p.chars_edges);
    p.text_edges = spread(p.text_edges);
  }
  if (t.kind != detail::TableKind::Identity) {
    std::set<std::uint32_t> codes, cps;
    auto around = [](std::set<std::uint32_t>& into, std::uint32_t first, std::uint32_t length) {
      if (first) into.insert(first - 1);
      into.insert(first + length);
    };
    for (const detail::Run& r : t.decode) around(codes, r.code, r.length);
    for (const detail::LinearRun& r : t.decode_linear) {
      if (r.linear) codes.insert(detail::gb18030_code(r.linear - 1));
      codes.insert(detail::gb18030_code(r.linear + r.length));
    }
    for (const detail::Run& r : t.encode) around(cps, r.cp, r.length);
    for (const detail::LinearRun& r : t.encode_linear) around(cps, r.cp, r.length);
    for (std::uint32_t code : codes) {
      const std::string s = code_bytes(code);
      if (code >= 0x80 && single_char(e, s) && !m.decode_code(code)) p.past_ends.push_back(s);
    }
    for (std::uint32_t cp : cps)
      if (cp >= 0x80 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF) && !m.encode_code_point(cp))
        p.past_ends_text.push_back(utf8(cp));
    p.past_ends = spread(p.past_ends);
    p.past_ends_text = spread(p.past_ends_text);
  }
  // Well-formed characters without a mapping: single high bytes and
  // two-byte codes the model does not decode (only some encodings have them).
  for (std::uint32_t b = 0x80; b < 0x100 && p.unmapped.size() < 64; ++b) {
    const std::string s(1, static_cast<char>(b));
    if (single_char(e, s) && !m.decode_code(b)) p.unmapped.push_back(s);
  }
  for (std::uint32_t code = 0x8140; code < 0xFFFF && p.unmapped.size() < 128; code += 7) {
    const std::string s = code_bytes(code);
    if (single_char(e, s) && !m.decode_code(code)) p.unmapped.push_back(s);
  }
  p.grammar_edges = grammar_edges(e == Encoding::SQL_ASCII ? Encoding::UTF8 : e);
  p.utf8_edges = grammar_edges(Encoding::UTF8);
  for (std::uint32_t lead = 0x80; lead < 0x100; ++lead)
    for (std::uint32_t trail : {0x22u, 0x27u, 0x5Cu}) {
      const std::string s = code_bytes((lead << 8) | trail);
      if (single_char(e, s)) p.ascii_trails.push_back(s);
    }
  // A three-byte lead (EUC_JP's SS3, 8F) with an ASCII second byte before a
  // high third, where the second byte with its high bit set would make a
  // character (8F 30 B0 against 8F B0 B0): a lookup by the second byte's
  // low seven bits must not take it.
  for (std::uint32_t lead = 0x80; lead < 0x100; ++lead)
    for (std::uint32_t second : {0x22u, 0x30u, 0x5Cu}) {
      const std::string like{static_cast<char>(lead), static_cast<char>(second | 0x80), '\xB0'};
      if (single_char(e, like) && m.decode_code((lead << 16) | ((second | 0x80) << 8) | 0xB0))
        p.ascii_trails.push_back({static_cast<char>(lead), static_cast<char>(second), '\xB0'});
    }
  for (std::uint32_t cp : {0x20ACu, 0x3042u, 0x4E00u, 0xAC00u, 0x1F600u, 0x10FFFFu, 0xE000u, 0x0100u})
    if (!m.encode_code_point(cp)) p.foreign.push_back(utf8(cp));
  add_kernel_inputs(e, p);
  return p;
}

}  // namespace

const Repertoire& repertoire(Encoding e) {
  static std::array<std::unique_ptr<Repertoire>, encoding_count> all;
  static std::array<std::once_flag, encoding_count> once;
  const auto i = static_cast<std::size_t>(to_int(e));
  std::call_once(once[i], [&] { all[i] = std::make_unique<Repertoire>(build(e)); });
  return *all[i];
}

const std::vector<std::string>& edge_pieces(Encoding e, bool decoding) {
  static std::array<std::unique_ptr<std::vector<std::string>>, 2 * encoding_count> all;
  static std::array<std::once_flag, 2 * encoding_count> once;
  const auto i = static_cast<std::size_t>(to_int(e)) * 2 + decoding;
  std::call_once(once[i], [&] {
    const Repertoire& p = repertoire(e);
    std::set<std::string> v;
    auto some = [&](const std::vector<std::string>& from, std::size_t k) {
      for (std::size_t j = 0; j < from.size() && j < k; ++j) v.insert(from[j * from.size() / std::min(k, from.size())]);
    };
    auto with_cuts = [&](const std::vector<std::string>& from, std::size_t k) {
      for (std::size_t j = 0; j < from.size() && j < k; ++j) {
        const std::string& ch = from[j * from.size() / std::min(k, from.size())];
        for (std::size_t n = 1; n <= ch.size(); ++n) v.insert(ch.substr(0, n));
      }
    };
    // Each kind in the direction's form: bytes in e, or UTF-8.
    some(decoding ? p.past_ends : p.past_ends_text, 16);
    with_cuts(decoding ? p.chars : p.text, 24);
    with_cuts(decoding ? p.kernel_edges : p.kernel_text_edges, 64);
    some(decoding ? p.grammar_edges : p.utf8_edges, 64);
    some(decoding ? p.unmapped : p.foreign, 8);
    some(decoding ? p.ascii_trails : p.overlongs, 16);
    if (!decoding) some(malformed_utf8(), 64);
    for (const auto& s : p.scripts) some(decoding ? s.chars : s.text, 2);
    v.insert(std::string(1, '\0'));
    all[i] = std::make_unique<std::vector<std::string>>(v.begin(), v.end());
  });
  return *all[i];
}

std::string place(std::string_view piece, std::size_t offset, std::string_view filler, std::string_view after,
                  std::size_t tail) {
  std::string s;
  if (filler.empty()) filler = "a";
  s.append(offset % filler.size(), 'a');
  while (s.size() < offset) s.append(filler);
  s.append(piece);
  const std::size_t end = s.size() + tail;
  if (!after.empty())
    while (s.size() < end) s.append(after);
  return s;
}

const std::vector<std::string>& malformed_utf8() {
  static const std::vector<std::string> v = {
      "\xC0\x80", "\xC1\xBF",                  // overlong 2-byte
      "\xE0\x80\x80", "\xE0\x9F\xBF",          // overlong 3-byte
      "\xF0\x80\x80\x80", "\xF0\x8F\xBF\xBF",  // overlong 4-byte
      "\xED\xA0\x80", "\xED\xBF\xBF",          // surrogates
      "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xF8", "\xFF",  // above U+10FFFF, bad leads
      "\x80", "\xBF", "\x80\x80",              // stray continuation bytes
      "\xC3", "\xE3\x81", "\xF0\x9F\x98",      // truncated
      std::string(1, '\0'),                    // NUL
  };
  return v;
}

}  // namespace pgcodec::harness
