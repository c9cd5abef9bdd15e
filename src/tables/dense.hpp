// The library's mapping data: dense, constant-time forms of the run tables
// (table.hpp), written by tools/gentables as constant arrays
// (src/tables/generated/dense/*.cpp) that live in .rodata. Nothing is built
// at run time: no first-use cost, no allocation, no lock, and the pages are
// shared between processes. The run tables themselves stay outside the
// library (target pgcodec_runs): the table model and the tests read them,
// and gentables --check-dense proves the two forms equal for every code and
// every code point.
//
// Every lookup here is O(1): a few array reads and no search (the 25
// combined pairs excepted: a binary search over those 25).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "kernels/single_byte.hpp"
#include "tables/table.hpp"

namespace pgcodec::detail {

// ---------------------------------------------------------------------------
// Single-byte encodings

struct SingleByteDense {
  // UTF-8 of bytes 0x80..0xFF: bytes [0..2], length in [3]; length 0: unmapped.
  // Every mapping is in the BMP, so three bytes suffice.
  char decode[128][4];
  // Encoding: BMP page (cp >> 8) -> page number + 1 (0: no page), and the
  // pages of 256 bytes (0: unmapped). ASCII is the identity and not stored.
  std::uint8_t page_of[256];
  const std::uint8_t (*pages)[256];
  // The same mapping as the block kernels look it up.
  const kernels::SingleBytePlanes* planes;
  // The decoding of every byte as a code point, ASCII included (0: NUL or
  // unmapped), for decoding into code units without a UTF-8 step or a
  // branch on ASCII.
  char16_t code_point[256];
};

// The byte of code point cp (>= 0x80), or 0 when it has none.
// The lookups below read through small views of the tables: the pointers
// they need, which the conversion loops copy into locals once per call (a
// store through char* may alias anything, so a lookup through the table
// object would reload them after every byte written).
struct SingleBytePages {
  const std::uint8_t* page_of;
  const std::uint8_t (*pages)[256];
  // The byte of code point cp (>= 0x80), or 0 when it has none.
  std::uint8_t operator()(std::uint32_t cp) const noexcept {
    if (cp >= 0x10000) return 0;
    const std::uint8_t page = page_of[cp >> 8];
    return page ? pages[page - 1u][cp & 0xFF] : std::uint8_t{0};
  }
};

inline std::uint8_t single_byte_encode(const SingleByteDense& d, std::uint32_t cp) noexcept {
  return SingleBytePages{d.page_of, d.pages}(cp);
}

// ---------------------------------------------------------------------------
// Multibyte encodings

// A decode value (uint16): 0 no mapping; kWideFirst.. kWideFirst + 0x7FF an
// index into `wide` (a code point beyond the BMP, or two code points);
// otherwise the code point itself. The escape range is the surrogates, which
// no code decodes to.
inline constexpr std::uint16_t kWideFirst = 0xD800;
inline constexpr std::uint16_t kWideEnd = 0xE000;

// The last byte's slice of one prefix: values[base + b] for lo <= b <= hi, where
// base is the slice's offset in values minus lo, modulo 2^32 (one addition
// per lookup). An empty row has lo > hi.
struct DecodeRow {
  std::uint32_t base;
  std::uint8_t lo, hi;
};

// A decode entry that does not fit a uint16 value; cp2 is 0 for one code point.
struct WideChar {
  std::uint32_t cp1, cp2;
};

// Encode pages: page_of[cp >> 8] (cp >> 8 < page_count) is 0 (none) or page
// number + 1; a page holds 256 uint16 entries: 0 no mapping, kWideCodeFirst..
// 0x7FFF an index (from kWideCodeFirst) into wide_codes, the three- and
// four-byte codes; otherwise the code itself (one byte, or two bytes, whose
// lead is >= 0x80: no code falls in the escape range).
inline constexpr std::uint16_t kWideCodeFirst = 0x0100;
inline constexpr std::uint16_t kWideCodeEnd = 0x8000;

// GB18030's four-byte ranges (PostgreSQL computes them, see table.hpp): the
// runs sorted by key (linear index for decoding, code point for encoding).
// Keys up to the end of the last run but one are indexed in blocks of 64:
// base[block] counts the runs starting before the block, bit k of
// mask[block] says a run starts at key block * 64 + k; a rank (popcount)
// gives the run. Keys beyond the blocks are in the last run or nowhere.
struct LinearIndex {
  const LinearRun* runs;
  std::uint32_t run_count;  // 0: the encoding has no such ranges
  const std::uint64_t* mask;
  const std::uint16_t* base;
  std::uint32_t block_count;
};

struct MultibyteDense {
  // Decoding. one: single high bytes 0x80..0xFF. two: the row of each lead
  // byte's two-byte codes (256 rows). nodes: 256-entry blocks of uint16,
  // node 0 all zero; root[len] is the node of a code's first byte for codes
  // of len bytes (len 3, 4), each further byte but the last steps to the
  // next node, and the entry for the last-but-one byte is an index into rows
  // (row 0 empty).
  const std::uint16_t* one;
  const DecodeRow* two;
  std::uint16_t root[5];
  const std::uint16_t* nodes;
  const DecodeRow* rows;
  const std::uint16_t* values;
  const WideChar* wide;
  // Decoding of GB18030 four-byte codes (key: linear index).
  LinearIndex decode_linear;

