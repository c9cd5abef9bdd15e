// Unit tests for PostgreSQL's byte grammar (src/rules/grammar.cpp).
//
// Expected verdicts were taken from PostgreSQL 15's rules and spot-checked
// against a live 15.18 server with convert(bytes, enc, enc) / convert_from
// (SQLSTATE 22021 = rejected here; 22P05 or success = accepted here).
#include "rules/grammar.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

namespace {

using pgcodec::Encoding;
using pgcodec::detail::char_length;
using pgcodec::detail::max_char_length;
using pgcodec::detail::verify_char;
using pgcodec::detail::verify_prefix;

using Bytes = std::vector<unsigned char>;

Bytes B(std::initializer_list<unsigned> v) {
  Bytes out;
  out.reserve(v.size());
  for (unsigned x : v) out.push_back(static_cast<unsigned char>(x));
  return out;
}

// Each call gets a heap buffer of exactly the input's size, so that a
// sanitizer build catches any read past the end.
int VC(Encoding e, const Bytes& b) {
  Bytes exact(b);
  return verify_char(e, exact.empty() ? nullptr : exact.data(), exact.size());
}

std::size_t VP(Encoding e, const Bytes& b) {
  Bytes exact(b);
  return verify_prefix(e, exact.empty() ? nullptr : exact.data(), exact.size());
}

int CL(Encoding e, const Bytes& b) {
  Bytes exact(b);
  return char_length(e, exact.empty() ? nullptr : exact.data(), exact.size());
}

Encoding Enc(int i) { return static_cast<Encoding>(i); }

std::string Hex(const Bytes& b) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (unsigned char c : b) {
    s += digits[c >> 4];
    s += digits[c & 15];
    s += ' ';
  }
  return s;
}

bool IsSingleByte(Encoding e) {
  const int i = pgcodec::to_int(e);
  return i == 0 || (i >= 8 && i <= 34);
}

// The reference definition of verify_prefix: step verify_char until it fails.
std::size_t NaivePrefix(Encoding e, const Bytes& b) {
  std::size_t pos = 0;
  while (pos < b.size()) {
    const int n = verify_char(e, b.data() + pos, b.size() - pos);
    if (n < 0) break;
    pos += static_cast<std::size_t>(n);
  }
  return pos;
}

// ---------------------------------------------------------------------------
// Cross-encoding basics

// One statement of each maximum: the registry's (EncodingInfo, checked
// against a server's pg_encoding_max_length by tests/live/registry_live_test).
TEST(Grammar, MaxCharLengthIsTheRegistrys) {
  for (const auto& inf : pgcodec::encodings()) {
    EXPECT_EQ(max_char_length(inf.id), inf.max_char_length) << inf.name;
  }
  // PostgreSQL 15.18's value: EUC_CN sizes SS2/SS3 leads as 3 bytes.
  EXPECT_EQ(max_char_length(Encoding::EUC_CN), 3);
  EXPECT_EQ(max_char_length(Encoding::EUC_KR), 3);
  EXPECT_EQ(max_char_length(Encoding::GB18030), 4);
  EXPECT_EQ(max_char_length(Encoding::SJIS), 2);
}

TEST(Grammar, NulAndEmptyAreInvalidEverywhere) {
  for (int i = 0; i < pgcodec::encoding_count; ++i) {
    const Encoding e = Enc(i);
    SCOPED_TRACE(i);
    EXPECT_EQ(VC(e, B({})), -1);
    EXPECT_EQ(VC(e, B({0x00})), -1);
    EXPECT_EQ(VC(e, B({0x00, 0x41})), -1);
    EXPECT_EQ(VP(e, B({})), 0u);
    EXPECT_EQ(VP(e, B({0x00})), 0u);
    EXPECT_EQ(VP(e, B({'a', 'b', 0x00, 'c', 'd'})), 2u);
    EXPECT_EQ(CL(e, B({})), 0);
  }
}

TEST(Grammar, AsciiIsOneByteEverywhere) {
  for (int i = 0; i < pgcodec::encoding_count; ++i) {
    const Encoding e = Enc(i);
    for (unsigned c = 1; c < 0x80; ++c) {
      EXPECT_EQ(VC(e, B({c})), 1) << i << " " << c;
      EXPECT_EQ(CL(e, B({c})), 1) << i << " " << c;
    }
    Bytes all;
    for (unsigned c = 1; c < 0x80; ++c) all.push_back(static_cast<unsigned char>(c));
    EXPECT_EQ(VP(e, all), all.size()) << i;
  }
}

TEST(Grammar, OutOfRangeEncodingBehavesLikeSqlAscii) {
  const Encoding bogus = Enc(200);
  EXPECT_EQ(max_char_length(bogus), 1);
  EXPECT_EQ(VC(bogus, B({0xFF})), 1);
  EXPECT_EQ(CL(bogus, B({0x8E})), 1);
  EXPECT_EQ(VP(bogus, B({0x80, 0xFF, 0x00})), 2u);
}

