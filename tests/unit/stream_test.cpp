// Unit tests for StreamDecoder and StreamEncoder (include/pgcodec/stream.hpp):
// for any chunking, the stream gives exactly what one-shot decoding (or
// encoding) of the concatenation gives: the same bytes, status and error.
#include "pgcodec/stream.hpp"

#include <gtest/gtest.h>

#include "test_util.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
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
using pgcodec::StreamEncoder;

using pgcodec::test::Hex;
using pgcodec::test::kFFFD;

struct Outcome {
  std::string out;  // every byte written
  Result last;      // Ok, or the result that reported the error
};

// One-shot decoding, or with `encode` encoding.
Outcome one_shot(const Codec& c, std::string_view in, ErrorMode mode, bool encode = false) {
  std::string buf(*(encode ? c.max_encoded_size(in.size()) : c.max_decoded_size(in.size())), '\0');
  Outcome o;
  const std::span<char> out(buf.data(), buf.size());
  o.last = encode ? c.encode(in, out, mode) : c.decode(in, out, mode);
  o.out.assign(buf.data(), o.last.written);
  return o;
}

// Output buffers get a guard zone: the stream must stay within the span.
constexpr char kGuard = '\x5A';

template <class Stream>
constexpr bool kEncoder = std::is_same_v<Stream, StreamEncoder>;

template <class Stream>
Result feed_checked(Stream& d, std::string_view chunk, std::string& out, const std::string& what) {
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
    if constexpr (!kEncoder<Stream>) { EXPECT_LT(d.carried(), 4u) << what; }  // a cut-off character
    // Nothing lost, nothing counted twice.
    EXPECT_EQ(d.position() + d.carried(), position_before + carried_before + chunk.size())
        << what;
  }
  return r;
}

