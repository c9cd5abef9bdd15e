// Unit tests for StreamDecoder (include/pgcodec/stream.hpp): for any
// chunking, the stream gives exactly what one-shot decoding of the
// concatenation gives: the same bytes, status and error.
#include "pgcodec/stream.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "pgcodec/codec.hpp"
#include "pgcodec/encoding.hpp"

namespace {

using pgcodec::Codec;
using pgcodec::Encoding;
using pgcodec::ErrorKind;
using pgcodec::ErrorMode;
using pgcodec::Result;
using pgcodec::Status;
using pgcodec::StreamDecoder;

using pgcodec::test::Hex;
using pgcodec::test::kFFFD;

struct Outcome {
  std::string out;  // every byte written
  Result last;      // Ok, or the result that reported the error
};

Outcome one_shot(const Codec& c, std::string_view in, ErrorMode mode) {
  std::string buf(*c.max_decoded_size(in.size()), '\0');
  Outcome o;
  o.last = c.decode(in, std::span<char>(buf.data(), buf.size()), mode);
  o.out.assign(buf.data(), o.last.written);
  return o;
}

// Output buffers get a guard zone: the decoder must stay within the span.
constexpr char kGuard = '\x5A';

Result feed_checked(StreamDecoder& d, std::string_view chunk, std::string& out,
                    const std::string& what) {
  const std::size_t bound = *d.output_bound(chunk.size());
  std::vector<char> buf(bound + 16, kGuard);
  const std::size_t carried_before = d.carried(), position_before = d.position();
  const Result r = d.feed(chunk, std::span<char>(buf.data(), bound));
  EXPECT_LE(r.written, bound) << what;
  EXPECT_TRUE(std::all_of(buf.begin() + static_cast<std::ptrdiff_t>(bound), buf.end(),
                          [](char ch) { return ch == kGuard; }))
      << what << ": wrote past the span";
  out.append(buf.data(), std::min(r.written, bound));
  if (r.status == Status::Ok) {
    EXPECT_EQ(r.consumed, chunk.size()) << what;
    EXPECT_LT(d.carried(), 4u) << what;  // at most a cut-off UTF-8 character
    // Nothing lost, nothing counted twice.
    EXPECT_EQ(d.position() + d.carried(), position_before + carried_before + chunk.size())
        << what;
  }
  return r;
}

// Feeds `in` cut by `next_size` (called before each chunk), then finishes.
Outcome streamed(const Codec& c, std::string_view in, ErrorMode mode,
                 const std::function<std::size_t()>& next_size, const std::string& what) {
  StreamDecoder d(c, mode);
  Outcome o;
  std::size_t at = 0;
  while (at < in.size()) {
    const std::size_t n = std::min(next_size(), in.size() - at);
    const Result r = feed_checked(d, in.substr(at, n), o.out, what + " chunk at " + std::to_string(at));
    at += n;
    if (r.status != Status::Ok) {
      EXPECT_EQ(r.status, Status::Error) << what << " (a bounded buffer must never be full)";
      o.last = r;
      // After an error the decoder stays failed.
      std::vector<char> buf(64);
      const Result again = d.feed("more", std::span<char>(buf.data(), buf.size()));
      EXPECT_EQ(again.status, Status::Error) << what;
      EXPECT_EQ(again.error.offset, r.error.offset) << what << " (the same error again)";
      EXPECT_EQ(again.error.message(), r.error.message()) << what;
      const Result fin = d.finish(std::span<char>(buf.data(), buf.size()));
      EXPECT_EQ(fin.status, Status::Error) << what;
      EXPECT_EQ(fin.error.offset, r.error.offset) << what;
      return o;
    }
  }
  const std::size_t bound = *d.output_bound(0);
  std::vector<char> buf(bound + 16, kGuard);
  o.last = d.finish(std::span<char>(buf.data(), bound));
  EXPECT_LE(o.last.written, bound) << what;
  EXPECT_TRUE(std::all_of(buf.begin() + static_cast<std::ptrdiff_t>(bound), buf.end(),
                          [](char ch) { return ch == kGuard; }))
      << what << ": finish wrote past the span";
  o.out.append(buf.data(), std::min(o.last.written, bound));
  EXPECT_EQ(d.carried(), 0u) << what;
  if (o.last.status == Status::Ok) { EXPECT_EQ(d.position(), in.size()) << what; }
  return o;
}

void expect_same(const Outcome& s, const Outcome& one, const std::string& what) {
  EXPECT_EQ(Hex(s.out), Hex(one.out)) << what;
  ASSERT_EQ(static_cast<int>(s.last.status), static_cast<int>(one.last.status)) << what;
  if (one.last.status == Status::Error) {
    const auto &a = s.last.error, &b = one.last.error;
    EXPECT_EQ(a.offset, b.offset) << what;
    EXPECT_EQ(a.kind, b.kind) << what;
    EXPECT_EQ(a.message(), b.message()) << what;
    EXPECT_EQ(a.length, b.length) << what;
    EXPECT_EQ(a.skip, b.skip) << what;
    EXPECT_EQ(a.encoding, b.encoding) << what;
    EXPECT_EQ(a.target, b.target) << what;
  }
}

std::vector<std::string> utf8_inputs() {
  const std::string text = "h\xC3\xA9llo w\xC3\xB6rld \xE2\x82\xAC\xE2\x82\xAC \xF0\x9F\x98\x80 end";
  const std::string emoji = "\xF0\x9F\x98\x80\xF0\x9F\x98\x81\xF0\x9F\x98\x82\xF0\x9F\x98\x83";
  return {
      "",
      "plain ascii text that is longer than sixteen bytes",
      text,
      emoji + emoji,                          // 4-byte characters only
      "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9",
      "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC",
      // A truncated final character.
      "abc\xE2\x82",
      "\xF0\x9F\x98",
      text + "\xF0\x9F",
      emoji + "x\xC3",
      // Invalid sequences at various places.
      "\xFF" + text,
      text + "\xC3\x28" + text,
      "ab\xE2\x82" "xy" + text,
      emoji + "\x80" + emoji,
      text + "\xF0\x9F\x98" + emoji,
      std::string("abc\0def", 7) + text,
      text + "\xED\xA0\x80" + "x",            // a surrogate
      "\xF4\x90\x80\x80" + text,              // beyond U+10FFFF
      "x\xC0\x80y",                           // overlong NUL
      "\xF0\xF0\x9F\x98\x80\xF0\x9F\x98",     // bad lead, good char, truncated
      "\xF0\x9F\xF0\x9F\x98\x80",             // cut-off char followed by a whole one
      "a\xFF" "b\xC3" "c\xE2\x82" "d\xF0\x9F\x98",  // many errors
      std::string(37, 'q') + "\xE2\x28\xA1" + text,
  };
}

std::vector<std::string> single_byte_inputs() {
  return {
      "",
      "caf\xE9 cr\xE8me br\xFBl\xE9\x65 and some more ascii to pass sixteen",
      "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80",
      "abc\x81" "def",
      "\x81",
      std::string("x\0y", 3),
      std::string(20, 'a') + "\x8d\x9d" + std::string(20, 'b'),
      "\xFF\xFE\xFD\xA0\x9F",
  };
}

struct Param {
  Encoding enc;
  ErrorMode mode;
};

class StreamMatchesOneShot : public pgcodec::test::ForEachKernelAnd<Param> {};

std::string ParamName(const Param& p) {
  return std::string(pgcodec::info(p.enc).name) +
         (p.mode == ErrorMode::Strict ? "_Strict" : "_Replace");
}

TEST_P(StreamMatchesOneShot, EveryChunkSize1To16) {
  const auto [e, mode] = param();
  const Codec& c = pgcodec::codec(e);
  const auto inputs =
      e == Encoding::UTF8 || e == Encoding::SQL_ASCII ? utf8_inputs() : single_byte_inputs();
  int errors = 0;
  for (const auto& in : inputs) {
    const Outcome one = one_shot(c, in, mode);
    ASSERT_NE(one.last.status, Status::OutputFull);
    if (mode == ErrorMode::Replace) { EXPECT_EQ(one.last.status, Status::Ok) << Hex(in); }
    errors += one.last.status == Status::Error;
    for (std::size_t size = 1; size <= 16; ++size) {
      const std::string what = std::string(c.name()) + " " + Hex(in) + " chunk " + std::to_string(size);
      const Outcome s = streamed(c, in, mode, [size] { return size; }, what);
      expect_same(s, one, what);
    }
  }
  // The inputs exercise errors in Strict mode (LATIN1 maps every byte but NUL).
  if (mode == ErrorMode::Strict) { EXPECT_GE(errors, e == Encoding::LATIN1 ? 1 : 3); }
}

TEST_P(StreamMatchesOneShot, RandomChunkingWithEmptyChunks) {
  const auto [e, mode] = param();
  const Codec& c = pgcodec::codec(e);
  std::mt19937 rng(static_cast<unsigned>(pgcodec::to_int(e)) * 2 + (mode == ErrorMode::Strict));
  std::uniform_int_distribution<int> pick(0, 99), byte(0, 255), ascii(0x20, 0x7E);
  std::uniform_int_distribution<std::uint32_t> cp(0x80, 0x10FFFF);
  std::uniform_int_distribution<std::size_t> chunk(0, 9), len(0, 120);
  for (int iter = 0; iter < 300; ++iter) {
    std::string in;
    const std::size_t n = len(rng);
    while (in.size() < n) {
      const int k = pick(rng);
      if (k < 50) {
        in += static_cast<char>(ascii(rng));
      } else if (k < 90) {
        // A whole UTF-8 character (or, single-byte, its bytes).
        std::uint32_t v = cp(rng);
        if (k < 60) v = 0x80 + v % 0x780;
        else if (k < 75) v = 0x800 + v % 0xF800;
        if (v >= 0xD800 && v < 0xE000) v = 0x20AC;
        std::string u;
        if (v < 0x800) {
          u = {static_cast<char>(0xC0 | (v >> 6)), static_cast<char>(0x80 | (v & 0x3F))};
        } else if (v < 0x10000) {
          u = {static_cast<char>(0xE0 | (v >> 12)), static_cast<char>(0x80 | ((v >> 6) & 0x3F)),
               static_cast<char>(0x80 | (v & 0x3F))};
        } else {
          u = {static_cast<char>(0xF0 | (v >> 18)), static_cast<char>(0x80 | ((v >> 12) & 0x3F)),
               static_cast<char>(0x80 | ((v >> 6) & 0x3F)), static_cast<char>(0x80 | (v & 0x3F))};
        }
        if (k == 89 && u.size() > 1) u.pop_back();  // a cut-off character
        in += u;
      } else {
        in += static_cast<char>(byte(rng));  // anything, NUL included
      }
    }
    const Outcome one = one_shot(c, in, mode);
    // Chunk sizes 0..9, zero (an empty feed) about one time in ten.
    const std::string what = std::string(c.name()) + " random " + Hex(in);
    const Outcome s = streamed(c, in, mode, [&] { return chunk(rng); }, what);
    expect_same(s, one, what);
    if (HasFailure()) return;
  }
}

PGCODEC_FOR_EACH_KERNEL_AND(StreamMatchesOneShot,
                         ::testing::Values(Param{Encoding::UTF8, ErrorMode::Strict},
                                           Param{Encoding::UTF8, ErrorMode::Replace},
                                           Param{Encoding::SQL_ASCII, ErrorMode::Strict},
                                           Param{Encoding::SQL_ASCII, ErrorMode::Replace},
                                           Param{Encoding::WIN1252, ErrorMode::Strict},
                                           Param{Encoding::WIN1252, ErrorMode::Replace},
                                           Param{Encoding::LATIN1, ErrorMode::Strict},
                                           Param{Encoding::LATIN1, ErrorMode::Replace}),
                         ParamName);

// A helper for the hand-written scenarios below.
struct Fed {
  Result r;
  std::string out;
};

Fed feed(StreamDecoder& d, std::string_view chunk) {
  std::vector<char> buf(*d.output_bound(chunk.size()) + 1);
  Fed f;
  f.r = d.feed(chunk, std::span<char>(buf.data(), buf.size() - 1));
  f.out.assign(buf.data(), f.r.written);
  return f;
}

Fed finish(StreamDecoder& d) {
  std::vector<char> buf(*d.output_bound(0) + 1);
  Fed f;
  f.r = d.finish(std::span<char>(buf.data(), buf.size() - 1));
  f.out.assign(buf.data(), f.r.written);
  return f;
}

class Stream : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(Stream);

TEST_P(Stream, EmptyChunks) {
  StreamDecoder d(pgcodec::codec(Encoding::UTF8));
  Fed f = feed(d, "");
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.r.consumed, 0u);
  EXPECT_EQ(f.out, "");
  EXPECT_EQ(d.carried(), 0u);