// ---------------------------------------------------------------------------
// Single-byte encodings and SQL_ASCII

TEST(Grammar, SingleByteEveryNonZeroByteIsACharacter) {
  for (int i = 0; i < pgcodec::encoding_count; ++i) {
    const Encoding e = Enc(i);
    if (!IsSingleByte(e)) continue;
    Bytes all;
    for (unsigned c = 1; c < 256; ++c) {
      EXPECT_EQ(VC(e, B({c})), 1) << i << " " << c;
      EXPECT_EQ(VC(e, B({c, 0x00})), 1) << i << " " << c;
      EXPECT_EQ(CL(e, B({c})), 1);
      all.push_back(static_cast<unsigned char>(c));
    }
    EXPECT_EQ(VP(e, all), 255u) << i;
    all.push_back(0);
    all.push_back(0x41);
    EXPECT_EQ(VP(e, all), 255u) << i;
  }
}

TEST(Grammar, SingleByteSqlAsciiAcceptsHighBytes) {
  EXPECT_EQ(VP(Encoding::SQL_ASCII, B({0xC0, 0x80, 0xFF, 0xFE, 0x8E})), 5u);
  EXPECT_EQ(VC(Encoding::SQL_ASCII, B({0xE0, 0x80})), 1);
}

// ---------------------------------------------------------------------------
// UTF8

TEST(Grammar, Utf8WellFormed) {
  const Encoding u = Encoding::UTF8;
  EXPECT_EQ(VC(u, B({0x41})), 1);
  EXPECT_EQ(VC(u, B({0x7F})), 1);
  EXPECT_EQ(VC(u, B({0xC2, 0x80})), 2);
  EXPECT_EQ(VC(u, B({0xDF, 0xBF})), 2);
  EXPECT_EQ(VC(u, B({0xE0, 0xA0, 0x80})), 3);
  EXPECT_EQ(VC(u, B({0xE1, 0x80, 0x80})), 3);
  EXPECT_EQ(VC(u, B({0xED, 0x9F, 0xBF})), 3);  // U+D7FF, just below surrogates
  EXPECT_EQ(VC(u, B({0xEE, 0x80, 0x80})), 3);  // U+E000, just above
  EXPECT_EQ(VC(u, B({0xEF, 0xBF, 0xBF})), 3);  // U+FFFF (noncharacter, still valid)
  EXPECT_EQ(VC(u, B({0xF0, 0x90, 0x80, 0x80})), 4);
  EXPECT_EQ(VC(u, B({0xF3, 0xBF, 0xBF, 0xBF})), 4);
  EXPECT_EQ(VC(u, B({0xF4, 0x8F, 0xBF, 0xBF})), 4);  // U+10FFFF
  EXPECT_EQ(VC(u, B({0xC3, 0xA9, 0x41})), 2);        // extra bytes ignored
}

TEST(Grammar, Utf8Overlongs) {
  const Encoding u = Encoding::UTF8;
  EXPECT_EQ(VC(u, B({0xC0, 0x80})), -1);
  EXPECT_EQ(VC(u, B({0xC0, 0xAF})), -1);
  EXPECT_EQ(VC(u, B({0xC1, 0xBF})), -1);
  EXPECT_EQ(VC(u, B({0xE0, 0x80, 0x80})), -1);
  EXPECT_EQ(VC(u, B({0xE0, 0x9F, 0xBF})), -1);
  EXPECT_EQ(VC(u, B({0xF0, 0x80, 0x80, 0x80})), -1);
  EXPECT_EQ(VC(u, B({0xF0, 0x8F, 0xBF, 0xBF})), -1);
}

TEST(Grammar, Utf8SurrogatesAndTooLarge) {
  const Encoding u = Encoding::UTF8;
  EXPECT_EQ(VC(u, B({0xED, 0xA0, 0x80})), -1);  // U+D800
  EXPECT_EQ(VC(u, B({0xED, 0xBF, 0xBF})), -1);  // U+DFFF
  EXPECT_EQ(VC(u, B({0xF4, 0x90, 0x80, 0x80})), -1);  // U+110000
  EXPECT_EQ(VC(u, B({0xF5, 0x80, 0x80, 0x80})), -1);
  EXPECT_EQ(VC(u, B({0xF7, 0xBF, 0xBF, 0xBF})), -1);
  EXPECT_EQ(VC(u, B({0xF8, 0x88, 0x80, 0x80, 0x80})), -1);  // 5-byte form
  EXPECT_EQ(VC(u, B({0xFC, 0x84, 0x80, 0x80, 0x80, 0x80})), -1);
  EXPECT_EQ(VC(u, B({0xFE})), -1);
  EXPECT_EQ(VC(u, B({0xFF})), -1);
}

