#include "inputs.hpp"

#include <algorithm>
#include <vector>

#include "core/generators.hpp"

namespace pgcodec::props {
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

// One piece from the encoding's edge list (harness/core edge_pieces),
// inserted at one of the character boundaries `starts` of s (drawn).
void insert_edge_piece(std::string& s, const std::vector<std::size_t>& starts, Encoding e, bool decoding) {
  const std::string piece = *rc::gen::elementOf(harness::edge_pieces(e, decoding));
  s.insert(starts[*rc::gen::inRange<std::size_t>(0, starts.size())], piece);
}

}  // namespace

rc::Gen<std::string> valid_bytes_in(Encoding e) {
  const harness::Repertoire& p = harness::repertoire(e);
  return concat(rc::gen::weightedOneOf<std::string>({
      {3, ascii_run()},
      {4, one_of(p.chars, "a")},
      {2, one_of(p.chars_edges, "a")},
      {1, one_of(p.kernel_edges, "a")},
  }));
}

rc::Gen<std::string> well_formed_bytes_in(Encoding e) {
  const harness::Repertoire& p = harness::repertoire(e);
  return concat(rc::gen::weightedOneOf<std::string>({
      {3, ascii_run()},
      {3, one_of(p.chars, "a")},
      {1, one_of(p.chars_edges, "a")},
      {1, one_of(p.unmapped, "a")},
      {1, one_of(p.past_ends, "a")},
      {2, one_of(p.ascii_trails, "a")},
  }));
}

rc::Gen<std::string> bytes_in(Encoding e) {
  const harness::Repertoire& p = harness::repertoire(e);
  auto truncated = rc::gen::map(one_of(p.chars, "a"), [](std::string s) {
    return s.size() > 1 ? s.substr(0, s.size() - 1) : s;
  });
  return concat(rc::gen::weightedOneOf<std::string>({
      {3, ascii_run()},
      {4, one_of(p.chars, "a")},
      {2, one_of(p.chars_edges, "a")},
      {2, one_of(p.kernel_edges, "a")},
      {1, one_of(p.unmapped, "\x80")},
      {1, one_of(p.past_ends, "\x80")},
      {1, one_of(p.run_handovers, "a")},
      {1, one_of(p.ascii_trails, "\x80")},
      {1, one_of(p.grammar_edges, "\x80")},
      {1, rc::gen::map(rc::gen::inRange<int>(0x80, 0x100),
                       [](int b) { return std::string(1, static_cast<char>(b)); })},
      {1, truncated},
      {1, rc::gen::just(std::string(1, '\0'))},
  }));
}

rc::Gen<std::string> utf8_for(Encoding e) {
  const harness::Repertoire& p = harness::repertoire(e);
  return concat(rc::gen::weightedOneOf<std::string>({
      {3, ascii_run()},
      {4, one_of(p.text, "a")},
      {2, one_of(p.text_edges, "a")},
      {2, one_of(p.kernel_text_edges, "a")},
      {1, one_of(p.overlongs, "\xC0\x80")},
      {1, one_of(p.past_ends_text, "a")},
      {1, one_of(p.run_handovers_text, "a")},
      {1, one_of(p.foreign, "a")},
      {1, rc::gen::elementOf(harness::malformed_utf8())},
      {1, one_of(p.utf8_edges, "\x80")},
  }));
}

rc::Gen<std::string> text_in(Encoding e) {
  const harness::Repertoire& p = harness::repertoire(e);
  return concat(rc::gen::weightedOneOf<std::string>({
      {3, ascii_run()},
      {4, one_of(p.text, "a")},
      {2, one_of(p.text_edges, "a")},
      {1, one_of(p.kernel_text_edges, "a")},
      {1, one_of(p.run_handovers_text, "a")},
  }));
}