  f = feed(d, "ab\xE2");
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.r.consumed, 3u);
  EXPECT_EQ(f.out, "ab");
  EXPECT_EQ(d.carried(), 1u);
  EXPECT_EQ(d.position(), 2u);

  f = feed(d, "");  // an empty chunk keeps the carry
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.out, "");
  EXPECT_EQ(d.carried(), 1u);

  f = feed(d, "\x82");
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.out, "");
  EXPECT_EQ(d.carried(), 2u);

  f = feed(d, "");
  EXPECT_EQ(d.carried(), 2u);

  f = feed(d, "\xAC!");
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.r.consumed, 2u);
  EXPECT_EQ(f.out, "\xE2\x82\xAC!");
  EXPECT_EQ(d.carried(), 0u);
  EXPECT_EQ(d.position(), 6u);

  f = finish(d);
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.out, "");
}

// Found by check_fuzzer (corpus/regressions/fuzz/check_fuzzer/): an empty
// chunk with no data at all (a null pointer, as pgcodec_stream_feed(s,
// NULL, 0, NULL, 0) passes) reached memcpy with that null pointer, which
// UndefinedBehaviorSanitizer reports under the sanitize preset. With and
// without a carried byte.
TEST_P(Stream, EmptyChunkWithNullDataAndNoBuffer) {
  StreamDecoder d(pgcodec::codec(Encoding::SJIS));
  Result r = d.feed(std::string_view{}, std::span<char>{});
  EXPECT_EQ(r.status, Status::Ok);
  EXPECT_EQ(r.consumed, 0u);
  EXPECT_EQ(r.written, 0u);
  std::array<char, 16> out{};
  r = d.feed("\x82", out);
  EXPECT_EQ(d.carried(), 1u);
  r = d.feed(std::string_view{}, std::span<char>{});
  EXPECT_EQ(r.status, Status::Ok);
  EXPECT_EQ(d.carried(), 1u);
}