TEST(Grammar, Utf8StrayContinuationAndBadTrail) {
  const Encoding u = Encoding::UTF8;
  EXPECT_EQ(VC(u, B({0x80})), -1);
  EXPECT_EQ(VC(u, B({0xBF, 0x41})), -1);
  EXPECT_EQ(VC(u, B({0xC2, 0x41})), -1);
  EXPECT_EQ(VC(u, B({0xC2, 0xC0})), -1);
  EXPECT_EQ(VC(u, B({0xE1, 0x80, 0x41})), -1);
  EXPECT_EQ(VC(u, B({0xF1, 0x80, 0x80, 0xC0})), -1);
}

TEST(Grammar, Utf8TruncatedAndNulTrail) {
  const Encoding u = Encoding::UTF8;
  EXPECT_EQ(VC(u, B({0xC2})), -1);
  EXPECT_EQ(VC(u, B({0xE0, 0xA0})), -1);
  EXPECT_EQ(VC(u, B({0xF0, 0x90, 0x80})), -1);
  EXPECT_EQ(VC(u, B({0xC2, 0x00})), -1);
  EXPECT_EQ(VC(u, B({0xE1, 0x80, 0x00})), -1);
  EXPECT_EQ(VC(u, B({0xF1, 0x80, 0x80, 0x00})), -1);
}

TEST(Grammar, Utf8Prefix) {
  const Encoding u = Encoding::UTF8;
  EXPECT_EQ(VP(u, B({'a', 0xC3, 0xA9, 'b', 0xE2, 0x82, 0xAC})), 7u);
  EXPECT_EQ(VP(u, B({'a', 0xC3, 0xA9, 'b', 0xE2, 0x82})), 4u);       // truncated tail
  EXPECT_EQ(VP(u, B({'a', 'b', 'c', 0xED, 0xA0, 0x80, 'x'})), 3u);   // surrogate
  // Long ASCII runs around multibyte characters (exercises the word path).
  Bytes s(37, 'x');
  s.push_back(0xF0); s.push_back(0x9F); s.push_back(0x98); s.push_back(0x80);
  s.insert(s.end(), 21, 'y');
  EXPECT_EQ(VP(u, s), s.size());
  s[50] = 0x00;
  EXPECT_EQ(VP(u, s), 50u);
  s[50] = 'y';
  s[38] = 0x8F;  // F0 8F ...: overlong
  EXPECT_EQ(VP(u, s), 37u);
}

TEST(Grammar, Utf8CharLength) {
  const Encoding u = Encoding::UTF8;
  EXPECT_EQ(CL(u, B({0x41})), 1);
  EXPECT_EQ(CL(u, B({0x80})), 1);
  EXPECT_EQ(CL(u, B({0xBF})), 1);
  EXPECT_EQ(CL(u, B({0xC0})), 2);  // mblen does not care about overlongs
  EXPECT_EQ(CL(u, B({0xE0})), 3);
  EXPECT_EQ(CL(u, B({0xF0})), 4);
  EXPECT_EQ(CL(u, B({0xF7})), 4);
  EXPECT_EQ(CL(u, B({0xF8})), 1);
  EXPECT_EQ(CL(u, B({0xFF})), 1);
}

// ---------------------------------------------------------------------------
// EUC_JP and EUC_JIS_2004 (identical byte grammar in PostgreSQL)

TEST(Grammar, EucJpCases) {
  for (Encoding e : {Encoding::EUC_JP, Encoding::EUC_JIS_2004}) {
    SCOPED_TRACE(pgcodec::to_int(e));
    // JIS X 0208: two GR bytes.
    EXPECT_EQ(VC(e, B({0xA1, 0xA1})), 2);
    EXPECT_EQ(VC(e, B({0xFE, 0xFE})), 2);
    EXPECT_EQ(VC(e, B({0xA1, 0xA0})), -1);
    EXPECT_EQ(VC(e, B({0xA0, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0xFF, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0x80, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0xA1, 0x41})), -1);
    EXPECT_EQ(VC(e, B({0xA1, 0x00})), -1);
    EXPECT_EQ(VC(e, B({0xA1})), -1);
    // SS2 + half-width kana A1..DF.
    EXPECT_EQ(VC(e, B({0x8E, 0xA1})), 2);
    EXPECT_EQ(VC(e, B({0x8E, 0xDF})), 2);
    EXPECT_EQ(VC(e, B({0x8E, 0xE0})), -1);
    EXPECT_EQ(VC(e, B({0x8E, 0xA0})), -1);
    EXPECT_EQ(VC(e, B({0x8E})), -1);
    // SS3 + two GR bytes.
    EXPECT_EQ(VC(e, B({0x8F, 0xA1, 0xA1})), 3);
    EXPECT_EQ(VC(e, B({0x8F, 0xFE, 0xFE})), 3);
    EXPECT_EQ(VC(e, B({0x8F, 0xA1, 0xA0})), -1);
    EXPECT_EQ(VC(e, B({0x8F, 0xA0, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0x8F, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0x8F, 0xA1, 0x00})), -1);
    // mblen
    EXPECT_EQ(CL(e, B({0x8E})), 2);
    EXPECT_EQ(CL(e, B({0x8F})), 3);
    EXPECT_EQ(CL(e, B({0xA1})), 2);
    EXPECT_EQ(CL(e, B({0x80})), 2);
    // prefix
    EXPECT_EQ(VP(e, B({'a', 0x8F, 0xA1, 0xA1, 0x8E, 0xB1, 0xB0, 0xA1, 'z'})), 9u);
    EXPECT_EQ(VP(e, B({'a', 0x8F, 0xA1, 0xA1, 0x8E, 0xE0})), 4u);
  }
}