  // Encoding.
  const std::uint16_t* page_of;
  std::uint32_t page_count;
  const std::uint16_t* pages;  // 256 entries each
  const std::uint32_t* wide_codes;
  // (cp1, cp2) -> code, sorted by (cp1, cp2): EUC_JIS_2004 and
  // SHIFT_JIS_2004's combined characters (25 each).
  const Pair* pairs;
  std::uint32_t pair_count;
  // Encoding of GB18030 four-byte codes (key: code point).
  LinearIndex encode_linear;
};

// The value for the last byte `b` of a code whose prefix reached row `r`.
inline std::uint16_t dense_row_value(const MultibyteDense& d, const DecodeRow& r,
                                     unsigned b) noexcept {
  return b >= r.lo && b <= r.hi ? d.values[static_cast<std::uint32_t>(r.base + b)]
                                : std::uint16_t{0};
}

// Two-byte codes (see the views above SingleBytePages).
struct TwoByteRows {
  const DecodeRow* two;
  const std::uint16_t* values;
  // The decode value of the two bytes p0 p1 (any two bytes; see kWideFirst).
  std::uint16_t operator()(unsigned p0, unsigned p1) const noexcept {
    const DecodeRow& r = two[p0 & 0xFF];
    return p1 >= r.lo && p1 <= r.hi ? values[static_cast<std::uint32_t>(r.base + p1)]
                                    : std::uint16_t{0};
  }
};

// Three-byte codes: `first` is the node of their first byte (root[3]; node
// 0, all zero, where the encoding has none, so any three bytes may be
// passed and give 0).
struct ThreeByteCodes {
  const std::uint16_t* first;
  const std::uint16_t* nodes;
  const DecodeRow* rows;
  const std::uint16_t* values;
  explicit ThreeByteCodes(const MultibyteDense& d) noexcept
      : first(d.nodes + d.root[3] * 256u), nodes(d.nodes), rows(d.rows), values(d.values) {}
  // The decode value of the three bytes p0 p1 p2 (see kWideFirst).
  std::uint16_t operator()(unsigned p0, unsigned p1, unsigned p2) const noexcept {
    const DecodeRow& r = rows[nodes[first[p0 & 0xFF] * 256u + (p1 & 0xFF)]];
    return p2 >= r.lo && p2 <= r.hi ? values[static_cast<std::uint32_t>(r.base + p2)] : std::uint16_t{0};
  }
};

// The decode value of a two-byte code p0 p1 (see kWideFirst), for the
// decoder's fast path: any two bytes may be passed.
inline std::uint16_t dense_decode2(const MultibyteDense& d, unsigned p0, unsigned p1) noexcept {
  return TwoByteRows{d.two, d.values}(p0, p1);
}

// std::popcount without POPCNT (a baseline x86-64 build) is a call into
// libgcc, about 14 % of GB18030's four-byte encode (issue 26); inline
// arithmetic there instead.
inline std::uint32_t popcount64(std::uint64_t x) noexcept {
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
  return static_cast<std::uint32_t>(std::popcount(x));
#else
  x = x - ((x >> 1) & 0x5555555555555555u);
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  return static_cast<std::uint32_t>((x * 0x0101010101010101u) >> 56);
#endif
}

// The run holding `key`, or null (see LinearIndex).
template <class Key>
inline const LinearRun* linear_find(const LinearIndex& x, std::uint32_t key, Key key_of) noexcept {
  if (!x.run_count) return nullptr;
  std::uint32_t i = x.run_count - 1;
  if (const std::uint32_t block = key >> 6; block < x.block_count) {
    // Runs starting at or before key: those before the block and those in
    // it up to key.
    const std::uint64_t upto = x.mask[block] & (~std::uint64_t{0} >> (63 - (key & 63)));
    const std::uint32_t n = x.base[block] + popcount64(upto);
    if (!n) return nullptr;
    i = n - 1;
  }
  const LinearRun& r = x.runs[i];
  return key >= key_of(r) && key - key_of(r) < r.length ? &r : nullptr;
}

// The code point of GB18030's well-formed four-byte code `code` (computed
// from the runs, as PostgreSQL does); false when no run holds it.
inline bool dense_decode_linear(const MultibyteDense& d, std::uint32_t code, std::uint32_t& cp) noexcept {
  const std::uint32_t lin = gb18030_linear(code);
  const LinearRun* r = linear_find(d.decode_linear, lin, [](const LinearRun& x) { return x.linear; });
  if (!r) return false;
  cp = r->cp + (lin - r->linear);
  return true;
}

// The code points of the well-formed character p[0, len) (len 1..4, as the
// grammar measured it); false when it has no mapping. cp2 is 0 unless it
// decodes to two code points.
inline bool dense_decode(const MultibyteDense& d, const unsigned char* p, std::size_t len,
                         std::uint32_t& cp1, std::uint32_t& cp2) noexcept {
  std::uint16_t v = 0;
  switch (len) {
    case 1: v = p[0] >= 0x80 ? d.one[p[0] - 0x80u] : std::uint16_t{0}; break;
    case 2: v = dense_decode2(d, p[0], p[1]); break;
    case 3: v = ThreeByteCodes(d)(p[0], p[1], p[2]); break;
    default: {
      if (d.decode_linear.run_count) {
        cp2 = 0;
        return dense_decode_linear(d, (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) |
                                          (std::uint32_t{p[2]} << 8) | p[3],
                                   cp1);
      }
      const std::uint16_t n1 = d.nodes[d.root[4] * 256u + p[0]];
      const std::uint16_t n2 = d.nodes[n1 * 256u + p[1]];
      v = dense_row_value(d, d.rows[d.nodes[n2 * 256u + p[2]]], p[3]);
      break;
    }
  }
  if (!v) return false;
  if (v >= kWideFirst && v < kWideEnd) {
    const WideChar& w = d.wide[v - kWideFirst];
    cp1 = w.cp1;
    cp2 = w.cp2;
    return true;
  }
  cp1 = v;
  cp2 = 0;
  return true;
}

// The byte code of cp from the pages alone (no GB18030 ranges), 0 if none.
// Encode pages (see the views above SingleBytePages).
struct CodePages {
  const std::uint16_t* page_of;
  std::uint32_t page_count;
  const std::uint16_t* pages;
  // The page entry of cp (see kWideCodeFirst): 0 none, else a code of one
  // or two bytes, or an index into wide_codes.
  std::uint16_t operator()(std::uint32_t cp) const noexcept {
    const std::uint32_t pg = cp >> 8;
    if (pg >= page_count) return 0;
    const std::uint16_t e = page_of[pg];
    return e ? pages[(e - 1u) * 256u + (cp & 0xFF)] : std::uint16_t{0};
  }
};

// The four-byte code of code point cp in GB18030's runs (computed, as
// PostgreSQL does); false when no run holds it (or the encoding has none).
inline bool dense_encode_linear(const MultibyteDense& d, std::uint32_t cp, std::uint32_t& code) noexcept {
  const LinearRun* r = linear_find(d.encode_linear, cp, [](const LinearRun& x) { return x.cp; });
  if (!r) return false;
  code = gb18030_code(r->linear + (cp - r->cp));
  return true;
}

// The byte code of code point cp (>= 0x80) whose page entry (CodePages) is
// v, for a caller that has read it; false when it has none.
inline bool dense_encode_entry(const MultibyteDense& d, std::uint32_t cp, std::uint16_t v,
                               std::uint32_t& code) noexcept {
  if (v) {
    code = v >= kWideCodeFirst && v < kWideCodeEnd ? d.wide_codes[v - kWideCodeFirst] : v;
    return true;
  }
  return dense_encode_linear(d, cp, code);
}

// The byte code of code point cp (>= 0x80); false when it has none.
inline bool dense_encode(const MultibyteDense& d, std::uint32_t cp, std::uint32_t& code) noexcept {
  return dense_encode_entry(d, cp, CodePages{d.page_of, d.page_count, d.pages}(cp), code);
}

// The code of the combined character (cp1, cp2); false when there is none.
inline bool dense_encode_pair(const MultibyteDense& d, std::uint32_t cp1, std::uint32_t cp2,
                              std::uint32_t& code) noexcept {
  std::uint32_t lo = 0, hi = d.pair_count;
  while (lo < hi) {  // a handful of entries
    const std::uint32_t mid = (lo + hi) / 2;
    const Pair& p = d.pairs[mid];
    if (p.cp1 < cp1 || (p.cp1 == cp1 && p.cp2 < cp2))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < d.pair_count && d.pairs[lo].cp1 == cp1 && d.pairs[lo].cp2 == cp2) {
    code = d.pairs[lo].code;
    return true;
  }
  return false;
}

}  // namespace pgcodec::detail
