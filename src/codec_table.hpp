// THE table of encodings' codecs: one row per encoding, in pg_enc order, as
// PostgreSQL's pg_wchar_table (src/common/wchar.c) holds one row of mblen,
// verifier and maximum length per encoding. Every per-encoding fact the
// library needs is in its row or in its EncodingInfo (encoding.cpp), and
// nowhere else: the maximum character length is EncodingInfo's
// (detail::max_char_length reads it).
#pragma once

#include <array>

#include "codecs/codec_ops.hpp"
#include "pgcodec/encoding.hpp"
#include "rules/grammar.hpp"

namespace pgcodec::detail {

struct CodecRow {
  Encoding encoding;
  Grammar grammar;      // PostgreSQL's byte grammar (rules/grammar.cpp)
  const CodecOps* ops;  // the family (codecs/)
  FamilyTables tables;  // the family's shared tables, typed by family
};

extern const std::array<CodecRow, encoding_count> codec_table;

// The row of `e`; an out-of-range value gets SQL_ASCII's, as PostgreSQL's
// lookups fall back to SQL_ASCII.
inline const CodecRow& codec_row(Encoding e) noexcept {
  const auto i = static_cast<std::size_t>(e);
  return codec_table[i < codec_table.size() ? i : 0];
}

}  // namespace pgcodec::detail