TEST(Grammar, EucJpJis2004MatchesEucJpExhaustively) {
  Bytes buf(3);
  for (unsigned a = 0; a < 256; ++a) {
    for (unsigned b = 0; b < 256; ++b) {
      for (unsigned c : {0x00u, 0x41u, 0xA0u, 0xA1u, 0xFEu, 0xFFu}) {
        buf[0] = static_cast<unsigned char>(a);
        buf[1] = static_cast<unsigned char>(b);
        buf[2] = static_cast<unsigned char>(c);
        for (std::size_t n = 1; n <= 3; ++n) {
          ASSERT_EQ(verify_char(Encoding::EUC_JP, buf.data(), n),
                    verify_char(Encoding::EUC_JIS_2004, buf.data(), n))
              << Hex(buf) << n;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// EUC_KR and EUC_CN

TEST(Grammar, EucKrCnCases) {
  for (Encoding e : {Encoding::EUC_KR, Encoding::EUC_CN}) {
    SCOPED_TRACE(pgcodec::to_int(e));
    EXPECT_EQ(VC(e, B({0xB0, 0xA1})), 2);
    EXPECT_EQ(VC(e, B({0xA1, 0xA1})), 2);
    EXPECT_EQ(VC(e, B({0xFE, 0xFE})), 2);
    EXPECT_EQ(VC(e, B({0xA1, 0xFF})), -1);
    EXPECT_EQ(VC(e, B({0xA1, 0x41})), -1);
    EXPECT_EQ(VC(e, B({0x80, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0xA0, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0xFF, 0xA1})), -1);
    // No single shifts in these encodings.
    EXPECT_EQ(VC(e, B({0x8E, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0x8F, 0xA1, 0xA1})), -1);
    EXPECT_EQ(VC(e, B({0xB0})), -1);
    EXPECT_EQ(VC(e, B({0xB0, 0x00})), -1);
  }
  // mblen differs: EUC_KR uses the generic EUC rule (SS2 -> 2, SS3 -> 3);
  // EUC_CN sizes both single shifts as 3 (as observed on PostgreSQL 15.18,
  // e.g. in the bytes quoted by "invalid byte sequence" errors).  The
  // verifier rejects all four.
  EXPECT_EQ(CL(Encoding::EUC_KR, B({0x8E})), 2);
  EXPECT_EQ(CL(Encoding::EUC_KR, B({0x8F})), 3);
  EXPECT_EQ(CL(Encoding::EUC_CN, B({0x8E})), 3);
  EXPECT_EQ(CL(Encoding::EUC_CN, B({0x8F})), 3);
  EXPECT_EQ(CL(Encoding::EUC_CN, B({0xA1})), 2);
  EXPECT_EQ(CL(Encoding::EUC_CN, B({0x80})), 2);
}

// ---------------------------------------------------------------------------
// EUC_TW

TEST(Grammar, EucTwCases) {
  const Encoding e = Encoding::EUC_TW;
  EXPECT_EQ(VC(e, B({0x8E, 0xA1, 0xA1, 0xA1})), 4);
  EXPECT_EQ(VC(e, B({0x8E, 0xA7, 0xFE, 0xFE})), 4);
  EXPECT_EQ(VC(e, B({0x8E, 0xA8, 0xA1, 0xA1})), -1);  // plane > 7
  EXPECT_EQ(VC(e, B({0x8E, 0xA0, 0xA1, 0xA1})), -1);
  EXPECT_EQ(VC(e, B({0x8E, 0xA1, 0xA1, 0xA0})), -1);
  EXPECT_EQ(VC(e, B({0x8E, 0xA1, 0xA0, 0xA1})), -1);
  EXPECT_EQ(VC(e, B({0x8E, 0xA1, 0xA1})), -1);  // truncated
  EXPECT_EQ(VC(e, B({0x8E, 0xA1, 0xA1, 0x00})), -1);
  EXPECT_EQ(VC(e, B({0x8F, 0xA1, 0xA1})), -1);  // SS3 never valid
  EXPECT_EQ(VC(e, B({0x8F, 0xA1, 0xA1, 0xA1})), -1);
  EXPECT_EQ(VC(e, B({0xA1, 0xA1})), 2);
  EXPECT_EQ(VC(e, B({0xFD, 0xFE})), 2);
  // The plane-1 lead byte is not range-checked.
  EXPECT_EQ(VC(e, B({0x80, 0xA1})), 2);
  EXPECT_EQ(VC(e, B({0xFF, 0xA1})), 2);
  EXPECT_EQ(VC(e, B({0xA1, 0xA0})), -1);
  EXPECT_EQ(VC(e, B({0xA1, 0xFF})), -1);
  EXPECT_EQ(VC(e, B({0xA1})), -1);
  EXPECT_EQ(CL(e, B({0x8E})), 4);
  EXPECT_EQ(CL(e, B({0x8F})), 3);
  EXPECT_EQ(CL(e, B({0xA1})), 2);
}

// ---------------------------------------------------------------------------
// SJIS and SHIFT_JIS_2004

TEST(Grammar, SjisCases) {
  for (Encoding e : {Encoding::SJIS, Encoding::SHIFT_JIS_2004}) {
    SCOPED_TRACE(pgcodec::to_int(e));
    // Half-width katakana are single bytes.
    EXPECT_EQ(VC(e, B({0xA1})), 1);
    EXPECT_EQ(VC(e, B({0xDF})), 1);
    EXPECT_EQ(VC(e, B({0xB1, 0x00})), 1);
    // Lead 81..9F / E0..FC, trail 40..7E / 80..FC.
    EXPECT_EQ(VC(e, B({0x81, 0x40})), 2);
    EXPECT_EQ(VC(e, B({0x81, 0x5C})), 2);  // trail is ASCII backslash
    EXPECT_EQ(VC(e, B({0x95, 0x5C})), 2);
    EXPECT_EQ(VC(e, B({0x81, 0x7E})), 2);
    EXPECT_EQ(VC(e, B({0x81, 0x80})), 2);
    EXPECT_EQ(VC(e, B({0x9F, 0xFC})), 2);
    EXPECT_EQ(VC(e, B({0xE0, 0x40})), 2);
    EXPECT_EQ(VC(e, B({0xFC, 0xFC})), 2);
    EXPECT_EQ(VC(e, B({0xEF, 0x9F})), 2);
    EXPECT_EQ(VC(e, B({0x81, 0x7F})), -1);
    EXPECT_EQ(VC(e, B({0x81, 0x3F})), -1);
    EXPECT_EQ(VC(e, B({0x81, 0xFD})), -1);
    EXPECT_EQ(VC(e, B({0x81, 0x00})), -1);
    EXPECT_EQ(VC(e, B({0x81})), -1);
    EXPECT_EQ(VC(e, B({0x80, 0x40})), -1);
    EXPECT_EQ(VC(e, B({0xA0, 0x40})), -1);
    EXPECT_EQ(VC(e, B({0xFD, 0x40})), -1);
    EXPECT_EQ(VC(e, B({0xFF, 0x40})), -1);
    // The backslash trail must not be mistaken for an ASCII character.
    EXPECT_EQ(VP(e, B({0x81, 0x5C, 0x5C, 'a'})), 4u);
    EXPECT_EQ(VP(e, B({'a', 0xB1, 0x81, 0x5C, 0x81})), 4u);
    EXPECT_EQ(CL(e, B({0xA1})), 1);
    EXPECT_EQ(CL(e, B({0x81})), 2);
    EXPECT_EQ(CL(e, B({0x80})), 2);
    EXPECT_EQ(CL(e, B({0xA0})), 2);
    EXPECT_EQ(CL(e, B({0xFF})), 2);
  }
}

// ---------------------------------------------------------------------------
// BIG5, GBK, UHC

TEST(Grammar, Big5GbkUhcCases) {
  for (Encoding e : {Encoding::BIG5, Encoding::GBK, Encoding::UHC}) {
    SCOPED_TRACE(pgcodec::to_int(e));
    EXPECT_EQ(VC(e, B({0xA4, 0x40})), 2);
    EXPECT_EQ(VC(e, B({0x81, 0x41})), 2);
    EXPECT_EQ(VC(e, B({0xB0, 0xA1})), 2);
    // Only "non-NUL trail" is required: no range checks on either byte.
    EXPECT_EQ(VC(e, B({0x80, 0x01})), 2);
    EXPECT_EQ(VC(e, B({0xFF, 0xFF})), 2);
    EXPECT_EQ(VC(e, B({0x81, 0x20})), 2);
    EXPECT_EQ(VC(e, B({0x8D, 0x21})), 2);
    EXPECT_EQ(VC(e, B({0x8E, 0x20})), 2);
    // ...except the one pair PostgreSQL reserves as "always invalid".
    EXPECT_EQ(VC(e, B({0x8D, 0x20})), -1);
    EXPECT_EQ(VC(e, B({0x81, 0x00})), -1);
    EXPECT_EQ(VC(e, B({0x81})), -1);
    EXPECT_EQ(VP(e, B({'a', 0xA4, 0x40, 0x8D, 0x20})), 3u);
    EXPECT_EQ(VP(e, B({'a', 0xA4, 0x5C, 0xFF, 0x7F})), 5u);
    EXPECT_EQ(CL(e, B({0x80})), 2);
    EXPECT_EQ(CL(e, B({0xFF})), 2);
  }
}

// ---------------------------------------------------------------------------
// GB18030

TEST(Grammar, Gb18030TwoByte) {
  const Encoding e = Encoding::GB18030;
  EXPECT_EQ(VC(e, B({0x81, 0x40})), 2);
  EXPECT_EQ(VC(e, B({0x81, 0x7E})), 2);
  EXPECT_EQ(VC(e, B({0x81, 0x80})), 2);
  EXPECT_EQ(VC(e, B({0xFE, 0xFE})), 2);
  EXPECT_EQ(VC(e, B({0xB0, 0xA1})), 2);
  EXPECT_EQ(VC(e, B({0x81, 0x7F})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0xFF})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0x3F})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0x00})), -1);
  EXPECT_EQ(VC(e, B({0x80, 0x40})), -1);
  EXPECT_EQ(VC(e, B({0xFF, 0x40})), -1);
  EXPECT_EQ(VC(e, B({0x81})), -1);
  EXPECT_EQ(VC(e, B({0x80})), -1);
}