// Feeds `in` cut by `next_size` (called before each chunk), then finishes.
template <class Stream = StreamDecoder>
Outcome streamed(const Codec& c, std::string_view in, ErrorMode mode,
                 const std::function<std::size_t()>& next_size, const std::string& what) {
  Stream d(c, mode);
  Outcome o;
  std::size_t at = 0;
  while (at < in.size()) {
    const std::size_t n = std::min(next_size(), in.size() - at);
    const Result r = feed_checked(d, in.substr(at, n), o.out, what + " chunk at " + std::to_string(at));
    at += n;
    if (r.status != Status::Ok) {
      EXPECT_EQ(r.status, Status::Error) << what << " (a bounded buffer must never be full)";
      o.last = r;
      // After an error the stream stays failed.
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

std::vector<Param> in_both_modes(std::initializer_list<Encoding> encodings) {
  std::vector<Param> params;
  for (const Encoding e : encodings)
    for (const ErrorMode mode : {ErrorMode::Strict, ErrorMode::Replace}) params.push_back({e, mode});
  return params;
}

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
                            ::testing::ValuesIn(in_both_modes({Encoding::UTF8, Encoding::SQL_ASCII,
                                                               Encoding::WIN1252, Encoding::LATIN1})),
                            ParamName);

// Helpers for the hand-written scenarios below (either stream).
struct Fed {
  Result r;
  std::string out;
};

template <class Stream>
Fed feed(Stream& d, std::string_view chunk) {
  std::vector<char> buf(*d.output_bound(chunk.size()) + 1);
  Fed f;
  f.r = d.feed(chunk, std::span<char>(buf.data(), buf.size() - 1));
  f.out.assign(buf.data(), f.r.written);
  return f;
}

template <class Stream>
Fed finish(Stream& d) {
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

// StreamEncoder: UTF-8 in chunks -> bytes, equal to one-shot encoding.
namespace {

const std::string kKa = "\xE3\x81\x8B";    // U+304B, first of a SHIFT_JIS_2004 pair
const std::string kSemi = "\xE3\x82\x9A";  // U+309A: U+304B U+309A is 82 F5
const std::string kE5 = "\xCB\xA5", kE9 = "\xCB\xA9";  // tone letters U+02E5, U+02E9

// Alternating tone letters, starting with U+02E5: each adjacent two form a
// combined pair, so where the encoder's pairs fall depends on where the run
// starts.
std::string tone_run(std::size_t letters, bool e9_first = false) {
  std::string s;
  for (std::size_t i = 0; i < letters; ++i) s += (i % 2 == 0) != e9_first ? kE5 : kE9;
  return s;
}

std::vector<std::string> encoder_inputs() {
  const std::string ae = "\xC3\xA6", grave = "\xCC\x80";  // U+00E6 U+0300 pair too
  return {
      "",
      "plain ascii text that is longer than sixteen bytes",
      "caf\xC3\xA9 cr\xC3\xA8me br\xC3\xBBl\xC3\xA9" "e",
      "price \xE2\x82\xAC 5",                       // the euro sign: not in LATIN1
      "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E text",  // 日本語
      "a" + kKa + kSemi + kKa + "b" + kKa + kKa + kSemi + kKa,
      ae + grave + ae + "x" + grave,
      tone_run(5) + "x",
      tone_run(6, true) + kKa,
      tone_run(3) + "\xFF" + tone_run(2),
      kKa + "\xFF" + "z",
      kKa + "\xE3\x82",                         // a pair's first, then a cut-off character
      "\xFF" "abc",
      "ab\xC3\x28" "cd",
      "abc\xE3\x81",                            // cut off by the end
      "x\xF0\x9F\x98\x80y",                     // an emoji: no equivalent in most
      "a\xED\xA0\x80" "b",                      // a surrogate
      std::string("a\0b", 3),
      "\xC3\xA9\xE2\x82\xAC\xE2\x82\xAC\xF0\x9F\x98\x80" + kKa,
  };
}

class StreamEncoderMatchesOneShot : public pgcodec::test::ForEachKernelAnd<Param> {};

// Every input cut once at every point, and in chunks of 1..16 bytes.
TEST_P(StreamEncoderMatchesOneShot, EverySplitAndChunkSize) {
  const auto [e, mode] = param();
  const Codec& c = pgcodec::codec(e);
  int errors = 0;
  for (const auto& in : encoder_inputs()) {
    const Outcome one = one_shot(c, in, mode, true);
    ASSERT_NE(one.last.status, Status::OutputFull);
    if (mode == ErrorMode::Replace) { EXPECT_EQ(one.last.status, Status::Ok) << Hex(in); }
    errors += one.last.status == Status::Error;
    const std::string name = std::string(c.name()) + " " + Hex(in);
    for (std::size_t cut = 0; cut <= in.size(); ++cut) {
      int k = 0;
      const Outcome s = streamed<StreamEncoder>(
          c, in, mode, [&] { return k++ == 0 ? cut : in.size(); }, name + " cut at " + std::to_string(cut));
      expect_same(s, one, name + " cut at " + std::to_string(cut));
    }
    for (std::size_t size = 1; size <= 16; ++size) {
      const std::string what = name + " chunk " + std::to_string(size);
      expect_same(streamed<StreamEncoder>(c, in, mode, [size] { return size; }, what), one, what);
    }
    if (HasFailure()) return;
  }
  if (mode == ErrorMode::Strict) { EXPECT_GE(errors, 5); }
}

TEST_P(StreamEncoderMatchesOneShot, RandomChunkingWithEmptyChunks) {
  const auto [e, mode] = param();
  const Codec& c = pgcodec::codec(e);
  std::mt19937 rng(static_cast<unsigned>(pgcodec::to_int(e)) * 2 + (mode == ErrorMode::Strict) + 7);
  const std::vector<std::string> pieces = {"a", " ", "\xC3\xA9", "\xE2\x82\xAC", kKa, kSemi, kE5, kE9,
                                           "\xE6\x97\xA5", "\xC3\xA6", "\xCC\x80", "\xF0\x9F\x98\x80",
                                           "\xFF", "\xE3\x81", "\xC3"};
  std::uniform_int_distribution<std::size_t> piece(0, pieces.size() - 1), chunk(0, 9), len(0, 40);
  std::uniform_int_distribution<int> pick(0, 99);
  for (int iter = 0; iter < 200; ++iter) {
    std::string in;
    for (std::size_t n = len(rng), i = 0; i < n; ++i) {
      // Mostly valid text: bad bytes (the last three pieces) one time in ten.
      std::size_t p = piece(rng);
      if (p >= pieces.size() - 3 && pick(rng) >= 10) p = 0;
      in += pieces[p];
    }
    const Outcome one = one_shot(c, in, mode, true);
    const std::string what = std::string(c.name()) + " random " + Hex(in);
    expect_same(streamed<StreamEncoder>(c, in, mode, [&] { return chunk(rng); }, what), one, what);
    if (HasFailure()) return;
  }
}

PGCODEC_FOR_EACH_KERNEL_AND(
    StreamEncoderMatchesOneShot,
    ::testing::ValuesIn(in_both_modes({Encoding::UTF8, Encoding::SQL_ASCII, Encoding::LATIN1, Encoding::WIN1252,
                                       Encoding::SJIS, Encoding::EUC_JP, Encoding::GB18030,
                                       Encoding::SHIFT_JIS_2004, Encoding::EUC_JIS_2004})),
    ParamName);

class StreamEncoding : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(StreamEncoding);

// U+304B U+309A cut into three pieces at every two points: always 82 F5.
TEST_P(StreamEncoding, CombinedPairSplitEverywhere) {
  const Codec& c = pgcodec::codec(Encoding::SHIFT_JIS_2004);
  for (const std::string& in : {kKa + kSemi, "x" + kKa + kSemi + "y", kKa + kKa + kSemi + kKa}) {
    const Outcome one = one_shot(c, in, ErrorMode::Strict, true);
    ASSERT_EQ(one.last.status, Status::Ok);
    ASSERT_NE(one.out.find("\x82\xF5"), std::string::npos);
    for (std::size_t i = 0; i <= in.size(); ++i) {
      for (std::size_t j = i; j <= in.size(); ++j) {
        const std::size_t sizes[] = {i, j - i, in.size() - j};
        std::size_t k = 0;
        const std::string what = Hex(in) + " cut at " + std::to_string(i) + ", " + std::to_string(j);
        expect_same(streamed<StreamEncoder>(c, in, ErrorMode::Strict, [&] { return sizes[k++ % 3]; }, what),
                    one, what);
      }
    }
  }
  // Held back until the pair is decided.
  StreamEncoder s(c);
  EXPECT_EQ(feed(s, "x" + kKa).out, "x");
  EXPECT_EQ(s.carried(), 3u);
  EXPECT_EQ(feed(s, kSemi.substr(0, 1)).out, "");
  std::string got = feed(s, kSemi.substr(1)).out;
  got += finish(s).out;
  EXPECT_EQ(got, "\x82\xF5");
  EXPECT_EQ(s.position(), 7u);
}

// A run of alternating tone letters longer than the inline buffer: the
// output is one-shot's, and the stream carries only the run's open end (it
// once carried the whole run, on the heap; encode_partial now follows the
// pairs from where the previous call stopped).
TEST_P(StreamEncoding, ToneRunLongerThanTheInlineBuffer) {
  for (const Encoding e : {Encoding::SHIFT_JIS_2004, Encoding::EUC_JIS_2004}) {
    const Codec& c = pgcodec::codec(e);
    const std::string run = tone_run(301);
    for (const std::string& in : {run, run + "x", "a" + run + kKa + kSemi, tone_run(300, true) + kE9,
                                  run + "\xFF" + run, run + "\xE2\x82\xAC"}) {
      const Outcome one = one_shot(c, in, ErrorMode::Strict, true);
      for (const std::size_t size : std::vector<std::size_t>{1, 2, 3, 7, 64, 1000}) {
        const std::string what = std::string(c.name()) + " tones " + std::to_string(in.size()) +
                                 " bytes, chunk " + std::to_string(size);
        expect_same(streamed<StreamEncoder>(c, in, ErrorMode::Strict, [size] { return size; }, what), one,
                    what);
      }
      const Outcome rep = one_shot(c, in, ErrorMode::Replace, true);
      const std::string what = std::string(c.name()) + " tones, replace";
      expect_same(streamed<StreamEncoder>(c, in, ErrorMode::Replace, [] { return 5; }, what), rep, what);
    }
    StreamEncoder s(c);
    std::string got;
    std::size_t most = 0;
    for (std::size_t i = 0; i < run.size(); ++i) {
      const Fed f = feed(s, run.substr(i, 1));
      ASSERT_EQ(f.r.status, Status::Ok);
      got += f.out;
      most = std::max(most, s.carried());
    }
    // Two letters a pair could still take and a cut-off letter's first byte.
    EXPECT_LE(most, 5u);
    const Fed end = feed(s, "x");
    got += end.out;
    EXPECT_LE(s.carried(), 1u) << "the run is decided once it ends";
    got += finish(s).out;
    EXPECT_EQ(Hex(got), Hex(one_shot(c, run + "x", ErrorMode::Strict, true).out));
    // A copy carries the same held-back bytes on.
    StreamEncoder a(c);
    ASSERT_EQ(feed(a, run).r.status, Status::Ok);
    StreamEncoder b = a;
    EXPECT_EQ(b.carried(), a.carried());
    std::string from_a = feed(a, "x").out, from_b = feed(b, "x").out;
    from_a += finish(a).out;
    from_b += finish(b).out;
    EXPECT_EQ(Hex(from_a), Hex(from_b));
  }
}

TEST_P(StreamEncoding, ErrorsStayAndCountFromTheStreamStart) {
  StreamEncoder s(pgcodec::codec(Encoding::LATIN1));
  EXPECT_EQ(feed(s, "abc").out, "abc");
  EXPECT_EQ(feed(s, "d\xE2\x82").out, "d");
  EXPECT_EQ(s.carried(), 2u);
  const Fed f = feed(s, "\xAC" "ef");
  ASSERT_EQ(f.r.status, Status::Error);
  EXPECT_EQ(f.r.error.kind, ErrorKind::NoEquivalent);
  EXPECT_EQ(f.r.error.offset, 4u);
  EXPECT_EQ(f.r.consumed, 0u);
  EXPECT_EQ(f.r.error.message(),
            "character with byte sequence 0xe2 0x82 0xac in encoding \"UTF8\" has no equivalent in "
            "encoding \"LATIN1\"");
  for (const Fed& again : {feed(s, "more"), feed(s, ""), finish(s)}) {
    EXPECT_EQ(again.r.status, Status::Error);
    EXPECT_EQ(again.r.error.offset, 4u);
    EXPECT_EQ(again.r.error.message(), f.r.error.message());
    EXPECT_EQ(again.out, "");
  }

  // Invalid UTF-8 in the middle of a chunk, after a held-back character.
  StreamEncoder j(pgcodec::codec(Encoding::SHIFT_JIS_2004));
  EXPECT_EQ(feed(j, "ab" + kKa).out, "ab");
  const Fed bad = feed(j, "c\xC3\x28");
  // encode_partial may hold an error back (and what comes before it) until
  // the call after, when the bytes it quotes reach its cut; it is the same
  // error, after the same output, either way.
  const Fed end = bad.r.status == Status::Error ? bad : finish(j);
  EXPECT_EQ(bad.r.status == Status::Error ? bad.out : bad.out + end.out, "\x82\xA9" "c");
  const Result err = end.r;
  ASSERT_EQ(err.status, Status::Error);
  EXPECT_EQ(err.error.kind, ErrorKind::InvalidByteSequence);
  EXPECT_EQ(err.error.offset, 6u);
  EXPECT_EQ(err.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28");
  EXPECT_EQ(finish(j).r.error.offset, 6u);
}

TEST_P(StreamEncoding, EmptyChunks) {
  StreamEncoder s(pgcodec::codec(Encoding::SHIFT_JIS_2004));
  Result r = s.feed(std::string_view{}, std::span<char>{});  // no data, no buffer
  EXPECT_EQ(r.status, Status::Ok);
  EXPECT_EQ(r.consumed, 0u);
  EXPECT_EQ(feed(s, kKa).out, "");
  EXPECT_EQ(s.carried(), 3u);
  r = s.feed(std::string_view{}, std::span<char>{});
  EXPECT_EQ(r.status, Status::Ok);
  EXPECT_EQ(r.written, 0u);
  EXPECT_EQ(s.carried(), 3u);
  EXPECT_EQ(feed(s, "").out, "");
  std::string got = feed(s, kSemi).out;
  got += finish(s).out;
  EXPECT_EQ(got, "\x82\xF5");
  EXPECT_EQ(s.carried(), 0u);
  EXPECT_EQ(s.position(), 6u);
}

TEST_P(StreamEncoding, FinishWithACutOffCharacter) {
  StreamEncoder s(pgcodec::codec(Encoding::EUC_JP));
  EXPECT_EQ(feed(s, "ab\xE3\x81").out, "ab");
  Fed f = finish(s);
  ASSERT_EQ(f.r.status, Status::Error);
  EXPECT_EQ(f.r.error.offset, 2u);
  EXPECT_EQ(f.r.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xe3 0x81");
  StreamEncoder r(pgcodec::codec(Encoding::EUC_JP), ErrorMode::Replace);
  EXPECT_EQ(feed(r, "ab\xE3\x81").out, "ab");
  f = finish(r);
  EXPECT_EQ(f.r.status, Status::Ok);
  EXPECT_EQ(f.out, one_shot(pgcodec::codec(Encoding::EUC_JP), "\xE3\x81", ErrorMode::Replace, true).out);
}

// A buffer smaller than output_bound: Status::OutputFull, `consumed` says
// what was taken, and feeding the rest again (with room) loses nothing.
TEST_P(StreamEncoding, OutputFullThenTheRestAgain) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::size_t> small(0, 6), chunk(1, 12);
  for (const Encoding e : {Encoding::SHIFT_JIS_2004, Encoding::EUC_JP, Encoding::UTF8}) {
    const Codec& c = pgcodec::codec(e);
    for (const std::string& in : encoder_inputs()) {
      const std::string text = in + tone_run(40) + in;
      const Outcome one = one_shot(c, text, ErrorMode::Strict, true);
      StreamEncoder s(c);
      std::string got;
      Result last;
      for (std::size_t at = 0; at < text.size() && last.status != Status::Error;) {
        std::string_view piece = std::string_view(text).substr(at, chunk(rng));
        std::vector<char> buf(std::min(*s.output_bound(piece.size()), small(rng)));
        last = s.feed(piece, buf);
        got.append(buf.data(), last.written);
        if (last.status == Status::OutputFull) {
          // Taken (possibly all of it, held back): the rest goes again.
          ASSERT_LE(last.consumed, piece.size());
          piece.remove_prefix(last.consumed);
          buf.assign(*s.output_bound(piece.size()), '\0');
          last = s.feed(piece, buf);
          got.append(buf.data(), last.written);
        }
        at = static_cast<std::size_t>(piece.data() - text.data()) + piece.size();
      }
      if (last.status != Status::Error) {
        std::vector<char> buf(*s.output_bound(0));
        last = s.finish(buf);
        got.append(buf.data(), last.written);
      }
      Outcome o{got, last};
      expect_same(o, one, std::string(c.name()) + " " + Hex(text));
    }
  }
}

}  // namespace