TEST_P(Stream, FinishWithCarriedTruncatedCharIsInvalidAtAbsoluteOffset) {
  StreamDecoder d(pgcodec::codec(Encoding::UTF8));
  EXPECT_EQ(feed(d, "h\xC3\xA9llo").out, "h\xC3\xA9llo");
  EXPECT_EQ(feed(d, " w").out, " w");
  Fed f = feed(d, "x\xF0\x9F");
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.out, "x");
  EXPECT_EQ(d.carried(), 2u);
  EXPECT_EQ(d.position(), 9u);
  f = finish(d);
  ASSERT_EQ(f.r.status, Status::Error);
  EXPECT_EQ(f.r.error.kind, ErrorKind::InvalidByteSequence);
  EXPECT_EQ(f.r.error.offset, 9u);
  EXPECT_EQ(f.r.error.length, 2u);
  EXPECT_EQ(f.r.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xf0 0x9f");
  EXPECT_STREQ(f.r.error.sqlstate(), "22021");
  EXPECT_EQ(f.out, "");
  // The decoder stays failed.
  EXPECT_EQ(feed(d, "abc").r.status, Status::Error);

  // One-shot agrees.
  const Outcome one = one_shot(pgcodec::codec(Encoding::UTF8), "h\xC3\xA9llo wx\xF0\x9F",
                               ErrorMode::Strict);
  ASSERT_EQ(one.last.status, Status::Error);
  EXPECT_EQ(one.last.error.offset, 9u);
  EXPECT_EQ(one.last.error.message(), f.r.error.message());
}