TEST(Grammar, Gb18030FourByte) {
  const Encoding e = Encoding::GB18030;
  EXPECT_EQ(VC(e, B({0x81, 0x30, 0x81, 0x30})), 4);
  EXPECT_EQ(VC(e, B({0x84, 0x31, 0xA4, 0x39})), 4);
  EXPECT_EQ(VC(e, B({0x90, 0x30, 0x81, 0x30})), 4);
  EXPECT_EQ(VC(e, B({0xFE, 0x39, 0xFE, 0x39})), 4);  // no upper bound on planes
  EXPECT_EQ(VC(e, B({0x81, 0x30, 0x81, 0x2F})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0x30, 0x81, 0x3A})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0x30, 0x80, 0x30})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0x30, 0xFF, 0x30})), -1);
  EXPECT_EQ(VC(e, B({0x80, 0x30, 0x81, 0x30})), -1);
  EXPECT_EQ(VC(e, B({0xFF, 0x30, 0x81, 0x30})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0x30, 0x81, 0x00})), -1);
  // A digit second byte commits to the 4-byte form: no fallback to 2 bytes.
  EXPECT_EQ(VC(e, B({0x81, 0x30, 0x41, 0x42})), -1);
  // Fewer than 4 bytes available: the 2-byte rule is applied and digits
  // are not valid 2-byte trails, so truncated 4-byte forms fail.
  EXPECT_EQ(VC(e, B({0x81, 0x30, 0x81})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0x30})), -1);
  EXPECT_EQ(VP(e, B({'a', 0x81, 0x30, 0x81, 0x30, 0x81, 0x40, 'b'})), 8u);
  EXPECT_EQ(VP(e, B({'a', 0x81, 0x30, 0x81, 0x30, 0x81, 0x30, 0x81})), 5u);
}

