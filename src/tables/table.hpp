// The shape of the generated mapping tables (src/tables/generated/*.cpp, written by
// tools/gentables). A table holds only what the structural rules in
// src/rules/grammar.cpp cannot tell: which well-formed characters map, and to what.
// A well-formed character without an entry has no equivalent.
//
// These run tables are the facts; they live in target pgcodec_runs (the table
// model, the tests and the generator link it), not in the library, which
// carries their dense form (dense.hpp). The types and helpers below are
// header-only and shared by both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "pgcodec/encoding.hpp"

namespace pgcodec::detail {

// `length` consecutive byte codes from `code` map to consecutive code points
// from `cp` (or, in an encode table, the other way round). A byte code is the
// character's bytes read as a big-endian integer: 0xA4A2 is the two bytes
// A4 A2. Multibyte characters start with a byte >= 0x80, so the integer's
// magnitude gives the byte count.
struct Run {
  std::uint32_t code;
  std::uint32_t cp;
  std::uint32_t length;
};

// A character that decodes to two code points (EUC_JIS_2004, SHIFT_JIS_2004
// kana with a combining mark, and the like).
struct Pair {
  std::uint32_t code;
  std::uint32_t cp1;
  std::uint32_t cp2;
};

// Whether (cp1, cp2) is one of `pairs`: what the encoder's one-character
// lookahead looks for.
inline bool is_pair(std::span<const Pair> pairs, std::uint32_t cp1, std::uint32_t cp2) noexcept {
  for (const Pair& x : pairs)
    if (x.cp1 == cp1 && x.cp2 == cp2) return true;
  return false;
}

// GB18030's four-byte characters, which PostgreSQL computes from ranges rather
// than tabulating: `linear` counts four-byte codes from 81 30 81 30 in the
// encoding's own order (10 * 126 * 10 per lead byte).
struct LinearRun {
  std::uint32_t linear;
  std::uint32_t cp;
  std::uint32_t length;
};

enum class TableKind : std::uint8_t {
  Identity,  // UTF8 and SQL_ASCII: valid UTF-8 passes through unchanged
  Mapped,    // everything else: the runs below
};

struct MappingTable {
  Encoding encoding;
  TableKind kind;
  std::span<const Run> decode;          // sorted by code
  std::span<const Pair> decode_pairs;   // sorted by code
  std::span<const LinearRun> decode_linear;  // sorted by linear
  std::span<const Run> encode;          // run.cp -> run.code; sorted by cp
  std::span<const Pair> encode_pairs;   // (cp1, cp2) -> code; sorted by cp1, cp2
  std::span<const LinearRun> encode_linear;  // sorted by cp
  const char* source;                   // the server version the data came from
};

// The generated table of an encoding; never null once tables are generated.
// Defined in pgcodec_runs (generated/index.cpp), not in the library.
const MappingTable* mapping_table(Encoding e) noexcept;

// GB18030 four-byte codes <-> their linear index. The two halves of the
// code are independent sums (a shorter dependency chain than Horner's rule).
constexpr std::uint32_t gb18030_linear_of(std::uint32_t b1, std::uint32_t b2, std::uint32_t b3,
                                          std::uint32_t b4) noexcept {
  return ((b1 - 0x81) * 12600 + (b2 - 0x30) * 1260) + ((b3 - 0x81) * 10 + (b4 - 0x30));
}
constexpr std::uint32_t gb18030_linear(std::uint32_t code) noexcept {
  return gb18030_linear_of(code >> 24, (code >> 16) & 0xFF, (code >> 8) & 0xFF, code & 0xFF);
}
// The three quotients are taken from `linear` each, not one from the other,
// so that they do not wait for each other.
constexpr std::uint32_t gb18030_code(std::uint32_t linear) noexcept {
  const std::uint32_t q10 = linear / 10, q1260 = linear / 1260, q12600 = linear / 12600;
  const std::uint32_t b4 = linear - q10 * 10 + 0x30;
  const std::uint32_t b3 = q10 - q1260 * 126 + 0x81;
  const std::uint32_t b2 = q1260 - q12600 * 10 + 0x30;
  const std::uint32_t b1 = q12600 + 0x81;
  return (b1 << 24) | (b2 << 16) | (b3 << 8) | b4;
}

// The number of bytes of a byte code (see Run).
constexpr std::size_t code_length(std::uint32_t code) noexcept {
  return code > 0xFFFFFF ? 4 : code > 0xFFFF ? 3 : code > 0xFF ? 2 : 1;
}

// Stores the bytes of a byte code at out (code_length(code) of them) and
// returns how many.
inline std::size_t write_code(char* out, std::uint32_t code) noexcept {
  const std::size_t n = code_length(code);
  for (std::size_t k = 0; k < n; ++k) out[k] = static_cast<char>(code >> (8 * (n - 1 - k)));
  return n;
}

// Appends the bytes of a byte code (see Run).
inline void append_code(std::string& out, std::uint32_t code) {
  char b[4];
  out.append(b, write_code(b, code));
}

// The byte code of a character's bytes (at most 4).
inline std::uint32_t code_of(std::string_view bytes) {
  std::uint32_t c = 0;
  for (char b : bytes) c = (c << 8) | static_cast<unsigned char>(b);
  return c;
}

}  // namespace pgcodec::detail