rc::Gen<std::string> script_run(Encoding e, bool decoding, bool with_error) {
  const harness::Repertoire& p = harness::repertoire(e);
  if (p.scripts.empty()) return decoding ? valid_bytes_in(e) : text_in(e);
  return rc::gen::exec([&p, e, decoding, with_error] {
    const auto& script = *rc::gen::elementOf(p.scripts);
    const std::vector<std::string>& chars = decoding ? script.chars : script.text;
    const std::size_t want = *rc::gen::inRange<std::size_t>(128, 400);
    // Prose or a solid block: a space every few characters, or none.
    const std::size_t space_every = *rc::gen::element<std::size_t>(0, 0, 5, 9);
    std::string s;
    std::vector<std::size_t> starts;  // character boundaries
    for (std::size_t k = 0; s.size() < want; ++k) {
      starts.push_back(s.size());
      if (space_every && k % space_every == space_every - 1) s += ' ';
      s += chars[*rc::gen::inRange<std::size_t>(0, chars.size())];
    }
    starts.push_back(s.size());
    if (with_error) insert_edge_piece(s, starts, e, decoding);
    return s;
  });
}

namespace {

// At least `want` bytes of p's characters of every length, edge characters
// among them, and single ASCII characters; `starts` gets each character's
// offset and the end. Drawn inside rc::gen::exec.
std::string dense_chars(const harness::Repertoire& p, bool decoding, std::size_t want,
                        std::vector<std::size_t>& starts) {
  const std::vector<std::string>& chars = decoding ? p.chars : p.text;
  const std::vector<std::string>& edges = decoding ? p.chars_edges : p.text_edges;
  const std::vector<std::string>& handovers = decoding ? p.run_handovers : p.run_handovers_text;
  std::string s;
  while (s.size() < want) {
    starts.push_back(s.size());
    const int kind = *rc::gen::inRange(0, 10);
    if (kind < 2 || chars.empty()) {
      s += static_cast<char>(*rc::gen::inRange<int>(0x20, 0x7F));  // a space, a letter, punctuation
    } else if (kind < 4 && !edges.empty()) {
      s += *rc::gen::elementOf(edges);
    } else if (kind == 4 && !handovers.empty()) {
      s += *rc::gen::elementOf(handovers);
    } else {
      s += *rc::gen::elementOf(chars);
    }
  }
  starts.push_back(s.size());
  return s;
}

}  // namespace

rc::Gen<std::string> dense_text(Encoding e, bool decoding) {
  const harness::Repertoire& p = harness::repertoire(e);
  return rc::gen::exec([&p, e, decoding] {
    std::vector<std::size_t> starts;
    std::string s = dense_chars(p, decoding, *rc::gen::inRange<std::size_t>(96, 400), starts);
    if (*rc::gen::arbitrary<bool>()) insert_edge_piece(s, starts, e, decoding);
    return s;
  });
}

rc::Gen<std::string> piece_at_block_edge(Encoding e, bool decoding) {
  const harness::Repertoire& p = harness::repertoire(e);
  return rc::gen::exec([&p, e, decoding] {
    std::vector<std::size_t> starts;
    std::string s = dense_chars(p, decoding, *rc::gen::inRange<std::size_t>(160, 800), starts);
    // 64 k + d for a block k of the text, d in -4..4: the first character
    // boundary there or after.
    const std::size_t k = *rc::gen::inRange<std::size_t>(1, s.size() / 64 + 1);
    const std::size_t at = 64 * k - 4 + *rc::gen::inRange<std::size_t>(0, 9);
    const std::size_t start = *std::lower_bound(starts.begin(), starts.end(), std::min(at, s.size()));
    // NUL a third of the time: the one error of every encoding, what the
    // copying kernels look for; else any edge piece.
    const std::string piece = *rc::gen::weightedOneOf<std::string>(
        {{1, rc::gen::just(std::string(1, '\0'))}, {2, rc::gen::elementOf(harness::edge_pieces(e, decoding))}});
    s.insert(start, piece);
    return s;
  });
}

}  // namespace pgcodec::props
