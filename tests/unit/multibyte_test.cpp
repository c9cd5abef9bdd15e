// The multibyte codecs against the reference, exhaustively over the byte
// sequences pgcodec-gentables enumerates and every code point, plus the
// boundary scanner on trail bytes that look like ASCII and streaming.
//
// The expectation for a multi-character input is built in input order from
// the structural rules and the single-character reference (each verified
// against the server by pgcodec-gentables --check), as PostgreSQL's
// LocalToUtf() reports errors.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/model.hpp"
#include "rules/utf8.hpp"
#include "rules/grammar.hpp"
#include "pgcodec/codec.hpp"
#include "pgcodec/stream.hpp"
#include "tables/table.hpp"
#include "test_util.hpp"

namespace {

using pgcodec::Codec;
using pgcodec::Encoding;
using pgcodec::ErrorKind;
using pgcodec::Result;
using pgcodec::Status;
using pgcodec::harness::OutcomeKind;
using pgcodec::test::Hex;

std::vector<Encoding> multibyte() {
  std::vector<Encoding> v;
  for (auto& i : pgcodec::encodings())
    if (i.max_char_length > 1 && i.id != Encoding::UTF8) v.push_back(i.id);
  return v;
}

struct Expect {
  bool ok = true;
  std::string out;
  ErrorKind kind{};
  std::size_t offset = 0;
};

Expect in_order(Encoding e, std::string_view s) {
  const auto& t = *pgcodec::detail::mapping_table(e);
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  Expect x;
  for (std::size_t i = 0; i < s.size();) {
    if (p[i] != 0 && p[i] < 0x80) {
      x.out.push_back(s[i++]);
      continue;
    }
    const int l = p[i] ? pgcodec::detail::verify_char(e, p + i, s.size() - i) : -1;
    if (l < 0) return {false, "", ErrorKind::InvalidByteSequence, i};
    const auto a = pgcodec::harness::model_decode(t, s.substr(i, static_cast<std::size_t>(l)));
    if (a.kind != OutcomeKind::Ok) return {false, "", ErrorKind::NoEquivalent, i};
    x.out += a.output;
    i += static_cast<std::size_t>(l);
  }
  return x;
}

void check_decode(const Codec& c, std::string_view in, std::vector<char>& buf) {
  const Expect x = in_order(c.encoding(), in);
  const Result r = c.decode(in, buf);
  ASSERT_EQ(r.ok(), x.ok) << c.name() << " " << Hex(in);
  if (x.ok) {
    ASSERT_EQ(std::string_view(buf.data(), r.written), x.out) << c.name() << " " << Hex(in);
  } else {
    ASSERT_EQ(r.error.kind, x.kind) << c.name() << " " << Hex(in);
    ASSERT_EQ(r.error.offset, x.offset) << c.name() << " " << Hex(in);
  }
}

class Multibyte : public pgcodec::test::ForEachKernelAnd<Encoding> {};

std::string EncodingName(Encoding e) { return std::string(pgcodec::info(e).name); }

TEST_P(Multibyte, EveryEnumeratedByteSequenceDecodesAsTheReference) {
  const Encoding e = param();
  const Codec& c = pgcodec::codec(e);
  std::vector<char> buf(64);
  std::string s;
  auto run = [&](std::initializer_list<int> bytes) {
    s.clear();
    for (int b : bytes) s.push_back(static_cast<char>(b));
    check_decode(c, s, buf);
  };
  for (int b = 0; b < 0x100 && !HasFatalFailure(); ++b) run({b});
  for (int b1 = 0x80; b1 < 0x100 && !HasFatalFailure(); ++b1)
    for (int b2 = 0; b2 < 0x100; ++b2) run({b1, b2});
  if (e == Encoding::EUC_JP || e == Encoding::EUC_JIS_2004 || e == Encoding::EUC_TW)
    for (int b2 = 0x80; b2 < 0x100 && !HasFatalFailure(); ++b2)
      for (int b3 = 0x80; b3 < 0x100; ++b3) run({0x8F, b2, b3});
  if (e == Encoding::EUC_TW)
    for (int b2 = 0x80; b2 < 0x100 && !HasFatalFailure(); ++b2)
      for (int b3 = 0x80; b3 < 0x100; ++b3)
        for (int b4 = 0x80; b4 < 0x100; ++b4) run({0x8E, b2, b3, b4});
  if (e == Encoding::GB18030)
    for (int b1 = 0x81; b1 <= 0xFE && !HasFatalFailure(); ++b1)
      for (int b2 = 0x30; b2 <= 0x39; ++b2)
        for (int b3 = 0x81; b3 <= 0xFE; ++b3)
          for (int b4 = 0x30; b4 <= 0x39; ++b4) run({b1, b2, b3, b4});
  if (e == Encoding::MULE_INTERNAL)
    for (int b1 = 0x90; b1 <= 0x9B && !HasFatalFailure(); ++b1)
      for (int b2 = 0x80; b2 < 0x100; ++b2)
        for (int b3 = 0x80; b3 < 0x100; ++b3) run({b1, b2, b3});
}

TEST_P(Multibyte, EveryCodePointAndPairEncodesAsTheReference) {
  const Encoding e = param();
  const Codec& c = pgcodec::codec(e);
  const auto& t = *pgcodec::detail::mapping_table(e);
  std::vector<char> buf(64);
  auto check = [&](const std::string& in) {
    const auto ref = pgcodec::harness::model_encode(t, in);
    const Result r = c.encode(in, buf);
    ASSERT_EQ(r.ok(), ref.kind == OutcomeKind::Ok) << c.name() << " " << Hex(in);
    if (r.ok()) {
      ASSERT_EQ(std::string_view(buf.data(), r.written), ref.output) << c.name() << " " << Hex(in);
    } else {
      ASSERT_EQ(r.error.kind, ErrorKind::NoEquivalent) << c.name() << " " << Hex(in);
      ASSERT_EQ(r.error.offset, 0u);
    }
  };
  std::string in;
  for (std::uint32_t cp = 1; cp <= 0x10FFFF && !HasFatalFailure(); ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    in.clear();
    pgcodec::detail::append_utf8(in, cp);
    check(in);
  }
  for (auto& pr : t.decode_pairs) {
    in.clear();
    pgcodec::detail::append_utf8(in, pr.cp1);
    pgcodec::detail::append_utf8(in, pr.cp2);
    check(in);
  }
}

PGCODEC_FOR_EACH_KERNEL_AND(Multibyte, ::testing::ValuesIn(multibyte()), EncodingName);

// Trail bytes that look like ASCII: a backslash, a quote, a double quote.
class MultibyteBoundary : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(MultibyteBoundary);

TEST_P(MultibyteBoundary, TrailBytesThatLookLikeAscii) {
  struct Case {
    Encoding e;
    std::string text;  // a character whose trail byte is 0x5C, 0x27 or 0x22, then 'x'
  };
  const std::vector<Case> cases = {
      {Encoding::SJIS, "\x95\x5c" "x"},           // 表
      {Encoding::SHIFT_JIS_2004, "\x83\x5c" "x"}, // ソ
      {Encoding::BIG5, "\xa5\x5c" "x"},           // 功
      {Encoding::GBK, "\x81\x5c" "x"},
      {Encoding::UHC, "\x81\x5c" "x"},
      {Encoding::GB18030, "\x81\x5c" "x"},
      {Encoding::GBK, "\x81\x27" "x"},
      {Encoding::BIG5, "\xa1\x22" "x"},
      {Encoding::UHC, "\x81\x22" "x"}};
  // (SJIS trail bytes are 0x40..0x7E and 0x80..0xFC: 0x5C can trail, a quote
  // cannot, and 81 27 is an invalid sequence followed by a real quote.)
  for (const auto& k : cases) {
    const Codec& c = pgcodec::codec(k.e);
    EXPECT_EQ(c.char_length(k.text, 0), 2u) << c.name() << " " << Hex(k.text);
    EXPECT_EQ(c.char_length(k.text, 2), 1u) << c.name();
    // The character decodes as one, the trail byte is not read as ASCII.
    const std::string out = c.decode(k.text, pgcodec::ErrorMode::Replace);
    EXPECT_EQ(out.find(k.text[1]), std::string::npos) << c.name() << " " << Hex(k.text);
    EXPECT_EQ(out.back(), 'x') << c.name();
  }
}

// Streaming equals one-shot for every chunking of multibyte text.
class MultibyteStream : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(MultibyteStream);

TEST_P(MultibyteStream, EveryChunkSizeEqualsOneShot) {
  std::mt19937 rng(5);
  for (Encoding e : multibyte()) {
    const Codec& c = pgcodec::codec(e);
    const auto& t = *pgcodec::detail::mapping_table(e);
    std::vector<std::uint32_t> codes;
    for (auto& r : t.decode)
      for (std::uint32_t k = 0; k < r.length; ++k) codes.push_back(r.code + k);
    for (int n = 0; n < 20; ++n) {
      std::string in;
      for (int k = 0; k < 30; ++k) {
        if (rng() % 5 == 0) in.push_back(static_cast<char>('a' + rng() % 26));
        else pgcodec::detail::append_code(in, codes[rng() % codes.size()]);
      }
      if (n % 4 == 1) in.insert(rng() % in.size(), 1, '\x80');     // maybe malformed
      if (n % 4 == 2) in.pop_back();                             // maybe cut off
      for (auto mode : {pgcodec::ErrorMode::Strict, pgcodec::ErrorMode::Replace}) {
        std::vector<char> one(*c.max_decoded_size(in.size()));
        const Result whole = c.decode(in, one, mode);
        for (std::size_t chunk = 1; chunk <= 16; ++chunk) {
          pgcodec::StreamDecoder d(c, mode);
          std::string got;
          Result last;
          for (std::size_t at = 0; at < in.size() && last.status == Status::Ok; at += chunk) {
            const auto piece = std::string_view(in).substr(at, chunk);
            std::vector<char> buf(*d.output_bound(piece.size()));
            last = d.feed(piece, buf);
            got.append(buf.data(), last.written);
          }
          if (last.status == Status::Ok) {
            std::vector<char> buf(*d.output_bound(0));
            last = d.finish(buf);
            got.append(buf.data(), last.written);
          }
          ASSERT_EQ(last.status, whole.status) << c.name() << " chunk " << chunk << " " << Hex(in);
          if (whole.ok()) {
            ASSERT_EQ(got, std::string(one.data(), whole.written)) << c.name() << " chunk " << chunk;
          } else {
            ASSERT_EQ(last.error.offset, whole.error.offset) << c.name() << " chunk " << chunk;
            ASSERT_EQ(last.error.message(), whole.error.message()) << c.name();
            ASSERT_EQ(got, std::string(one.data(), whole.written)) << c.name() << " chunk " << chunk;
          }
        }
      }
    }
  }
}

}  // namespace