TEST(Grammar, Gb18030CharLength) {
  const Encoding e = Encoding::GB18030;
  EXPECT_EQ(CL(e, B({0x41})), 1);
  EXPECT_EQ(CL(e, B({0x81, 0x40})), 2);
  EXPECT_EQ(CL(e, B({0x81, 0x30})), 4);
  EXPECT_EQ(CL(e, B({0x81, 0x39, 0x00})), 4);
  EXPECT_EQ(CL(e, B({0x80, 0x30})), 4);  // mblen does not validate the lead
  EXPECT_EQ(CL(e, B({0xFF, 0x7F})), 2);
  // Second byte absent: read as the NUL PostgreSQL would find there.
  EXPECT_EQ(CL(e, B({0x81})), 2);
  EXPECT_EQ(CL(e, B({0x81, 0x00})), 2);
}

// ---------------------------------------------------------------------------
// JOHAB

TEST(Grammar, JohabCases) {
  const Encoding e = Encoding::JOHAB;
  EXPECT_EQ(VC(e, B({0x88, 0xA1})), 2);
  EXPECT_EQ(VC(e, B({0xD9, 0xA1})), 2);
  EXPECT_EQ(VC(e, B({0x80, 0xFE})), 2);  // lead not range-checked
  EXPECT_EQ(VC(e, B({0xFF, 0xA1})), 2);
  // PostgreSQL demands GR (A1..FE) trail bytes, even though real JOHAB
  // uses 41..7E and 81..FE trails: 0x84 0x41 is rejected.
  EXPECT_EQ(VC(e, B({0x84, 0x41})), -1);
  EXPECT_EQ(VC(e, B({0x88, 0x61})), -1);
  EXPECT_EQ(VC(e, B({0x88, 0x81})), -1);
  EXPECT_EQ(VC(e, B({0x88, 0xFF})), -1);
  EXPECT_EQ(VC(e, B({0x88})), -1);
  EXPECT_EQ(VC(e, B({0x88, 0x00})), -1);
  // The generic EUC length rule applies: 8E -> 2 bytes, 8F -> 3 bytes.
  EXPECT_EQ(VC(e, B({0x8E, 0xA1})), 2);
  EXPECT_EQ(VC(e, B({0x8F, 0xA1, 0xA1})), 3);
  EXPECT_EQ(VC(e, B({0x8F, 0xA1, 0x41})), -1);
  EXPECT_EQ(VC(e, B({0x8F, 0xA1})), -1);
  EXPECT_EQ(CL(e, B({0x8E})), 2);
  EXPECT_EQ(CL(e, B({0x8F})), 3);
  EXPECT_EQ(CL(e, B({0x88})), 2);
}

