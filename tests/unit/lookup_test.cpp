// One-character lookups over the generated run tables (src/tables/lookup.cpp):
// every entry of every table is found, and gaps are not; and the library's
// dense tables (src/tables/dense.hpp) agree with them at every run's edges
// (pgcodec-gentables --check-dense, test Tables.DenseMatchesRuns, compares
// every code and code point).
#include "tables/lookup.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "codec_table.hpp"
#include "pgcodec/encoding.hpp"
#include "rules/grammar.hpp"
#include "rules/utf8.hpp"
#include "tables/dense.hpp"
#include "tables/table.hpp"

namespace {

using namespace pgcodec::detail;

TEST(Lookup, EveryRunEntryBothWays) {
  for (const auto& inf : pgcodec::encodings()) {
    const MappingTable* t = mapping_table(inf.id);
    ASSERT_NE(t, nullptr) << inf.name;
    for (const pgcodec::detail::Run& r : t->decode) {
      for (std::uint32_t k = 0; k < r.length; k += 1 + r.length / 64) {
        std::uint32_t cp1 = 0, cp2 = 1;
        ASSERT_TRUE(lookup_decode(*t, r.code + k, cp1, cp2)) << inf.name << " " << r.code + k;
        EXPECT_EQ(cp1, r.cp + k);
        EXPECT_EQ(cp2, 0u);
      }
    }
    for (const pgcodec::detail::Run& r : t->encode) {
      for (std::uint32_t k = 0; k < r.length; k += 1 + r.length / 64) {
        std::uint32_t code = 0;
        ASSERT_TRUE(lookup_encode(*t, r.cp + k, code)) << inf.name << " U+" << r.cp + k;
        EXPECT_EQ(code, r.code + k);
      }
    }
    for (const Pair& p : t->decode_pairs) {
      std::uint32_t cp1 = 0, cp2 = 0;
      ASSERT_TRUE(lookup_decode(*t, p.code, cp1, cp2)) << inf.name;
      EXPECT_EQ(cp1, p.cp1);
      EXPECT_EQ(cp2, p.cp2);
    }
    for (const Pair& p : t->encode_pairs) {
      std::uint32_t code = 0;
      ASSERT_TRUE(lookup_encode_pair(*t, p.cp1, p.cp2, code)) << inf.name;
      EXPECT_EQ(code, p.code);
    }
    for (const LinearRun& r : t->encode_linear) {
      std::uint32_t code = 0;
      ASSERT_TRUE(lookup_encode(*t, r.cp, code)) << inf.name;
      EXPECT_EQ(gb18030_linear(code), r.linear);
      std::uint32_t cp1 = 0, cp2 = 0;
      ASSERT_TRUE(lookup_decode(*t, code, cp1, cp2)) << inf.name;
      EXPECT_EQ(cp1, r.cp);
    }
  }
}

TEST(Lookup, GapsHaveNoMapping) {
  const MappingTable& t = *mapping_table(pgcodec::Encoding::WIN1252);
  std::uint32_t cp1 = 0, cp2 = 0, code = 0;
  EXPECT_FALSE(lookup_decode(t, 0x81, cp1, cp2));  // WIN1252 0x81 is unassigned
  EXPECT_FALSE(lookup_encode(t, 0x4E00, code));    // no CJK in WIN1252
  EXPECT_FALSE(lookup_encode_pair(t, 0x41, 0x300, code));
}

// What the dense tables say about a byte code: cp2 is 0 unless two code points.
bool dense_lookup(pgcodec::Encoding e, std::uint32_t code, std::uint32_t& cp1,
                  std::uint32_t& cp2) {
  const CodecRow& row = codec_row(e);
  if (const SingleByteDense* s = row.tables.single_byte) {
    if (code < 0x80 || code > 0xFF || !s->decode[code - 0x80][3]) return false;
    const char* u = s->decode[code - 0x80];
    cp1 = utf8_decode_multibyte(reinterpret_cast<const unsigned char*>(u),
                                static_cast<std::size_t>(u[3]));
    cp2 = 0;
    return true;
  }
  unsigned char b[4];
  const std::size_t n = write_code(reinterpret_cast<char*>(b), code);
  return dense_decode(*row.tables.multibyte, b, n, cp1, cp2);
}

bool dense_encode_cp(pgcodec::Encoding e, std::uint32_t cp, std::uint32_t& code) {
  const CodecRow& row = codec_row(e);
  if (const SingleByteDense* s = row.tables.single_byte) {
    code = single_byte_encode(*s, cp);
    return code != 0;
  }
  return dense_encode(*row.tables.multibyte, cp, code);
}

// Both forms agree on `code` (decoding) and `cp` (encoding).
void expect_same(pgcodec::Encoding e, std::uint32_t code, std::uint32_t cp) {
  const MappingTable& t = *mapping_table(e);
  std::uint32_t r1 = 0, r2 = 0, d1 = 0, d2 = 0;
  if (code >= 0x80) {
    const bool runs = lookup_decode(t, code, r1, r2);
    EXPECT_EQ(runs, dense_lookup(e, code, d1, d2)) << static_cast<int>(e) << " code " << code;
    if (runs) {
      EXPECT_EQ(r1, d1) << static_cast<int>(e) << " code " << code;
      EXPECT_EQ(r2, d2) << static_cast<int>(e) << " code " << code;
    }
  }
  if (cp >= 0x80 && cp < 0x110000) {
    std::uint32_t rc = 0, dc = 0;
    const bool runs = lookup_encode(t, cp, rc);
    EXPECT_EQ(runs, dense_encode_cp(e, cp, dc)) << static_cast<int>(e) << " U+" << cp;
    if (runs) {
      EXPECT_EQ(rc, dc) << static_cast<int>(e) << " U+" << cp;
    }
  }
}

// The multibyte decoders' fast loop (src/codecs/multibyte.cpp decode_to)
// takes a three-byte code with a table entry as one character without the
// grammar: every such entry must be a sequence the grammar accepts as one
// character of exactly three bytes.
TEST(Dense, ThreeByteEntriesAreWholeCharacters) {
  std::size_t entries = 0;
  for (const auto& inf : pgcodec::encodings()) {
    const MultibyteDense* d = codec_row(inf.id).tables.multibyte;
    if (!d || !d->root[3]) continue;
    for (unsigned b0 = 0; b0 < 256; ++b0) {
      const std::uint16_t next = d->nodes[d->root[3] * 256u + b0];
      if (!next) continue;
      for (unsigned b1 = 0; b1 < 256; ++b1) {
        const DecodeRow& row = d->rows[d->nodes[next * 256u + b1]];
        for (unsigned b2 = 0; b2 < 256; ++b2) {
          if (!dense_row_value(*d, row, b2)) continue;
          const unsigned char code[3] = {static_cast<unsigned char>(b0), static_cast<unsigned char>(b1),
                                         static_cast<unsigned char>(b2)};
          ASSERT_EQ(verify_char(inf.id, code, 3), 3) << inf.name << " " << b0 << " " << b1 << " " << b2;
          ++entries;
        }
      }
    }
  }
  EXPECT_GT(entries, 6000u);  // EUC_JP's JIS X 0212 alone has more
}

TEST(Dense, AgreesWithRunsAtEveryRunsEdges) {
  for (const auto& inf : pgcodec::encodings()) {
    const MappingTable* t = mapping_table(inf.id);
    const CodecRow& row = codec_row(inf.id);
    if (t->kind == TableKind::Identity) {
      EXPECT_EQ(row.tables.single_byte, nullptr);
      EXPECT_EQ(row.tables.multibyte, nullptr);
      continue;
    }
    for (const pgcodec::detail::Run& r : t->decode) {
      expect_same(inf.id, r.code - 1, 0);
      expect_same(inf.id, r.code, 0);
      expect_same(inf.id, r.code + r.length - 1, 0);
      expect_same(inf.id, r.code + r.length, 0);
    }
    for (const pgcodec::detail::Run& r : t->encode) {
      expect_same(inf.id, 0, r.cp - 1);
      expect_same(inf.id, 0, r.cp);
      expect_same(inf.id, 0, r.cp + r.length - 1);
      expect_same(inf.id, 0, r.cp + r.length);
    }
    for (const LinearRun& r : t->decode_linear) {
      for (std::uint32_t lin : {r.linear - 1, r.linear, r.linear + r.length - 1, r.linear + r.length})
        if (lin < 126u * 10 * 126 * 10) expect_same(inf.id, gb18030_code(lin), 0);
      expect_same(inf.id, 0, r.cp - 1);
      expect_same(inf.id, 0, r.cp);
      expect_same(inf.id, 0, r.cp + r.length - 1);
      expect_same(inf.id, 0, r.cp + r.length);
    }
    for (const Pair& p : t->decode_pairs) expect_same(inf.id, p.code, 0);
    if (row.tables.multibyte) {
      const MultibyteDense& d = *row.tables.multibyte;
      EXPECT_EQ(d.pair_count, t->encode_pairs.size()) << inf.name;
      for (const Pair& p : t->encode_pairs) {
        std::uint32_t code = 0;
        ASSERT_TRUE(dense_encode_pair(d, p.cp1, p.cp2, code)) << inf.name;
        EXPECT_EQ(code, p.code);
      }
      std::uint32_t code = 0;
      EXPECT_FALSE(dense_encode_pair(d, 0x41, 0x300, code)) << inf.name;
    }
  }
}

TEST(Dense, Gb18030FourByteRangesByArithmetic) {
  const MultibyteDense& d = *codec_row(pgcodec::Encoding::GB18030).tables.multibyte;
  std::uint32_t cp1 = 0, cp2 = 0, code = 0;
  const unsigned char first[] = {0x81, 0x30, 0x81, 0x30};  // linear 0
  ASSERT_TRUE(dense_decode(d, first, 4, cp1, cp2));
  EXPECT_EQ(cp1, 0x80u);
  const unsigned char supp[] = {0x90, 0x30, 0x81, 0x30};  // U+10000
  ASSERT_TRUE(dense_decode(d, supp, 4, cp1, cp2));
  EXPECT_EQ(cp1, 0x10000u);
  const unsigned char last[] = {0xE3, 0x32, 0x9A, 0x35};  // U+10FFFF
  ASSERT_TRUE(dense_decode(d, last, 4, cp1, cp2));
  EXPECT_EQ(cp1, 0x10FFFFu);
  const unsigned char beyond[] = {0xE3, 0x32, 0x9A, 0x36};
  EXPECT_FALSE(dense_decode(d, beyond, 4, cp1, cp2));
  const unsigned char gap[] = {0x84, 0x31, 0xA5, 0x30};  // after the BMP ranges
  EXPECT_FALSE(dense_decode(d, gap, 4, cp1, cp2));
  ASSERT_TRUE(dense_encode(d, 0x10FFFF, code));
  EXPECT_EQ(code, 0xE3329A35u);
  EXPECT_FALSE(dense_encode(d, 0x110000, code));
}

}  // namespace