TEST_P(Stream, FinishWithCarriedTruncatedCharReplaceMode) {
  StreamDecoder d(pgcodec::codec(Encoding::UTF8), ErrorMode::Replace);
  EXPECT_EQ(feed(d, "ab").out, "ab");
  EXPECT_EQ(feed(d, "\xE2\x82").out, "");
  EXPECT_EQ(d.carried(), 2u);
  const Fed f = finish(d);
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.out, kFFFD + kFFFD);
}

TEST_P(Stream, ErrorInsideACarriedCharacter) {
  StreamDecoder d(pgcodec::codec(Encoding::UTF8));
  EXPECT_EQ(feed(d, "abcdef").out, "abcdef");
  EXPECT_EQ(feed(d, "g\xE2").out, "g");
  const Fed f = feed(d, "\x28xyz");
  ASSERT_EQ(f.r.status, Status::Error);
  EXPECT_EQ(f.r.error.offset, 7u);
  EXPECT_EQ(f.r.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xe2 0x28 0x78");
  EXPECT_EQ(f.out, "");
}

TEST_P(Stream, ErrorOffsetsCountFromTheStreamStart) {
  StreamDecoder d(pgcodec::codec(Encoding::WIN1252));
  EXPECT_EQ(feed(d, "abcdef").out, "abcdef");
  EXPECT_EQ(feed(d, "\x80").out, "\xE2\x82\xAC");
  const Fed f = feed(d, "gh\x81ij");
  ASSERT_EQ(f.r.status, Status::Error);
  EXPECT_EQ(f.r.error.kind, ErrorKind::NoEquivalent);
  EXPECT_EQ(f.r.error.offset, 9u);
  EXPECT_EQ(f.r.consumed, 2u);
  EXPECT_EQ(f.out, "gh");
  EXPECT_EQ(f.r.error.message(),
            "character with byte sequence 0x81 in encoding \"WIN1252\" has no equivalent in "
            "encoding \"UTF8\"");
  EXPECT_EQ(d.carried(), 0u);
}

TEST_P(Stream, SingleByteNeverCarries) {
  StreamDecoder d(pgcodec::codec(Encoding::LATIN1));
  for (char ch : std::string("caf\xE9 \xFF")) {
    const Fed f = feed(d, std::string_view(&ch, 1));
    EXPECT_EQ(f.r.status, Status::Ok);
    EXPECT_EQ(d.carried(), 0u);
  }
  EXPECT_EQ(d.position(), 6u);
  EXPECT_EQ(finish(d).r.status, Status::Ok);
}

}  // namespace

namespace {
TEST(StreamBounds, OutputBoundWithCarriedBytesDoesNotWrap) {
  pgcodec::StreamDecoder d(pgcodec::codec(pgcodec::Encoding::UTF8));
  char buf[16];
  ASSERT_EQ(d.feed("\xC3", std::span<char>(buf, sizeof buf)).status, pgcodec::Status::Ok);
  ASSERT_EQ(d.carried(), 1u);
  EXPECT_FALSE(d.output_bound(SIZE_MAX).has_value());
  EXPECT_FALSE(d.output_bound(SIZE_MAX - 1).has_value());
  EXPECT_TRUE(d.output_bound(100).has_value());
}
}  // namespace
