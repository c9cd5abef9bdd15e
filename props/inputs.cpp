#include "inputs.hpp"

#include <array>
#include <map>
#include <mutex>

#include "core/generators.hpp"
#include "core/model.hpp"
#include "core/text.hpp"
#include "tables/table.hpp"

namespace pgcodec::props {
namespace {

// At most this many pieces of each kind, spread evenly over the table so
// row boundaries and the largest codes are in.
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

Pieces build(Encoding e) {
  Pieces p;
  const harness::TableModel& m = harness::model(e);
  const detail::MappingTable& t = *detail::mapping_table(e);
  std::vector<std::string> chars, text;
  if (t.kind == detail::TableKind::Identity) {
    for (std::uint32_t cp : {0xE9u, 0x416u, 0x3042u, 0xFFFDu, 0x10000u, 0x1F600u, 0x10FFFFu})
      chars.push_back(harness::utf8(cp));
    text = chars;
  } else {
    for (const auto& [code, cp] : harness::decoded_codes(t)) {
      if (code < 0x80) continue;
      std::string b;
      detail::append_code(b, code);
      chars.push_back(b);
    }
    for (const auto& pr : t.decode_pairs) {
      std::string b;
      detail::append_code(b, pr.code);
      chars.push_back(b);
      text.push_back(harness::utf8(pr.cp1) + harness::utf8(pr.cp2));
    }
    for (const detail::Run& r : t.encode)
      for (std::uint32_t k = 0; k < r.length; ++k)
        if (r.cp + k >= 0x80) text.push_back(harness::utf8(r.cp + k));
    for (const detail::LinearRun& r : t.encode_linear)
      for (std::uint32_t k = 0; k < r.length; k += 97) text.push_back(harness::utf8(r.cp + k));
  }
  p.chars = spread(chars);
  p.text = spread(text);
  // Well-formed characters without a mapping: single high bytes and
  // two-byte codes the model does not decode (they exist only in some
  // encodings).
  for (std::uint32_t b = 0x80; b < 0x100 && p.unmapped.size() < 64; ++b) {
    const std::string s(1, static_cast<char>(b));
    if (harness::single_char(e, s) && !m.decode_code(b)) p.unmapped.push_back(s);
  }
  for (std::uint32_t code = 0x8140; code < 0xFFFF && p.unmapped.size() < 128; code += 7) {
    std::string s;
    detail::append_code(s, code);
    if (harness::single_char(e, s) && !m.decode_code(code)) p.unmapped.push_back(s);
  }
  for (std::uint32_t cp : {0x20ACu, 0x3042u, 0x4E00u, 0xAC00u, 0x1F600u, 0x10FFFFu, 0xE000u, 0x0100u})
    if (!m.encode_code_point(cp)) p.foreign.push_back(harness::utf8(cp));
  return p;
}

}  // namespace

const Pieces& pieces(Encoding e) {
  static std::mutex mu;
  static std::map<Encoding, Pieces> cache;
  std::lock_guard lock(mu);
  auto it = cache.find(e);
  if (it == cache.end()) it = cache.emplace(e, build(e)).first;
  return it->second;
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

namespace {

rc::Gen<std::string> ascii_run() {
  return rc::gen::map(rc::gen::container<std::string>(rc::gen::inRange<char>(0x01, 0x7F)),
                      [](std::string s) { return s.empty() ? std::string("a") : s; });
}

rc::Gen<std::string> one_of(const std::vector<std::string>& v, const std::string& fallback) {
  if (v.empty()) return rc::gen::just(fallback);
  return rc::gen::elementOf(v);
}

rc::Gen<std::string> concat(rc::Gen<std::string> piece) {
  return rc::gen::map(rc::gen::container<std::vector<std::string>>(std::move(piece)),
                      [](const std::vector<std::string>& parts) {
                        std::string s;
                        for (const auto& x : parts) s += x;
                        return s;
                      });
}

}  // namespace

rc::Gen<std::string> valid_bytes_in(Encoding e) {
  const Pieces& p = pieces(e);
  return concat(rc::gen::weightedOneOf<std::string>({
      {3, ascii_run()},
      {6, one_of(p.chars, "a")},
  }));
}

rc::Gen<std::string> bytes_in(Encoding e) {
  const Pieces& p = pieces(e);
  auto truncated = rc::gen::map(one_of(p.chars, "a"), [](std::string s) {
    return s.size() > 1 ? s.substr(0, s.size() - 1) : s;
  });
  return concat(rc::gen::weightedOneOf<std::string>({
      {3, ascii_run()},
      {6, one_of(p.chars, "a")},
      {1, one_of(p.unmapped, "\x80")},
      {1, rc::gen::map(rc::gen::inRange<int>(0x80, 0x100),
                       [](int b) { return std::string(1, static_cast<char>(b)); })},
      {1, truncated},
      {1, rc::gen::just(std::string(1, '\0'))},
  }));
}

rc::Gen<std::string> utf8_for(Encoding e) {
  const Pieces& p = pieces(e);
  return concat(rc::gen::weightedOneOf<std::string>({
      {3, ascii_run()},
      {6, one_of(p.text, "a")},
      {1, one_of(p.foreign, "a")},
      {1, rc::gen::elementOf(malformed_utf8())},
  }));
}

}  // namespace pgcodec::props
