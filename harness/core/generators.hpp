// Inputs: the enumerations every exhaustive check walks, and the random
// strings (errors at random places) the string checks and live tests send.
#pragma once

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "pgcodec/encoding.hpp"

namespace pgcodec::harness {

// Every single byte, every two-byte sequence with a high lead byte, and the
// three- and four-byte spaces of EUC_JP, EUC_JIS_2004, EUC_TW, GB18030 and
// MULE_INTERNAL.
std::vector<std::string> decode_candidates(Encoding e);
// U+0001..U+10FFFF without the surrogates.
std::vector<std::uint32_t> all_code_points();
// Whether `s` is exactly one well-formed character of `e`.
bool single_char(Encoding e, std::string_view s);

// Random multi-character strings built from characters known to convert
// (`good`) and known to fail (`bad`), with ASCII between them: about 6 % of
// the characters are bad ones, 25 % of the rest ASCII. Strings meant for
// decoding are now and then cut short by a byte (`cut`); strings meant for
// encoding stay valid UTF-8 when `good` and `bad` are.
struct StringMaker {
  std::vector<std::string> good, bad;
  std::vector<std::string> make(std::mt19937_64& rng, std::size_t n, bool cut) const;
};

// A random byte string of 1..max_chars pieces for decoding: ASCII letters,
// characters from `chars` (byte codes, see tables/table.hpp), random high
// bytes, and now and then a NUL or any byte; most strings hold errors.
std::string random_bytes(std::mt19937& rng, const std::vector<std::uint32_t>& chars, std::size_t max_chars);
// Random UTF-8 text of 1..max_chars code points for encoding: ASCII
// letters, code points from `repertoire` (not empty), and now and then any
// code point.
std::string random_text(std::mt19937& rng, const std::vector<std::uint32_t>& repertoire, std::size_t max_chars);

// What the property suites and fuzzers make strings of, per encoding, from
// its tables (built once per encoding, at most a few thousand of each kind,
// spread over the table so row boundaries and the largest codes are in).
struct Repertoire {
  std::vector<std::string> chars;     // non-ASCII characters with a mapping, as bytes
  std::vector<std::string> unmapped;  // well-formed characters without one (may be empty)
  std::vector<std::string> text;      // UTF-8 of non-ASCII code points (and combined pairs) it encodes
  std::vector<std::string> foreign;   // UTF-8 of code points it cannot encode
  // Where bugs live, drawn more often than the rest: the first and last
  // code of every run, codes whose trail byte is ASCII's backslash, combined
  // pairs, the exceptions below and the largest codes (chars_edges as bytes,
  // text_edges as UTF-8).
  std::vector<std::string> chars_edges;
  std::vector<std::string> text_edges;
  // Well-formed two-byte characters, mapped or not, whose trail byte is
  // ASCII's '"', '\'' or '\\' (SJIS, BIG5, GBK, UHC, GB18030): where a
  // byte-wise scanner goes wrong.
  std::vector<std::string> ascii_trails;
  // The byte grammar's edges (core/byte_rules.hpp grammar_edges): valid and
  // invalid sequences at and just past each range of each position, in the
  // encoding (grammar_edges) and in UTF-8 (utf8_edges, for encoding).
  std::vector<std::string> grammar_edges;
  std::vector<std::string> utf8_edges;
  // The round-trip exceptions, enumerated from the whole table: code points
  // whose code decodes to something else (members of such pairs too), and
  // byte codes that encode back to another code or not at all.
  std::set<std::uint32_t> one_way;
  std::set<std::uint32_t> non_injective;
  // Code points PostgreSQL writes as bytes its own rules reject (EUC_TW's
  // CNS planes above 7, for one): a subset of one_way.
  std::set<std::uint32_t> writes_ill_formed;

  // What the kernels and fast paths are entered by, so that generated
  // input reaches each of their branches, not only by luck:
  // - scripts: the characters that round-trip, grouped by the lead byte of
  //   their UTF-8 (Cyrillic D0/D1, Greek CE/CF, kana E3, ...), as bytes in
  //   the encoding and as UTF-8: a long run of one group is what the
  //   64-byte block kernels take whole.
  // - kernel_edges (bytes) / kernel_text_edges (UTF-8): the first and last
  //   few characters of every class a lookup treats apart: codes of one,
  //   two, three and four bytes, and among the two-byte codes those that
  //   decode beyond the BMP or to two code points (a table of their own);
  //   code points by the length of their code.
  // - overlongs: over-long UTF-8 forms (C0/C1, E0 80..9F, F0 80..8F) of
  //   code points the encoding maps, which a fast path must not take.
  struct Script {
    std::vector<std::string> chars, text;  // same characters, same order
  };
  std::vector<Script> scripts;
  std::vector<std::string> kernel_edges;
  std::vector<std::string> kernel_text_edges;
  std::vector<std::string> overlongs;
  // Just outside each run of the tables: the well-formed codes one before
  // its first and one past its last that have no mapping (as bytes), and
  // the code points likewise (as UTF-8). A lookup that takes a run one too
  // far shows here.
  std::vector<std::string> past_ends;
  std::vector<std::string> past_ends_text;
  // GB18030's runs handed over: each run's last character, then the code
  // (run_handovers, bytes, mapped or not) or code point (run_handovers_text,
  // UTF-8, where it encodes) just past it, side by side; empty for every
  // other encoding. The fast loops (codecs/multibyte.cpp) try the run of
  // the last four-byte character first: a run taken a character too far
  // gives U+10000 after U+FFFF the code 84 31 A5 30.
  // Drawn on their own: among the thousands of edges they would be rare.
  std::vector<std::string> run_handovers;
  std::vector<std::string> run_handovers_text;
};
const Repertoire& repertoire(Encoding e);

// The block sizes the kernels step by (SSE2, AVX2, AVX-512).
inline constexpr std::size_t kBlockSizes[] = {16, 32, 64};

// Pieces worth putting where a kernel's block ends, for decoding (bytes in
// `e`) or encoding (UTF-8): leads cut off after 1..3 bytes, whole
// characters of every length, the grammar's edges, malformed UTF-8, trail
// bytes that look like ASCII, unmapped characters, the kernel edges.
const std::vector<std::string>& edge_pieces(Encoding e, bool decoding);

// `piece` starting exactly `offset` bytes into the input: ASCII up to the
// offset's remainder, then `filler` (a character, or empty for ASCII)
// repeated; after the piece, `after` repeated up to at least `tail` bytes
// (empty: the piece ends the input). Blocks start where the input does, so
// offsets 0..2*64+3 put the piece at every position relative to every
// block boundary.
std::string place(std::string_view piece, std::size_t offset, std::string_view filler, std::string_view after,
                  std::size_t tail);

// Every class of malformed UTF-8, to put inside otherwise valid text:
// overlong 2-, 3- and 4-byte forms, surrogates, above U+10FFFF, bad lead
// bytes, stray continuation bytes, truncated characters, NUL.
const std::vector<std::string>& malformed_utf8();

}  // namespace pgcodec::harness
