// Unit tests for the codec API (include/pgcodec/codec.hpp): the fast codecs
// against the reference conversion (src/reference.cpp, itself checked against
// a PostgreSQL server), error details and messages, Replace mode, short output
// buffers, size bounds, char_length, the by-name path and
// the allocating conveniences.
#include "pgcodec/codec.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "rules/utf8.hpp"
#include "rules/grammar.hpp"
#include "pgcodec/encoding.hpp"
#include "pgcodec/stream.hpp"
#include "tables/table.hpp"

namespace pgcodec {
// Readable gtest output for the enums (found by ADL).
inline void PrintTo(Status s, std::ostream* os) {
  static const char* const names[] = {"Ok", "Error", "OutputFull"};
  *os << names[static_cast<int>(s)];
}
inline void PrintTo(ErrorKind k, std::ostream* os) {
  *os << (k == ErrorKind::InvalidByteSequence ? "InvalidByteSequence" : "NoEquivalent");
}
inline void PrintTo(Encoding e, std::ostream* os) { *os << info(e).name; }
}  // namespace pgcodec

namespace {

using pgcodec::Codec;
using pgcodec::Encoding;
using pgcodec::Error;
using pgcodec::ErrorKind;
using pgcodec::ErrorMode;
using pgcodec::Result;
using pgcodec::Status;
using pgcodec::harness::OutcomeKind;

using pgcodec::test::Hex;
using pgcodec::test::kFFFD;

bool is_identity(Encoding e) { return e == Encoding::UTF8 || e == Encoding::SQL_ASCII; }

// UTF8, SQL_ASCII and the 27 single-byte encodings.
std::vector<Encoding> utf8_and_single_byte() {
  std::vector<Encoding> v;
  for (const auto& inf : pgcodec::encodings())
    if (inf.max_char_length == 1 || inf.id == Encoding::UTF8) v.push_back(inf.id);
  return v;
}

std::vector<Encoding> single_byte_encodings() {
  std::vector<Encoding> v;
  for (Encoding e : utf8_and_single_byte())
    if (!is_identity(e)) v.push_back(e);
  return v;
}

struct Conv {
  Result r;
  std::string out;  // the written bytes
};

Conv dec(const Codec& c, std::string_view in, ErrorMode mode = ErrorMode::Strict) {
  std::string buf(*c.max_decoded_size(in.size()) + 1, '\0');
  Conv x;
  x.r = c.decode(in, std::span<char>(buf.data(), buf.size()), mode);
  x.out.assign(buf.data(), std::min(x.r.written, buf.size()));
  return x;
}

Conv enc(const Codec& c, std::string_view in, ErrorMode mode = ErrorMode::Strict) {
  std::string buf(*c.max_encoded_size(in.size()) + 1, '\0');
  Conv x;
  x.r = c.encode(in, std::span<char>(buf.data(), buf.size()), mode);
  x.out.assign(buf.data(), std::min(x.r.written, buf.size()));
  return x;
}

ErrorKind kind_of(OutcomeKind s) {
  return s == OutcomeKind::NoEquivalent ? ErrorKind::NoEquivalent : ErrorKind::InvalidByteSequence;
}

std::string utf8_of(std::uint32_t cp) {
  std::string s;
  pgcodec::detail::append_utf8(s, cp);
  return s;
}

std::string error_bytes(const Error& e) {
  return std::string(reinterpret_cast<const char*>(e.bytes.data()), e.length);
}

void expect_same_result(const Result& a, const Result& b, const std::string& what) {
  EXPECT_EQ(a.status, b.status) << what;
  EXPECT_EQ(a.consumed, b.consumed) << what;
  EXPECT_EQ(a.written, b.written) << what;
  if (a.status == Status::Error && b.status == Status::Error) {
    EXPECT_EQ(a.error.kind, b.error.kind) << what;
    EXPECT_EQ(a.error.encoding, b.error.encoding) << what;
    EXPECT_EQ(a.error.target, b.error.target) << what;
    EXPECT_EQ(a.error.offset, b.error.offset) << what;
    EXPECT_EQ(a.error.length, b.error.length) << what;
    EXPECT_EQ(a.error.skip, b.error.skip) << what;
    EXPECT_EQ(error_bytes(a.error), error_bytes(b.error)) << what;
    EXPECT_EQ(a.error.message(), b.error.message()) << what;
  }
}

// Bytes >= 0x80 that decode in `e` (all of them for UTF8/SQL_ASCII is wrong:
// there, use whole UTF-8 characters instead; see good_bytes()).
std::vector<unsigned char> mapped_high_bytes(Encoding e) {
  std::vector<unsigned char> v;
  const auto& t = *pgcodec::detail::mapping_table(e);
  for (unsigned b = 0x80; b < 0x100; ++b) {
    const std::string in(1, static_cast<char>(b));
    if (pgcodec::harness::model_decode(t, in).kind == OutcomeKind::Ok)
      v.push_back(static_cast<unsigned char>(b));
  }
  return v;
}

// Well-formed, fully mappable text in `e`, mixing ASCII and non-ASCII.
std::string good_bytes(Encoding e) {
  if (is_identity(e)) return "h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80!";
  const auto hi = mapped_high_bytes(e);
  std::string s = "h";
  s += static_cast<char>(hi.front());
  s += "llo ";
  s += static_cast<char>(hi[hi.size() / 2]);
  s += static_cast<char>(hi.back());
  s += "!";
  return s;
}

// Random bytes, biased towards ASCII runs (so the ASCII fast path matters)
// with non-ASCII, NUL and, for UTF-8, real multibyte characters mixed in.
std::string random_bytes(std::mt19937& rng, std::size_t n, bool utf8ish) {
  std::string s;
  std::uniform_int_distribution<int> pick(0, 99), byte(0, 255), ascii(0x20, 0x7E);
  std::uniform_int_distribution<std::uint32_t> cp(0x80, 0x10FFFF);
  while (s.size() < n) {
    const int k = pick(rng);
    if (k < 55) {
      s += static_cast<char>(ascii(rng));
    } else if (k < 57) {
      s += '\0';
    } else if (utf8ish && k < 85) {
      std::uint32_t c = cp(rng);
      if (c >= 0xD800 && c < 0xE000) c = 0xE9;
      if (k < 70) c = 0x80 + (c & 0x7FF);  // favour 2-byte characters
      std::string u = utf8_of(c);
      if (k == 84) u.pop_back();  // truncated
      s += u;
    } else {
      s += static_cast<char>(byte(rng));
    }
  }
  s.resize(n);
  return s;
}

// Random UTF-8 text (mostly valid), whose characters are mostly encodable in
// `e`: decoded mapped bytes, plus a few arbitrary characters and bad bytes.
std::string random_utf8_for(std::mt19937& rng, Encoding e, std::size_t nchars, int bad_percent) {
  std::string s;
  std::uniform_int_distribution<int> pick(0, 99), ascii(0x20, 0x7E), byte(0x80, 0xFF);
  std::uniform_int_distribution<std::uint32_t> cp(0x80, 0x10FFFF);
  std::vector<std::string> mapped;
  if (!is_identity(e)) {
    for (unsigned char b : mapped_high_bytes(e))
      mapped.push_back(dec(pgcodec::codec(e), std::string(1, static_cast<char>(b))).out);
  }
  for (std::size_t i = 0; i < nchars; ++i) {
    const int k = pick(rng);
    if (k < bad_percent) {
      s += static_cast<char>(byte(rng));  // a stray byte: usually invalid UTF-8
    } else if (k < 50) {
      s += static_cast<char>(ascii(rng));
    } else if (k < 85 && !mapped.empty()) {
      s += mapped[static_cast<std::size_t>(pick(rng)) % mapped.size()];
    } else {
      std::uint32_t c = cp(rng);
      if (c >= 0xD800 && c < 0xE000) c = 0x20AC;
      s += utf8_of(c);
    }
  }
  return s;
}

class CodecPerEncoding : public pgcodec::test::ForEachKernelAnd<Encoding> {};

std::string EncodingName(Encoding e) { return std::string(pgcodec::info(e).name); }

// ---------------------------------------------------------------------------
// 1. Exhaustive comparison with the reference.

TEST(CodecRegistry, AllFortyTwoAreCached) {
  for (const auto& inf : pgcodec::encodings()) {
    const Codec& c = pgcodec::codec(inf.id);
    EXPECT_EQ(c.encoding(), inf.id);
    EXPECT_EQ(c.name(), inf.name);
    EXPECT_EQ(&c, &pgcodec::codec(inf.id)) << "codec() must return the cached instance";
  }
}

TEST_P(CodecPerEncoding, EverySingleByteDecodesAsReference) {
  const Encoding e = param();
  const Codec& c = pgcodec::codec(e);
  const auto& t = *pgcodec::detail::mapping_table(e);
  char buf[16];
  for (unsigned b = 0; b < 0x100; ++b) {
    const std::string in(1, static_cast<char>(b));
    const auto ref = pgcodec::harness::model_decode(t, in);
    const Result r = c.decode(in, std::span<char>(buf, sizeof buf));
    SCOPED_TRACE("byte " + Hex(in));
    if (ref.kind == OutcomeKind::Ok) {
      ASSERT_EQ(r.status, Status::Ok);
      EXPECT_EQ(r.consumed, 1u);
      ASSERT_EQ(std::string(buf, r.written), ref.output);
    } else {
      ASSERT_EQ(r.status, Status::Error);
      EXPECT_EQ(r.error.kind, kind_of(ref.kind));
      EXPECT_EQ(r.error.offset, 0u);
      EXPECT_EQ(r.error.skip, 1u);
      EXPECT_EQ(r.error.length, 1u);
      EXPECT_EQ(r.error.bytes[0], b);
      EXPECT_EQ(r.error.encoding, is_identity(e) ? Encoding::UTF8 : e);
      EXPECT_EQ(r.error.target, Encoding::UTF8);
      EXPECT_EQ(r.consumed, 0u);
      EXPECT_EQ(r.written, 0u);
    }
  }
}

TEST_P(CodecPerEncoding, EveryCodePointEncodesAsReference) {
  const Encoding e = param();
  const Codec& c = pgcodec::codec(e);
  const auto& t = *pgcodec::detail::mapping_table(e);
  char buf[16];
  std::string in;
  std::size_t mapped = 0;
  for (std::uint32_t cp = 1; cp <= 0x10FFFF; ++cp) {
    if (cp == 0xD800) cp = 0xE000;
    in.clear();
    pgcodec::detail::append_utf8(in, cp);
    const auto ref = pgcodec::harness::model_encode(t, in);
    const Result r = c.encode(in, std::span<char>(buf, sizeof buf));
    if (ref.kind == OutcomeKind::Ok) {
      ++mapped;
      if (r.status != Status::Ok || std::string_view(buf, r.written) != ref.output) {
        ADD_FAILURE() << "U+" << std::hex << cp << ": expected " << Hex(ref.output)
                      << "got status " << static_cast<int>(r.status) << " "
                      << Hex(std::string_view(buf, std::min(r.written, sizeof buf)));
        return;
      }
      continue;
    }
    const auto len = static_cast<std::uint8_t>(in.size());
    if (r.status != Status::Error || r.error.kind != kind_of(ref.kind) || r.error.offset != 0 ||
        r.error.skip != len || r.error.length != len || error_bytes(r.error) != in ||
        r.error.encoding != Encoding::UTF8 || r.error.target != e || r.consumed != 0 ||
        r.written != 0) {
      ADD_FAILURE() << "U+" << std::hex << cp << ": expected an error, got status "
                    << static_cast<int>(r.status) << " message " << r.error.message();
      return;
    }
  }
  // Sanity: the reference maps ASCII at least, and every byte for the
  // identity encodings.
  EXPECT_GE(mapped, is_identity(e) ? 0x10FFFFu - 0x800u : 127u);
}

class CodecExhaustive : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(CodecExhaustive);

TEST_P(CodecExhaustive, EveryTwoByteSequenceDecodesAsReferenceInUtf8AndSqlAscii) {
  for (Encoding e : {Encoding::UTF8, Encoding::SQL_ASCII}) {
    const Codec& c = pgcodec::codec(e);
    const auto& t = *pgcodec::detail::mapping_table(e);
    char buf[16];
    std::size_t failures = 0;
    for (unsigned v = 0; v < 0x10000 && failures < 10; ++v) {
      const char in_bytes[2] = {static_cast<char>(v >> 8), static_cast<char>(v & 0xFF)};
      const std::string_view in(in_bytes, 2);
      const auto ref = pgcodec::harness::model_decode(t, in);
      const Result r = c.decode(in, std::span<char>(buf, sizeof buf));
      const auto* p = reinterpret_cast<const unsigned char*>(in_bytes);
      bool good;
      if (ref.kind == OutcomeKind::Ok) {
        good = r.status == Status::Ok && r.consumed == 2 && std::string_view(buf, r.written) == ref.output;
      } else {
        // The first error in input order is where verification stops.
        const std::size_t at = pgcodec::detail::verify_prefix(Encoding::UTF8, p, 2);
        const auto mb = static_cast<std::size_t>(
            std::max(1, pgcodec::detail::char_length(Encoding::UTF8, p + at, 2 - at)));
        good = r.status == Status::Error && r.error.kind == kind_of(ref.kind) &&
               r.error.offset == at && r.consumed == at && r.written == at &&
               r.error.length == std::min<std::size_t>(mb, 2 - at) && r.error.skip == 1 &&
               r.error.encoding == Encoding::UTF8 && std::string_view(buf, at) == in.substr(0, at);
      }
      if (!good) {
        ++failures;
        ADD_FAILURE() << pgcodec::info(e).name << " " << Hex(in) << ": status "
                      << static_cast<int>(r.status) << " consumed " << r.consumed << " written "
                      << r.written << " message " << r.error.message();
      }
    }
  }
}

PGCODEC_FOR_EACH_KERNEL_AND(CodecPerEncoding, ::testing::ValuesIn(utf8_and_single_byte()),
                            EncodingName);

// ---------------------------------------------------------------------------
// 2. Error details inside longer strings, and exact messages.

struct ErrorCase {
  Encoding enc;
  bool decoding;
  std::string bad;  // followed by "def" in the input
  ErrorKind kind;
  std::uint8_t skip;
  std::string message;
};

std::vector<ErrorCase> error_cases() {
  using K = ErrorKind;
  const K inv = K::InvalidByteSequence, noeq = K::NoEquivalent;
  return {
      // Decoding single-byte encodings.
      {Encoding::LATIN1, true, std::string(1, '\0'), inv, 1,
       "invalid byte sequence for encoding \"LATIN1\": 0x00"},
      {Encoding::WIN1252, true, "\x81", noeq, 1,
       "character with byte sequence 0x81 in encoding \"WIN1252\" has no equivalent in encoding "
       "\"UTF8\""},
      {Encoding::WIN1252, true, std::string(1, '\0'), inv, 1,
       "invalid byte sequence for encoding \"WIN1252\": 0x00"},
      {Encoding::KOI8R, true, std::string(1, '\0'), inv, 1,
       "invalid byte sequence for encoding \"KOI8R\": 0x00"},
      // Encoding UTF-8 into single-byte encodings.
      {Encoding::LATIN1, false, "\xE2\x82\xAC", noeq, 3,
       "character with byte sequence 0xe2 0x82 0xac in encoding \"UTF8\" has no equivalent in "
       "encoding \"LATIN1\""},
      {Encoding::LATIN1, false, "\xF0\x9F\x98\x80", noeq, 4,
       "character with byte sequence 0xf0 0x9f 0x98 0x80 in encoding \"UTF8\" has no equivalent "
       "in encoding \"LATIN1\""},
      {Encoding::LATIN1, false, "\xC3\x28", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28"},
      {Encoding::WIN1252, false, "\xC4\x80", noeq, 2,
       "character with byte sequence 0xc4 0x80 in encoding \"UTF8\" has no equivalent in "
       "encoding \"WIN1252\""},
      {Encoding::KOI8R, false, "\xC3\xA9", noeq, 2,
       "character with byte sequence 0xc3 0xa9 in encoding \"UTF8\" has no equivalent in "
       "encoding \"KOI8R\""},
      {Encoding::KOI8R, false, std::string(1, '\0'), inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0x00"},
      // UTF8 (decode and encode are both validation).
      {Encoding::UTF8, true, "\xC3\x28", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28"},
      {Encoding::UTF8, true, "\xE2\x82", inv, 1,  // cut short: quotes the 'd' too
       "invalid byte sequence for encoding \"UTF8\": 0xe2 0x82 0x64"},
      {Encoding::UTF8, true, "\xF0\x9F\x98", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xf0 0x9f 0x98 0x64"},
      {Encoding::UTF8, true, "\x80", inv, 1, "invalid byte sequence for encoding \"UTF8\": 0x80"},
      {Encoding::UTF8, true, "\xFF", inv, 1, "invalid byte sequence for encoding \"UTF8\": 0xff"},
      {Encoding::UTF8, true, "\xC0\xAF", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xc0 0xaf"},
      {Encoding::UTF8, true, "\xED\xA0\x80", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xed 0xa0 0x80"},
      {Encoding::UTF8, true, "\xF4\x90\x80\x80", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xf4 0x90 0x80 0x80"},
      {Encoding::UTF8, true, std::string(1, '\0'), inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0x00"},
      {Encoding::UTF8, false, "\xC3\x28", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28"},
      // SQL_ASCII: validated as UTF-8, errors name UTF8.
      {Encoding::SQL_ASCII, true, "\xFF", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xff"},
      {Encoding::SQL_ASCII, true, "\xC3\x28", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28"},
      {Encoding::SQL_ASCII, true, std::string(1, '\0'), inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0x00"},
      {Encoding::SQL_ASCII, false, "\xE2\x28\xA1", inv, 1,
       "invalid byte sequence for encoding \"UTF8\": 0xe2 0x28 0xa1"},
  };
}

// Good prefixes in the input's encoding, of lengths around the 16-byte SSE2
// block and with non-ASCII characters.
std::vector<std::string> prefixes(Encoding e, bool decoding) {
  const std::string good = decoding ? good_bytes(e) : dec(pgcodec::codec(e), good_bytes(e)).out;
  return {"",
          "abc",
          good,
          std::string(15, 'x'),
          std::string(16, 'x'),
          std::string(17, 'x'),
          good + good + good,
          std::string(40, 'y') + good,
          "abc" + good + std::string(13, 'z')};
}

class CodecErrors : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(CodecErrors);

TEST_P(CodecErrors, OffsetsConsumedWrittenAndMessages) {
  for (const auto& ec : error_cases()) {
    const Codec& c = pgcodec::codec(ec.enc);
    for (const auto& prefix : prefixes(ec.enc, ec.decoding)) {
      const std::string in = prefix + ec.bad + "def";
      SCOPED_TRACE(std::string(pgcodec::info(ec.enc).name) + (ec.decoding ? " decode " : " encode ") +
                   Hex(in));
      const Conv good = ec.decoding ? dec(c, prefix) : enc(c, prefix);
      ASSERT_EQ(good.r.status, Status::Ok);
      const Conv x = ec.decoding ? dec(c, in) : enc(c, in);
      ASSERT_EQ(x.r.status, Status::Error);
      EXPECT_FALSE(x.r.ok());
      const Error& err = x.r.error;
      EXPECT_EQ(err.offset, prefix.size());
      EXPECT_EQ(x.r.consumed, prefix.size());
      EXPECT_EQ(x.r.written, good.out.size());
      EXPECT_EQ(x.out, good.out);
      EXPECT_EQ(err.kind, ec.kind);
      EXPECT_EQ(err.skip, ec.skip);
      EXPECT_EQ(err.message(), ec.message);
      EXPECT_STREQ(err.sqlstate(), ec.kind == ErrorKind::InvalidByteSequence ? "22021" : "22P05");
      const bool bytes_are_utf8 = is_identity(ec.enc) || !ec.decoding;
      EXPECT_EQ(err.encoding, bytes_are_utf8 ? Encoding::UTF8 : ec.enc);
      if (!is_identity(ec.enc)) { EXPECT_EQ(err.target, ec.decoding ? Encoding::UTF8 : ec.enc); }
      // The quoted bytes are the input's bytes at the offset.
      EXPECT_EQ(error_bytes(err), in.substr(prefix.size(), err.length));
    }
  }
}

TEST_P(CodecErrors, TruncatedCharacterAtTheEnd) {
  const Codec& u = pgcodec::codec(Encoding::UTF8);
  const Conv a = dec(u, "abc\xE2\x82");
  ASSERT_EQ(a.r.status, Status::Error);
  EXPECT_EQ(a.r.error.offset, 3u);
  EXPECT_EQ(a.r.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xe2 0x82");
  const Conv b = dec(u, "h\xC3\xA9llo\xF0\x9F\x98");
  ASSERT_EQ(b.r.status, Status::Error);
  EXPECT_EQ(b.r.error.offset, 6u);
  EXPECT_EQ(b.r.written, 6u);
  EXPECT_EQ(b.r.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xf0 0x9f 0x98");
  const Conv d = enc(pgcodec::codec(Encoding::LATIN1), "x\xC3");
  ASSERT_EQ(d.r.status, Status::Error);
  EXPECT_EQ(d.r.error.offset, 1u);
  EXPECT_EQ(d.r.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xc3");
}

// The cases' expectations agree with the reference (so the hand-written
// expectations are not themselves wrong about what maps).
TEST_P(CodecErrors, CasesAgreeWithReferenceOnTheBadCharacter) {
  for (const auto& ec : error_cases()) {
    const auto& t = *pgcodec::detail::mapping_table(ec.enc);
    if (ec.decoding) {
      const auto ref = pgcodec::harness::model_decode(t, ec.bad);
      EXPECT_EQ(kind_of(ref.kind), ec.kind) << Hex(ec.bad);
      EXPECT_NE(ref.kind, OutcomeKind::Ok) << Hex(ec.bad);
    } else if (ec.kind == ErrorKind::NoEquivalent) {
      EXPECT_EQ(pgcodec::harness::model_encode(t, ec.bad).kind, OutcomeKind::NoEquivalent)
          << Hex(ec.bad);
    }
  }
}

// ---------------------------------------------------------------------------
// 3. Several errors: the first in input order is reported.

TEST_P(CodecErrors, FirstErrorInInputOrderWins) {
  const Codec& w = pgcodec::codec(Encoding::WIN1252);
  // NoEquivalent before an invalid NUL: convert() would report the NUL
  // (it validates first); the client_encoding path reports the 0x81.
  Conv x = dec(w, std::string("a\x81" "b\0c", 5));
  ASSERT_EQ(x.r.status, Status::Error);
  EXPECT_EQ(x.r.error.kind, ErrorKind::NoEquivalent);
  EXPECT_EQ(x.r.error.offset, 1u);
  EXPECT_EQ(x.out, "a");
  x = dec(w, std::string("ab\0\x81", 4));
  ASSERT_EQ(x.r.status, Status::Error);
  EXPECT_EQ(x.r.error.kind, ErrorKind::InvalidByteSequence);
  EXPECT_EQ(x.r.error.offset, 2u);
  x = dec(w, "\x80\x81\x8d\x8f");  // euro, then three unmapped bytes
  ASSERT_EQ(x.r.status, Status::Error);
  EXPECT_EQ(x.r.error.offset, 1u);
  EXPECT_EQ(x.out, "\xE2\x82\xAC");

  const Codec& u = pgcodec::codec(Encoding::UTF8);
  x = dec(u, "x\xC3\x28 y \xFF");
  ASSERT_EQ(x.r.status, Status::Error);
  EXPECT_EQ(x.r.error.offset, 1u);
  EXPECT_EQ(x.r.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28");
  x = dec(pgcodec::codec(Encoding::SQL_ASCII), std::string(20, 'a') + "\x80\xFF");
  ASSERT_EQ(x.r.status, Status::Error);
  EXPECT_EQ(x.r.error.offset, 20u);
  EXPECT_EQ(x.r.error.bytes[0], 0x80u);

  const Codec& l1 = pgcodec::codec(Encoding::LATIN1);
  x = enc(l1, "\xC3\xA9\xE2\x82\xAC \xFF");  // é ok, € unmapped, then invalid
  ASSERT_EQ(x.r.status, Status::Error);
  EXPECT_EQ(x.r.error.kind, ErrorKind::NoEquivalent);
  EXPECT_EQ(x.r.error.offset, 2u);
  EXPECT_EQ(x.out, "\xE9");
  x = enc(l1, "\xFF \xE2\x82\xAC");
  ASSERT_EQ(x.r.status, Status::Error);
  EXPECT_EQ(x.r.error.kind, ErrorKind::InvalidByteSequence);
  EXPECT_EQ(x.r.error.offset, 0u);
}

// With exactly one error anywhere in a random string, the codec's verdict
// kind matches the reference (whose order differs only with 2+ errors).
TEST_P(CodecErrors, SingleErrorKindMatchesReferenceOnRandomStrings) {
  std::mt19937 rng(7);
  for (Encoding e : utf8_and_single_byte()) {
    const Codec& c = pgcodec::codec(e);
    const auto& t = *pgcodec::detail::mapping_table(e);
    const std::string good = good_bytes(e);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int iter = 0; iter < 200; ++iter) {
      std::string in = good + std::string(static_cast<std::size_t>(iter % 20), 'q') + good;
      const auto at = static_cast<std::size_t>(iter) % (in.size() + 1);
      // Insert one character that is bad by the reference, at a character
      // boundary of a valid string.
      std::string bad(1, static_cast<char>(byte(rng)));
      if (pgcodec::harness::model_decode(t, bad).kind == OutcomeKind::Ok) continue;
      std::size_t pos = std::min(at, in.size());
      while (pos > 0 && pos < in.size() && (static_cast<unsigned char>(in[pos]) & 0xC0) == 0x80 &&
             is_identity(e))
        --pos;
      in.insert(pos, bad);
      if (is_identity(e) && pgcodec::detail::verify_prefix(
                                Encoding::UTF8, reinterpret_cast<const unsigned char*>(in.data()),
                                in.size()) != pos)
        continue;  // the byte joined with its neighbours; not a clean single error
      const auto ref = pgcodec::harness::model_decode(t, in);
      const Conv x = dec(c, in);
      ASSERT_NE(ref.kind, OutcomeKind::Ok);
      ASSERT_EQ(x.r.status, Status::Error) << Hex(in);
      EXPECT_EQ(x.r.error.kind, kind_of(ref.kind)) << Hex(in);
      EXPECT_EQ(x.r.error.offset, pos) << Hex(in);
    }
  }
}

// ---------------------------------------------------------------------------
// 4. Replace mode.

class CodecReplace : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(CodecReplace);

TEST_P(CodecReplace, ExpectedTextForInputsWithErrors) {
  const Codec& w = pgcodec::codec(Encoding::WIN1252);
  EXPECT_EQ(dec(w, std::string("a\x81" "b\0c", 5), ErrorMode::Replace).out,
            "a" + kFFFD + "b" + kFFFD + "c");
  EXPECT_EQ(dec(w, "\x80\x81\x80", ErrorMode::Replace).out,
            "\xE2\x82\xAC" + kFFFD + "\xE2\x82\xAC");
  const Codec& u = pgcodec::codec(Encoding::UTF8);
  EXPECT_EQ(dec(u, "a\xC3\x28" "b", ErrorMode::Replace).out, "a" + kFFFD + "(b");
  EXPECT_EQ(dec(u, "a\xE2\x82", ErrorMode::Replace).out, "a" + kFFFD + kFFFD);
  EXPECT_EQ(dec(u, "\xF0\x9F\x98\x80\xFF\xF0\x9F\x98\x80", ErrorMode::Replace).out,
            "\xF0\x9F\x98\x80" + kFFFD + "\xF0\x9F\x98\x80");
  EXPECT_EQ(dec(u, std::string("\0\0", 2), ErrorMode::Replace).out, kFFFD + kFFFD);
  EXPECT_EQ(dec(pgcodec::codec(Encoding::SQL_ASCII), "x\x80y", ErrorMode::Replace).out,
            "x" + kFFFD + "y");
  const Codec& l1 = pgcodec::codec(Encoding::LATIN1);
  EXPECT_EQ(enc(l1, "a\xE2\x82\xAC" "b\xFF" "c\xC3\xA9", ErrorMode::Replace).out, "a?b?c\xE9");
  EXPECT_EQ(enc(l1, "\xF0\x9F\x98\x80\xC3\x28", ErrorMode::Replace).out, "?" "?(");
  EXPECT_EQ(enc(pgcodec::codec(Encoding::SQL_ASCII), "\xC3\x28\xC3\xA9", ErrorMode::Replace).out,
            "?(\xC3\xA9");
  EXPECT_EQ(enc(pgcodec::codec(Encoding::KOI8R), "\xD0\x96\xC3\xA9", ErrorMode::Replace).out,
            "\xF6?");  // Ж is 0xF6 in KOI8-R; é has none
}

// Replace-mode decoding of random bytes equals a per-character model built
// from the reference (single-byte) or verify_char (UTF-8): never fails.
TEST_P(CodecReplace, RandomInputsMatchPerCharacterModel) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::size_t> len(0, 300);
  for (Encoding e : utf8_and_single_byte()) {
    const Codec& c = pgcodec::codec(e);
    const auto& t = *pgcodec::detail::mapping_table(e);
    for (int iter = 0; iter < 150; ++iter) {
      const std::string in = random_bytes(rng, len(rng), is_identity(e));
      std::string model;
      const auto* p = reinterpret_cast<const unsigned char*>(in.data());
      for (std::size_t i = 0; i < in.size();) {
        if (is_identity(e)) {
          const int l = pgcodec::detail::verify_char(Encoding::UTF8, p + i, in.size() - i);
          if (l > 0) {
            model.append(in, i, static_cast<std::size_t>(l));
            i += static_cast<std::size_t>(l);
          } else {
            model += kFFFD;
            ++i;
          }
        } else {
          const auto ref = pgcodec::harness::model_decode(t, in.substr(i, 1));
          model += ref.kind == OutcomeKind::Ok ? ref.output : kFFFD;
          ++i;
        }
      }
      const Conv x = dec(c, in, ErrorMode::Replace);
      ASSERT_EQ(x.r.status, Status::Ok) << pgcodec::info(e).name << " " << Hex(in);
      EXPECT_EQ(x.r.consumed, in.size());
      ASSERT_EQ(x.out, model) << pgcodec::info(e).name << " " << Hex(in);
      // Output is always valid UTF-8.
      EXPECT_EQ(pgcodec::detail::verify_prefix(
                    Encoding::UTF8, reinterpret_cast<const unsigned char*>(x.out.data()),
                    x.out.size()),
                x.out.size());
      // Without errors Replace and Strict agree.
      const Conv strict = dec(c, in);
      if (strict.r.ok()) { EXPECT_EQ(strict.out, x.out); }
    }
  }
}

TEST_P(CodecReplace, EncodeNeverFailsAndRoundTrips) {
  std::mt19937 rng(12);
  for (Encoding e : utf8_and_single_byte()) {
    const Codec& c = pgcodec::codec(e);
    for (int iter = 0; iter < 150; ++iter) {
      const std::string in = random_utf8_for(rng, e, static_cast<std::size_t>(iter), 5);
      const Conv x = enc(c, in, ErrorMode::Replace);
      ASSERT_EQ(x.r.status, Status::Ok) << pgcodec::info(e).name << " " << Hex(in);
      EXPECT_EQ(x.r.consumed, in.size());
      // What Replace mode writes always decodes back without error.
      const Conv back = dec(c, x.out);
      EXPECT_EQ(back.r.status, Status::Ok) << pgcodec::info(e).name << " " << Hex(x.out);
      const Conv strict = enc(c, in);
      if (strict.r.ok()) {
        EXPECT_EQ(strict.out, x.out);
        EXPECT_EQ(back.out, in);  // a clean round trip
      } else {
        EXPECT_NE(x.out.find('?'), std::string::npos);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// 5. Output buffer too small.

void check_every_capacity(const Codec& c, bool decoding, std::string_view in, ErrorMode mode) {
  const Conv full = decoding ? dec(c, in, mode) : enc(c, in, mode);
  ASSERT_EQ(full.r.status, Status::Ok);
  const std::size_t needed = full.r.written;
  std::vector<char> buf(needed + 2);
  std::size_t last_consumed = 0;
  for (std::size_t cap = 0; cap <= needed + 1; ++cap) {
    std::fill(buf.begin(), buf.end(), '\x55');
    const std::span<char> out(buf.data(), cap);
    const Result r = decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
    const std::string what = std::string(c.name()) + (decoding ? " decode " : " encode ") +
                             Hex(in) + " cap " + std::to_string(cap);
    if (cap < needed) {
      ASSERT_EQ(r.status, Status::OutputFull) << what;
    } else {
      ASSERT_EQ(r.status, Status::Ok) << what;
      ASSERT_EQ(r.consumed, in.size()) << what;
    }
    ASSERT_LE(r.written, cap) << what;
    ASSERT_LE(r.consumed, in.size()) << what;
    EXPECT_EQ(buf[cap], '\x55') << what << ": wrote past the end of the output span";
    // Progress is monotonic in the capacity, and nothing is left unused
    // that the next character (at most 4 output bytes) would have fitted in.
    EXPECT_GE(r.consumed, last_consumed) << what;
    last_consumed = r.consumed;
    if (r.status == Status::OutputFull) { EXPECT_LT(cap - r.written, 4u) << what; }
    // The consumed prefix converts to exactly what was written ...
    const std::string_view head = in.substr(0, r.consumed);
    const Conv pre = decoding ? dec(c, head, mode) : enc(c, head, mode);
    ASSERT_EQ(pre.r.status, Status::Ok) << what;
    ASSERT_EQ(pre.out, std::string_view(buf.data(), r.written)) << what;
    // ... and the rest converts to the remainder: resuming is seamless.
    const Conv rest = decoding ? dec(c, in.substr(r.consumed), mode)
                               : enc(c, in.substr(r.consumed), mode);
    ASSERT_EQ(pre.out + rest.out, full.out) << what;
  }
}

class CodecOutputFull : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(CodecOutputFull);

TEST_P(CodecOutputFull, EveryCapacityGivesAConsistentPrefix) {
  std::mt19937 rng(5);
  for (Encoding e : utf8_and_single_byte()) {
    const Codec& c = pgcodec::codec(e);
    const std::string good = good_bytes(e);
    const std::string good_utf8 = dec(c, good).out;
    // Valid input, Strict.
    check_every_capacity(c, true, good + std::string(20, 'a') + good, ErrorMode::Strict);
    check_every_capacity(c, false, good_utf8 + std::string(20, 'a') + good_utf8, ErrorMode::Strict);
    // Input with errors, Replace.
    for (int iter = 0; iter < 4; ++iter) {
      check_every_capacity(c, true, random_bytes(rng, 40, is_identity(e)), ErrorMode::Replace);
      check_every_capacity(c, false, random_utf8_for(rng, e, 25, 10), ErrorMode::Replace);
    }
  }
}

// The CodecOps contract (src/codecs/codec_ops.hpp): no family stores into
// out[written, cap), in any mode, whatever stops it.
TEST_P(CodecOutputFull, NothingStoredPastWritten) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> byte(0, 255), len(0, 24);
  std::uniform_int_distribution<std::uint32_t> cp(0x20, 0x10FFFF);
  std::vector<char> buf(200);
  for (const auto& inf : pgcodec::encodings()) {
    const Codec& c = pgcodec::codec(inf.id);
    for (int iter = 0; iter < 300; ++iter) {
      const bool decoding = iter % 2 == 0;
      std::string in;
      const int n = len(rng);
      for (int k = 0; k < n; ++k) {
        if (decoding || k % 3 == 0) {
          in += static_cast<char>(byte(rng));
        } else {
          std::uint32_t v = cp(rng);
          if (v >= 0xD800 && v < 0xE000) v = 0x4E00 + v % 0x5000;
          pgcodec::detail::append_utf8(in, k % 2 ? 0x80 + v % 0x780 : v);
        }
      }
      const std::size_t cap = static_cast<std::size_t>(iter % 60);
      const ErrorMode mode = iter % 4 < 2 ? ErrorMode::Strict : ErrorMode::Replace;
      std::fill(buf.begin(), buf.end(), '\x5A');
      const std::span<char> out(buf.data(), cap);
      const Result r = decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
      ASSERT_LE(r.written, cap);
      for (std::size_t i = r.written; i < buf.size(); ++i)
        ASSERT_EQ(buf[i], '\x5A') << inf.name << (decoding ? " decode " : " encode ") << Hex(in)
                                   << " cap " << cap << " written " << r.written << " at " << i;
    }
  }
}

// Strict mode with an error after a good prefix: a buffer too small for
// the prefix is OutputFull, a buffer with room beyond it reports the error.
TEST_P(CodecOutputFull, StrictErrorAfterPrefix) {
  for (const auto& ec : error_cases()) {
    const Codec& c = pgcodec::codec(ec.enc);
    const std::string prefix = prefixes(ec.enc, ec.decoding)[6];
    const std::string in = prefix + ec.bad + "def";
    const Conv good = ec.decoding ? dec(c, prefix) : enc(c, prefix);
    const Conv full = ec.decoding ? dec(c, in) : enc(c, in);
    ASSERT_EQ(full.r.status, Status::Error);
    std::vector<char> buf(good.out.size() + 8);
    for (std::size_t cap = 0; cap <= buf.size(); ++cap) {
      const std::span<char> out(buf.data(), cap);
      const Result r = ec.decoding ? c.decode(in, out) : c.encode(in, out);
      const std::string what = Hex(in) + " cap " + std::to_string(cap);
      if (cap < good.out.size()) {
        EXPECT_EQ(r.status, Status::OutputFull) << what;
      } else if (cap > good.out.size()) {
        // (cap == the prefix's size may be either: the buffer is full and
        // the next character is bad.)
        ASSERT_EQ(r.status, Status::Error) << what;
      }
      if (r.status == Status::Error) {
        expect_same_result(r, full.r, what);
        EXPECT_EQ(std::string_view(buf.data(), r.written), good.out) << what;
      } else {
        ASSERT_EQ(r.status, Status::OutputFull) << what;
        EXPECT_LE(r.consumed, prefix.size()) << what;
        EXPECT_EQ(std::string_view(buf.data(), r.written),
                  std::string_view(good.out).substr(0, r.written))
            << what;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// 6. Size bounds.

// Found by check_fuzzer (corpus/regressions/fuzz/check_fuzzer/): with no
// output buffer at all (a null pointer of capacity 0, as the C API allows)
// the ASCII-run copy handed memcpy that null pointer for 0 bytes, which
// UndefinedBehaviorSanitizer reports under the sanitize preset. Every
// family, both directions, both modes.
TEST_P(CodecOutputFull, NullBufferOfCapacityZero) {
  for (const pgcodec::EncodingInfo& e : pgcodec::encodings()) {
    const Codec& c = pgcodec::codec(e.id);
    for (ErrorMode mode : {ErrorMode::Strict, ErrorMode::Replace}) {
      const Result d = c.decode("abc", std::span<char>{}, mode);
      EXPECT_EQ(d.status, Status::OutputFull) << e.name;
      EXPECT_EQ(d.consumed, 0u) << e.name;
      const Result n = c.encode("abc", std::span<char>{}, mode);
      EXPECT_EQ(n.status, Status::OutputFull) << e.name;
      EXPECT_EQ(n.written, 0u) << e.name;
    }
  }
}

class CodecSizes : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(CodecSizes);

TEST_P(CodecSizes, BoundsHoldForRandomInputsInReplaceMode) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<std::size_t> len(0, 200);
  for (Encoding e : utf8_and_single_byte()) {
    const Codec& c = pgcodec::codec(e);
    std::vector<std::string> inputs;
    for (int i = 0; i < 100; ++i) inputs.push_back(random_bytes(rng, len(rng), i % 2 == 0));
    // The worst cases: every byte an error, or every byte a 3-byte character.
    inputs.push_back(std::string(64, '\xFF'));
    inputs.push_back(std::string(64, '\x80'));
    inputs.push_back(std::string(64, '\0'));
    for (const auto& in : inputs) {
      const std::size_t dcap = *c.max_decoded_size(in.size());
      const std::size_t ecap = *c.max_encoded_size(in.size());
      std::vector<char> out(std::max(dcap, ecap) + 1);
      Result r = c.decode(in, std::span<char>(out.data(), dcap), ErrorMode::Replace);
      EXPECT_EQ(r.status, Status::Ok) << c.name() << " " << Hex(in);
      EXPECT_LE(r.written, dcap);
      r = c.encode(in, std::span<char>(out.data(), ecap), ErrorMode::Replace);
      EXPECT_EQ(r.status, Status::Ok) << c.name() << " " << Hex(in);
      EXPECT_LE(r.written, ecap);
    }
    EXPECT_EQ(c.max_decoded_size(0), std::optional<std::size_t>(0));
    EXPECT_EQ(c.max_encoded_size(0), std::optional<std::size_t>(0));
  }
  // The bound is tight for UTF-8 decoding of bad bytes: 3 bytes each.
  const Codec& u = pgcodec::codec(Encoding::UTF8);
  EXPECT_EQ(dec(u, std::string(10, '\xFF'), ErrorMode::Replace).out.size(), 30u);
  EXPECT_GE(*u.max_decoded_size(10), 30u);
}

TEST_P(CodecSizes, OverflowGivesNullopt) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  for (const auto& inf : pgcodec::encodings()) {
    const Codec& c = pgcodec::codec(inf.id);
    EXPECT_EQ(c.max_decoded_size(kMax), std::nullopt) << inf.name;
    EXPECT_EQ(c.max_encoded_size(kMax), std::nullopt) << inf.name;
    for (std::size_t n : {kMax / 2, kMax / 3 + 1, kMax / 4 + 1, kMax - 1}) {
      // Either no answer or an answer that did not wrap around.
      if (auto d = c.max_decoded_size(n)) { EXPECT_GE(*d, n) << inf.name; }
      if (auto d = c.max_encoded_size(n)) { EXPECT_GE(*d, n) << inf.name; }
    }
    EXPECT_TRUE(c.max_decoded_size(1000).has_value());
    EXPECT_GE(*c.max_decoded_size(1000), 1000u);
  }
}

// ---------------------------------------------------------------------------
// 7. char_length.

TEST(CodecCharLength, Utf8) {
  const Codec& u = pgcodec::codec(Encoding::UTF8);
  const std::string s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";  // a é € 😀
  EXPECT_EQ(u.char_length(s, 0), 1u);
  EXPECT_EQ(u.char_length(s, 1), 2u);
  EXPECT_EQ(u.char_length(s, 3), 3u);
  EXPECT_EQ(u.char_length(s, 6), 4u);
  EXPECT_EQ(u.char_length(s, 10), 0u);  // the end
  EXPECT_EQ(u.char_length(s, 11), 0u);
  EXPECT_EQ(u.char_length("", 0), 0u);
  // Truncated leads: capped at what is left.
  EXPECT_EQ(u.char_length("a\xE2\x82", 1), 2u);
  EXPECT_EQ(u.char_length("\xF0", 0), 1u);
  EXPECT_EQ(u.char_length("\xF0\x9F\x98", 0), 3u);
  // As the lead byte says, not a validity check.
  EXPECT_EQ(u.char_length("\xC3\x28", 0), 2u);
  EXPECT_EQ(u.char_length("\x80\x80", 0), 1u);
  EXPECT_EQ(u.char_length("\xFF\x80", 0), 1u);
  // Stepping over a string visits every character.
  std::size_t n = 0;
  for (std::size_t at = 0; at < s.size(); at += u.char_length(s, at)) ++n;
  EXPECT_EQ(n, 4u);
}

TEST(CodecCharLength, SingleByteAndMultibyte) {
  for (Encoding e : single_byte_encodings()) {
    const Codec& c = pgcodec::codec(e);
    for (unsigned b = 0; b < 0x100; ++b) {
      const std::string s = {static_cast<char>(b), static_cast<char>(0xE2), 'x'};
      EXPECT_EQ(c.char_length(s, 0), 1u) << c.name() << " " << b;
      EXPECT_EQ(c.char_length(s, 1), 1u) << c.name();
      EXPECT_EQ(c.char_length(s, 3), 0u) << c.name();
    }
  }
  // Multibyte codecs: the lead byte decides.
  const Codec& sjis = pgcodec::codec(Encoding::SJIS);
  EXPECT_EQ(sjis.char_length("\x82\xA0\x5C", 0), 2u);
  EXPECT_EQ(sjis.char_length("\x82\xA0\x5C", 2), 1u);
  EXPECT_EQ(sjis.char_length("a\x82", 1), 1u);  // truncated: capped
  EXPECT_EQ(sjis.char_length("a\x82", 2), 0u);
}

// ---------------------------------------------------------------------------
// 8. The by-name path and the unimplemented codecs.

class CodecByName : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(CodecByName);

TEST_P(CodecByName, SameResultsAsCachedPath) {
  struct Named {
    const char* name;
    Encoding e;
  };
  const Named names[] = {{"win-1252", Encoding::WIN1252}, {"utf-8", Encoding::UTF8},
                         {"Latin1", Encoding::LATIN1},    {"koi8-r", Encoding::KOI8R},
                         {"sql_ascii", Encoding::SQL_ASCII}, {"ISO-8859-5", Encoding::ISO_8859_5},
                         {"WIN1258", Encoding::WIN1258}};
  std::mt19937 rng(9);
  std::uniform_int_distribution<std::size_t> len(0, 100);
  for (const auto& nm : names) {
    ASSERT_EQ(pgcodec::find_codec(nm.name), &pgcodec::codec(nm.e)) << nm.name;
    const Codec& c = pgcodec::codec(nm.e);
    for (int iter = 0; iter < 200; ++iter) {
      const auto mode = iter % 3 == 0 ? ErrorMode::Replace : ErrorMode::Strict;
      const std::string in = iter % 2 ? random_bytes(rng, len(rng), iter % 4 == 1)
                                       : random_utf8_for(rng, nm.e, len(rng), 3);
      std::vector<char> a(*c.max_decoded_size(in.size())), b(a.size());
      // Decode, with a full and a short buffer.
      for (std::size_t cap : {a.size(), a.size() / 2}) {
        const Result ra = c.decode(in, std::span<char>(a.data(), cap), mode);
        const Result rb = pgcodec::decode(nm.name, in, std::span<char>(b.data(), cap), mode);
        expect_same_result(ra, rb, std::string(nm.name) + " decode " + Hex(in));
        EXPECT_EQ(std::string_view(a.data(), ra.written), std::string_view(b.data(), rb.written));
        const Result ea = c.encode(in, std::span<char>(a.data(), cap), mode);
        const Result eb = pgcodec::encode(nm.name, in, std::span<char>(b.data(), cap), mode);
        expect_same_result(ea, eb, std::string(nm.name) + " encode " + Hex(in));
        EXPECT_EQ(std::string_view(a.data(), ea.written), std::string_view(b.data(), eb.written));
      }
    }
  }
}

TEST_P(CodecByName, UnknownNameThrowsInvalidArgument) {
  char buf[8];
  EXPECT_THROW(pgcodec::decode("no-such-encoding", "abc", std::span<char>(buf, 8)),
               std::invalid_argument);
  EXPECT_THROW(pgcodec::encode("no-such-encoding", "abc", std::span<char>(buf, 8)),
               std::invalid_argument);
  EXPECT_THROW(pgcodec::decode("", "abc", std::span<char>(buf, 8)), std::invalid_argument);
  EXPECT_EQ(pgcodec::find_codec("no-such-encoding"), nullptr);
}

TEST_P(CodecByName, MultibyteByNameEqualsCached) {
  char a[64], b[64];
  const std::string sjis = "\x82\xa0\x5c\x41\x88\x9f";  // あ, backslash, A, 亜
  for (const char* name : {"shift-jis", "S.J.I.S", "sjis"}) {
    const Result by_name = pgcodec::decode(name, sjis, std::span<char>(a, sizeof a));
    const Result cached = pgcodec::codec(Encoding::SJIS).decode(sjis, std::span<char>(b, sizeof b));
    ASSERT_TRUE(by_name.ok()) << name;
    EXPECT_EQ(by_name.written, cached.written);
    EXPECT_EQ(std::string(a, by_name.written), std::string(b, cached.written));
    EXPECT_EQ(std::string(a, by_name.written), "\xe3\x81\x82\x5c\x41\xe4\xba\x9c");
  }
}

// ---------------------------------------------------------------------------
// 9. Allocating conveniences.

class CodecAlloc : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(CodecAlloc);

TEST_P(CodecAlloc, DecodeAndEncodeStrings) {
  const Codec& l1 = pgcodec::codec(Encoding::LATIN1);
  EXPECT_EQ(l1.decode("caf\xE9"), "caf\xC3\xA9");
  EXPECT_EQ(l1.encode("caf\xC3\xA9"), "caf\xE9");
  EXPECT_EQ(l1.decode(""), "");
  const Codec& w = pgcodec::codec(Encoding::WIN1252);
  EXPECT_EQ(w.decode("\x80 5"), "\xE2\x82\xAC 5");
  EXPECT_EQ(w.decode("a\x81" "b", ErrorMode::Replace), "a" + kFFFD + "b");
  EXPECT_EQ(l1.encode("\xE2\x82\xAC!", ErrorMode::Replace), "?!");
  const Codec& u = pgcodec::codec(Encoding::UTF8);
  EXPECT_EQ(u.decode("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(u.decode("a\xFF", ErrorMode::Replace), "a" + kFFFD);
  // A long input that needs more than the ASCII fast path.
  std::string long_in;
  for (int i = 0; i < 1000; ++i) long_in += "x\xE9";
  EXPECT_EQ(l1.decode(long_in).size(), 3000u);
}

TEST_P(CodecAlloc, StrictErrorsThrowConversionError) {
  const Codec& w = pgcodec::codec(Encoding::WIN1252);
  try {
    (void)w.decode("abc\x81" "def");
    FAIL() << "no exception";
  } catch (const pgcodec::ConversionError& ex) {
    EXPECT_EQ(ex.error().kind, ErrorKind::NoEquivalent);
    EXPECT_EQ(ex.error().offset, 3u);
    EXPECT_EQ(ex.error().skip, 1u);
    EXPECT_STREQ(ex.error().sqlstate(), "22P05");
    EXPECT_EQ(std::string(ex.what()),
              "character with byte sequence 0x81 in encoding \"WIN1252\" has no equivalent in "
              "encoding \"UTF8\"");
  }
  const Codec& l1 = pgcodec::codec(Encoding::LATIN1);
  try {
    (void)l1.encode("ab\xE2\x82\xAC");
    FAIL() << "no exception";
  } catch (const pgcodec::ConversionError& ex) {
    EXPECT_EQ(ex.error().offset, 2u);
    EXPECT_EQ(ex.error().skip, 3u);
    EXPECT_EQ(ex.error().target, Encoding::LATIN1);
    EXPECT_EQ(ex.error().message(), ex.what());
  }
  EXPECT_THROW((void)pgcodec::codec(Encoding::UTF8).decode("\xC3\x28"), pgcodec::ConversionError);
  EXPECT_THROW((void)pgcodec::codec(Encoding::SQL_ASCII).encode(std::string("a\0", 2)),
               pgcodec::ConversionError);
  // ConversionError is a std::runtime_error.
  EXPECT_THROW((void)w.decode("\x81"), std::runtime_error);
}

}  // namespace

namespace {
// The iterate-all-errors mode: every error, in order, resuming as documented.
class CodecCheck : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(CodecCheck);

TEST_P(CodecCheck, DecodeAndEncodeVisitEveryError) {
  using pgcodec::Error;
  using pgcodec::ErrorKind;
  std::vector<std::pair<std::size_t, ErrorKind>> seen;
  auto collect = [&](const Error& e) { seen.emplace_back(e.offset, e.kind); };

  const auto& w = pgcodec::codec(pgcodec::Encoding::WIN1252);
  auto c = w.for_each_decode_error(std::string_view("a\x81" "b\0c\x81", 6), collect);
  EXPECT_EQ(c.errors, 3u);
  EXPECT_EQ(c.consumed, 6u);
  EXPECT_EQ(seen, (std::vector<std::pair<std::size_t, ErrorKind>>{
                      {1, ErrorKind::NoEquivalent}, {3, ErrorKind::InvalidByteSequence},
                      {5, ErrorKind::NoEquivalent}}));

  seen.clear();
  const auto& u = pgcodec::codec(pgcodec::Encoding::UTF8);
  c = u.for_each_decode_error("\xc3\x28\xe2\x82", collect);
  EXPECT_EQ(c.errors, 3u);
  EXPECT_EQ(seen, (std::vector<std::pair<std::size_t, ErrorKind>>{
                      {0, ErrorKind::InvalidByteSequence}, {2, ErrorKind::InvalidByteSequence},
                      {3, ErrorKind::InvalidByteSequence}}));
  // Not final: the cut-off E2 82 is left for the next chunk, not an error.
  seen.clear();
  c = u.for_each_decode_error("\xc3\x28\xe2\x82", collect, false);
  EXPECT_EQ(c.errors, 1u);
  EXPECT_EQ(c.consumed, 2u);

  seen.clear();
  const auto& l = pgcodec::codec(pgcodec::Encoding::LATIN1);
  c = l.for_each_encode_error("\xe2\x82\xac" "x\xe2\x82\xac" "\xff", collect);
  EXPECT_EQ(c.errors, 3u);
  EXPECT_EQ(seen, (std::vector<std::pair<std::size_t, ErrorKind>>{
                      {0, ErrorKind::NoEquivalent}, {4, ErrorKind::NoEquivalent},
                      {7, ErrorKind::InvalidByteSequence}}));
  // No errors: nothing visited, everything examined.
  seen.clear();
  c = l.for_each_encode_error("plain", collect);
  EXPECT_EQ(c.errors, 0u);
  EXPECT_EQ(c.consumed, 5u);
  EXPECT_TRUE(seen.empty());
}

// The regressions of issue 23 (corpus/regressions/fuzz/, replayed by
// Fuzz.Replay/<target>), each pinned here by what it should give now.

std::string encode_with(Encoding e, std::string_view utf8, ErrorMode mode, std::size_t cap = 64) {
  std::string out(cap, '\0');
  const Result r = pgcodec::codec(e).encode(utf8, out, mode);
  out.resize(r.written);
  return out;
}

// encode_fuzzer/623422483059342c, 7728ce2220975cf2, 310757e2496b30db:
// encode_partial held back a complete invalid sequence and left it to the
// next call; encode and decode_partial report it at once, and so does it now.
TEST(Regression, EncodePartialReportsACompleteInvalidSequenceAtOnce) {
  struct Case {
    Encoding e;
    std::string in;
    std::size_t quoted;
  };
  for (const Case& k : {Case{Encoding::LATIN1, "\xc3\xf2", 2}, Case{Encoding::UTF8, "\xe2\xf2\x9e\xa5", 3},
                        Case{Encoding::SJIS, "\xf0\x80\x80\xf1\xf1\xf1", 4},
                        Case{Encoding::SHIFT_JIS_2004, "\xc3\xf2", 2}}) {
    const Codec& c = pgcodec::codec(k.e);
    std::string out(64, '\0');
    const Result whole = c.encode(k.in, out);
    const Result part = c.encode_partial(k.in, out);
    ASSERT_EQ(part.status, Status::Error) << Hex(k.in);
    EXPECT_EQ(part.error.offset, 0u);
    EXPECT_EQ(part.error.length, k.quoted) << Hex(k.in);
    EXPECT_EQ(part.error.message(), whole.error.message());
    pgcodec::StreamEncoder s(c);
    EXPECT_EQ(s.feed(k.in, out).status, Status::Error) << Hex(k.in);
  }
}

// check_fuzzer/c764007b89679be7: in SHIFT_JIS_2004 the lookahead's error in
// the next character (80) left U+2057C, which has no equivalent, unlisted,
// while Replace mode replaced it: check lists both now, as Replace replaces.
TEST(Regression, CheckEncodeListsTheCharacterBeforeALookaheadError) {
  const Codec& c = pgcodec::codec(Encoding::SHIFT_JIS_2004);
  std::vector<std::pair<std::size_t, ErrorKind>> seen;
  c.for_each_encode_error("\xf0\xa0\x85\xbc\x80",
                          [&](const Error& e) { seen.emplace_back(e.offset, e.kind); });
  EXPECT_EQ(seen, (std::vector<std::pair<std::size_t, ErrorKind>>{{0, ErrorKind::NoEquivalent},
                                                                  {4, ErrorKind::InvalidByteSequence}}));
  EXPECT_EQ(encode_with(Encoding::SHIFT_JIS_2004, "\xf0\xa0\x85\xbc\x80", ErrorMode::Replace), "??");
}

// encode_fuzzer/5692fe4828ed2536: a single-byte encoder with its buffer full
// exactly before an invalid byte answered OutputFull; every family answers
// the error (it needs no room).
TEST(Regression, SingleByteEncodeReportsTheErrorWhenTheBufferIsFull) {
  const Codec& c = pgcodec::codec(Encoding::LATIN1);
  char one[1];
  const Result r = c.encode("a\xff", one);
  EXPECT_EQ(r.status, Status::Error);
  EXPECT_EQ(r.error.offset, 1u);
  EXPECT_EQ(r.written, 1u);
  EXPECT_EQ(c.encode("a\xc3\xa9", one).status, Status::OutputFull);  // room, not an error, is missing
}

// check_fuzzer/74c4635d96eaf4e2, 8b4e92cc3110bdfe, 57e54c2ed4d1cbb1: Replace
// mode replaced a valid character before one cut off by the end (PostgreSQL
// reports the valid one in strict mode); only the cut-off one is replaced.
TEST(Regression, ReplaceKeepsAValidCharacterBeforeACutOffOne) {
  EXPECT_EQ(Hex(encode_with(Encoding::EUC_JIS_2004, "\xc9\x99\xcb", ErrorMode::Replace)), Hex("\xab\xb0?"));
  EXPECT_EQ(Hex(encode_with(Encoding::SHIFT_JIS_2004, "\xc9\x99\xcb", ErrorMode::Replace)), Hex("\x86\x4f?"));
  EXPECT_EQ(Hex(encode_with(Encoding::EUC_JIS_2004, "\xe3\x81\x8b\xcb", ErrorMode::Replace)), Hex("\xa4\xab?"));
  // Strict mode stays PostgreSQL's: the valid character is the one reported.
  std::string out(8, '\0');
  const Result r = pgcodec::codec(Encoding::EUC_JIS_2004).encode("\xc9\x99\xcb", out);
  EXPECT_EQ(r.status, Status::Error);
  EXPECT_EQ(r.error.offset, 0u);
}
}  // namespace
