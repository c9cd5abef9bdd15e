// PostgreSQL's byte grammar as data, for the table model: per encoding, the
// byte patterns its well-formed characters match and the length its mblen
// gives a lead byte. Written from PostgreSQL 15's rules (src/common/wchar.c)
// as a list of byte ranges per position, in a different shape from the
// library's hand-coded checks (src/rules/), so that a mistake in one is not
// the other's: the model judges the library with this, never with
// src/rules/.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pgcodec/encoding.hpp"

namespace pgcodec::harness {

// The length of the well-formed character at the start of `s` (1 for any
// ASCII byte but NUL), or 0 when none starts there: NUL, a malformed or a
// truncated character. SQL_ASCII's own rule takes any byte but NUL (a UTF8
// server validates SQL_ASCII input as UTF8 besides: ask for Encoding::UTF8).
std::size_t well_formed_length(Encoding e, std::string_view s) noexcept;

// PostgreSQL's mblen for the lead byte s[0] (GB18030 also looks at s[1], as
// 0 when there is none): how many bytes an error message quotes, before
// the cap at the bytes left and at 8; 1 for SQL_ASCII.
std::size_t lead_length(Encoding e, std::string_view s) noexcept;

// For the generators: sequences at the edges of each character pattern,
// one position at a range's end or just past it (lo - 1, lo, hi, hi + 1),
// the others at the first or last value of theirs. Valid and invalid ones
// alike: where a range check off by one shows.
std::vector<std::string> grammar_edges(Encoding e);

// How many leading bytes of `s` are well-formed characters of `e`
// (PostgreSQL's verifystr): s.size() when all are.
std::size_t well_formed_prefix(Encoding e, std::string_view s) noexcept;

}  // namespace pgcodec::harness
