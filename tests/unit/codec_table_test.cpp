// The one row per encoding (src/codec_table.cpp): order, and agreement with
// the registry's facts it does not repeat.
#include "codec_table.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "pgcodec/codec.hpp"
#include "pgcodec/encoding.hpp"

namespace {

using pgcodec::Encoding;
using pgcodec::detail::codec_row;
using pgcodec::detail::Grammar;

TEST(CodecTable, OneRowPerEncodingInPgEncOrder) {
  ASSERT_EQ(pgcodec::detail::codec_table.size(), static_cast<std::size_t>(pgcodec::encoding_count));
  for (const auto& inf : pgcodec::encodings()) {
    const auto& row = codec_row(inf.id);
    EXPECT_EQ(row.encoding, inf.id) << inf.name;
    EXPECT_EQ(&pgcodec::codec(inf.id), &pgcodec::codec(inf.id));
    EXPECT_EQ(pgcodec::codec(inf.id).encoding(), inf.id);
  }
}

TEST(CodecTable, FamilyGrammarAndTablesAgree) {
  for (const auto& inf : pgcodec::encodings()) {
    const auto& row = codec_row(inf.id);
    const bool identity = inf.id == Encoding::UTF8 || inf.id == Encoding::SQL_ASCII;
    // The single-byte grammar is exactly the one-byte encodings'.
    EXPECT_EQ(row.grammar == Grammar::single_byte, inf.max_char_length == 1) << inf.name;
    if (identity) {
      EXPECT_EQ(row.ops, &pgcodec::detail::utf8_ops) << inf.name;
    } else if (inf.max_char_length == 1) {
      EXPECT_EQ(row.ops, &pgcodec::detail::single_byte_ops) << inf.name;
    } else {
      EXPECT_EQ(row.ops, &pgcodec::detail::multibyte_ops) << inf.name;
    }
    // Exactly the family's own shared tables.
    EXPECT_EQ(row.tables.single_byte != nullptr, row.ops == &pgcodec::detail::single_byte_ops)
        << inf.name;
    EXPECT_EQ(row.tables.multibyte != nullptr, row.ops == &pgcodec::detail::multibyte_ops)
        << inf.name;
  }
}

TEST(CodecTable, OutOfRangeIsSqlAscii) {
  const auto bogus = static_cast<Encoding>(200);
  EXPECT_EQ(codec_row(bogus).encoding, Encoding::SQL_ASCII);
  EXPECT_EQ(pgcodec::codec(bogus).encoding(), Encoding::SQL_ASCII);
}

}  // namespace

namespace {

// The rows' tables are constant data (tables/dense.hpp): the same object from
// every thread, with no first use to race on.
TEST(CodecTable, DenseTablesAreConstantData) {
  for (const auto& inf : pgcodec::encodings()) {
    const auto& row = codec_row(inf.id);
    std::vector<const void*> seen(4, nullptr);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < seen.size(); ++i)
      threads.emplace_back([&, i] {
        const auto& r = codec_row(inf.id);
        seen[i] = r.tables.single_byte ? static_cast<const void*>(r.tables.single_byte)
                                       : static_cast<const void*>(r.tables.multibyte);
      });
    for (auto& t : threads) t.join();
    for (const void* p : seen) EXPECT_EQ(p, seen[0]) << inf.name;
    if (row.tables.multibyte) {
      // Node 0 and row 0 are the empty ones every missing step lands on.
      for (unsigned b = 0; b < 256; ++b) EXPECT_EQ(row.tables.multibyte->nodes[b], 0) << inf.name;
      EXPECT_GT(row.tables.multibyte->rows[0].lo, row.tables.multibyte->rows[0].hi) << inf.name;
    }
  }
}

}  // namespace