// ---------------------------------------------------------------------------
// MULE_INTERNAL

TEST(Grammar, MuleCases) {
  const Encoding e = Encoding::MULE_INTERNAL;
  // LC1 (81..8D) + 1 byte
  EXPECT_EQ(VC(e, B({0x81, 0xA0})), 2);
  EXPECT_EQ(VC(e, B({0x8D, 0xFF})), 2);
  EXPECT_EQ(VC(e, B({0x81, 0x80})), 2);
  EXPECT_EQ(VC(e, B({0x81, 0x20})), -1);
  EXPECT_EQ(VC(e, B({0x81, 0x00})), -1);
  EXPECT_EQ(VC(e, B({0x81})), -1);
  // LC2 (90..99) + 2 bytes
  EXPECT_EQ(VC(e, B({0x90, 0xA1, 0xA1})), 3);
  EXPECT_EQ(VC(e, B({0x99, 0x80, 0x80})), 3);
  EXPECT_EQ(VC(e, B({0x92, 0xA1, 0x41})), -1);
  EXPECT_EQ(VC(e, B({0x92, 0xA1})), -1);
  // LCPRV1 (9A, 9B) + charset byte + 1 byte
  EXPECT_EQ(VC(e, B({0x9A, 0xA0, 0xA0})), 3);
  EXPECT_EQ(VC(e, B({0x9B, 0xE0, 0xA1})), 3);
  EXPECT_EQ(VC(e, B({0x9A, 0x20, 0xA0})), -1);
  // LCPRV2 (9C, 9D) + charset byte + 2 bytes
  EXPECT_EQ(VC(e, B({0x9C, 0xA0, 0xA0, 0xA0})), 4);
  EXPECT_EQ(VC(e, B({0x9D, 0xF5, 0xA1, 0xA1})), 4);
  EXPECT_EQ(VC(e, B({0x9C, 0xA0, 0xA0})), -1);
  EXPECT_EQ(VC(e, B({0x9C, 0xA0, 0x41, 0xA0})), -1);
  EXPECT_EQ(VC(e, B({0x9C, 0xA0, 0xA0, 0x00})), -1);
  // Any other high-bit byte is accepted as a 1-byte character.
  for (unsigned c : {0x80u, 0x8Eu, 0x8Fu, 0x9Eu, 0x9Fu, 0xA0u, 0xC0u, 0xFFu}) {
    EXPECT_EQ(VC(e, B({c})), 1) << c;
    EXPECT_EQ(VC(e, B({c, 0x41})), 1) << c;
    EXPECT_EQ(CL(e, B({c})), 1) << c;
  }
  EXPECT_EQ(CL(e, B({0x81})), 2);
  EXPECT_EQ(CL(e, B({0x90})), 3);
  EXPECT_EQ(CL(e, B({0x9A})), 3);
  EXPECT_EQ(CL(e, B({0x9C})), 4);
  EXPECT_EQ(VP(e, B({0xFF, 'a', 0x81, 0xA0, 0x9C, 0xA0, 0xA0, 0xA0, 0x92, 0xA1})), 8u);
}

// ---------------------------------------------------------------------------
// Properties over random and exhaustive inputs

unsigned char InterestingByte(std::mt19937& rng) {
  static const unsigned char pool[] = {
      0x00, 0x20, 0x30, 0x35, 0x39, 0x3A, 0x40, 0x41, 0x5C, 0x7E, 0x7F,
      0x80, 0x81, 0x8D, 0x8E, 0x8F, 0x90, 0x99, 0x9A, 0x9C, 0x9F, 0xA0,
      0xA1, 0xA7, 0xA8, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0,
      0xF4, 0xF5, 0xFC, 0xFD, 0xFE, 0xFF};
  std::uniform_int_distribution<int> pick(0, 3);
  if (pick(rng) == 0) {
    return static_cast<unsigned char>(std::uniform_int_distribution<int>(0, 255)(rng));
  }
  std::uniform_int_distribution<std::size_t> idx(0, sizeof pool - 1);
  return pool[idx(rng)];
}

Bytes RandomInput(std::mt19937& rng) {
  std::uniform_int_distribution<int> shape(0, 3);
  std::uniform_int_distribution<std::size_t> short_len(0, 12);
  Bytes b;
  if (shape(rng) == 0) {
    // Mostly ASCII with an occasional interesting byte: drives the
    // 8-byte fast path and its boundaries.
    const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 70)(rng);
    std::uniform_int_distribution<int> ascii(1, 127);
    std::uniform_int_distribution<int> rare(0, 15);
    for (std::size_t i = 0; i < n; ++i) {
      b.push_back(rare(rng) == 0 ? InterestingByte(rng) : static_cast<unsigned char>(ascii(rng)));
    }
  } else {
    const std::size_t n = short_len(rng);
    std::uniform_int_distribution<int> no_nul(0, 9);
    for (std::size_t i = 0; i < n; ++i) {
      unsigned char c = InterestingByte(rng);
      if (c == 0 && no_nul(rng) != 0) c = 0xA1;  // keep NULs fairly rare
      b.push_back(c);
    }
  }
  return b;
}

TEST(Grammar, PropertyPrefixEqualsNaiveCharLoop) {
  std::mt19937 rng(20240915);
  for (int i = 0; i < pgcodec::encoding_count; ++i) {
    const Encoding e = Enc(i);
    for (int iter = 0; iter < 20000; ++iter) {
      const Bytes b = RandomInput(rng);
      const std::size_t expected = NaivePrefix(e, b);
      ASSERT_EQ(VP(e, b), expected) << "encoding " << i << " input " << Hex(b);
    }
  }
}

TEST(Grammar, PropertyValidCharactersAgreeWithCharLength) {
  // Whenever PostgreSQL accepts a character, mblen reports the same length.
  std::mt19937 rng(7);
  for (int i = 0; i < pgcodec::encoding_count; ++i) {
    const Encoding e = Enc(i);
    for (int iter = 0; iter < 20000; ++iter) {
      const Bytes b = RandomInput(rng);
      if (b.empty()) continue;
      const int n = VC(e, b);
      ASSERT_LE(n, max_char_length(e)) << i << " " << Hex(b);
      if (n > 0) {
        ASSERT_EQ(CL(e, b), n) << "encoding " << i << " input " << Hex(b);
        // Validity of a character does not depend on what follows it.
        const Bytes just(b.begin(), b.begin() + n);
        ASSERT_EQ(VC(e, just), n) << i << " " << Hex(b);
      }
    }
  }
}

TEST(Grammar, PropertyAllTwoByteInputs) {
  // Exhaustive over every 1- and 2-byte input for every encoding.  The
  // buffers are heap allocations of exactly 1 and 2 bytes, so sanitizers
  // catch any over-read.
  Bytes one(1);
  Bytes two(2);
  for (int i = 0; i < pgcodec::encoding_count; ++i) {
    const Encoding e = Enc(i);
    for (unsigned a = 0; a < 256; ++a) {
      one[0] = static_cast<unsigned char>(a);
      const int n1 = verify_char(e, one.data(), 1);
      ASSERT_TRUE(n1 == -1 || n1 == 1);
      ASSERT_EQ(verify_prefix(e, one.data(), 1), n1 == 1 ? 1u : 0u);
      for (unsigned c = 0; c < 256; ++c) {
        two[0] = static_cast<unsigned char>(a);
        two[1] = static_cast<unsigned char>(c);
        const int n2 = verify_char(e, two.data(), 2);
        ASSERT_TRUE(n2 == -1 || n2 == 1 || n2 == 2) << i << " " << Hex(two);
        ASSERT_EQ(verify_prefix(e, two.data(), 2), NaivePrefix(e, two)) << i << " " << Hex(two);
        if (n1 == 1) {
          ASSERT_EQ(n2, 1) << i << " " << Hex(two);
        }
        if (n2 > 0) {
          ASSERT_EQ(char_length(e, two.data(), 2), n2) << i << " " << Hex(two);
        }
      }
    }
  }
}

const unsigned char* P(const char* s) { return reinterpret_cast<const unsigned char*>(s); }

TEST(Grammar, CutOffByEndIsTheLeadByteClaim) {
  using pgcodec::detail::cut_off_by_end;
  EXPECT_TRUE(cut_off_by_end(Encoding::UTF8, P("\xE2\x82"), 2));
  EXPECT_FALSE(cut_off_by_end(Encoding::UTF8, P("\xE2\x82\xAC"), 3));
  EXPECT_FALSE(cut_off_by_end(Encoding::UTF8, P("\xFF"), 1));  // claims 1: invalid, not cut off
  EXPECT_TRUE(cut_off_by_end(Encoding::EUC_TW, P("\x8E\xA1"), 2));
  EXPECT_FALSE(cut_off_by_end(Encoding::LATIN1, P("\xE9"), 1));
}

}  // namespace
