// The single-byte family (src/codecs/single_byte.cpp) on inputs long enough
// for the block kernels (src/kernels/single_byte*.cpp, 64 bytes a block):
// under every kernel, decode and encode equal the scalar kernel's result,
// byte for byte, with the same status, error and consumed count, for every
// capacity around the blocks' output, and nothing is stored past `written`.
// The inputs mix what a block kernel takes (ASCII, two-byte UTF-8 of the
// encoding's high bytes) with what makes it hand a block back: NUL,
// unmapped bytes, three-byte characters (WIN1252's euro sign), invalid
// UTF-8, characters cut by a block's end.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.hpp"
#include "pgcodec/codec.hpp"
#include "pgcodec/encoding.hpp"
#include "test_util.hpp"

namespace {

using pgcodec::Codec;
using pgcodec::Encoding;
using pgcodec::ErrorMode;
using pgcodec::Result;
using pgcodec::Status;
using pgcodec::test::ActiveKernel;
using pgcodec::test::Hex;

struct Repertoire {
  std::vector<char> high;          // bytes 0x80..0xFF that decode
  std::vector<std::string> utf8;   // their UTF-8
};

Repertoire repertoire(const Codec& c) {
  Repertoire r;
  for (int b = 0x80; b < 0x100; ++b) {
    const char byte = static_cast<char>(b);
    char out[8];
    const Result d = c.decode(std::string_view(&byte, 1), out);
    if (d.status != Status::Ok) continue;
    r.high.push_back(byte);
    r.utf8.emplace_back(out, d.written);
  }
  return r;
}

// Length 0..400 in runs, one in eight up to 1,500 (past the AVX2 rounds'
// 512 bytes: codecs/single_byte.cpp, kUnitsChunk): mostly what the blocks
// convert, a rare odd one.
std::string decode_input(std::mt19937& rng, const Repertoire& rep) {
  std::string s;
  const std::size_t n = rng() % 8 == 0 ? rng() % 1500 : rng() % 400;
  const auto high_share = static_cast<unsigned>(rng() % 5);  // 0: ASCII only .. 4: all high
  while (s.size() < n) {
    const auto r = static_cast<unsigned>(rng() % 400);
    if (r == 0) {
      s += '\0';
    } else if (r == 1) {
      s += static_cast<char>(0x80 + rng() % 128);  // maybe unmapped
    } else if (rng() % 4 < high_share) {
      s += rep.high[rng() % rep.high.size()];
    } else {
      s += static_cast<char>(1 + rng() % 127);
    }
  }
  return s;
}

std::string encode_input(std::mt19937& rng, const Repertoire& rep) {
  std::string s;
  const std::size_t n = rng() % 400;
  const auto high_share = static_cast<unsigned>(rng() % 5);
  while (s.size() < n) {
    const auto r = static_cast<unsigned>(rng() % 400);
    if (r == 0) {
      s += '\0';
    } else if (r == 1) {
      s += "\xe2\x82\xac";  // three bytes; some encodings have it
    } else if (r == 2) {
      s += static_cast<char>(0x80 + rng() % 128);  // invalid UTF-8
    } else if (r == 3) {
      s += "\xc3";  // a lead without its continuation
    } else if (r == 4) {
      s += "\xd0\xaf";  // a two-byte character most encodings lack
    } else if (r == 5) {
      s += rng() % 2 ? "\xc1\xbf" : "\xc0\x80";  // overlong forms
    } else if (r == 6) {
      s += "\xf0\x9f\x98\x80";  // four bytes
    } else if (rng() % 4 < high_share) {
      s += rep.utf8[rng() % rep.utf8.size()];
    } else {
      s += static_cast<char>(1 + rng() % 127);
    }
  }
  return s;
}

Result convert(const Codec& c, bool decoding, const std::string& in, std::span<char> out,
               ErrorMode mode) {
  return decoding ? c.decode(in, out, mode) : c.encode(in, out, mode);
}

void expect_same(const Result& a, const Result& b, const std::string& what) {
  ASSERT_EQ(a.status, b.status) << what;
  ASSERT_EQ(a.consumed, b.consumed) << what;
  ASSERT_EQ(a.written, b.written) << what;
  if (a.status == Status::Error) {
    ASSERT_EQ(a.error.kind, b.error.kind) << what;
    ASSERT_EQ(a.error.offset, b.error.offset) << what;
    ASSERT_EQ(a.error.skip, b.error.skip) << what;
  }
}

TEST(SingleByte, LongInputsEqualTheScalarKernelUnderEveryKernel) {
  const pgcodec::kernels::Kernel* scalar = pgcodec::kernels::find("scalar");
  ASSERT_NE(scalar, nullptr);
  std::mt19937 rng(20261201u);
  std::size_t cases = 0;
  for (const auto& inf : pgcodec::encodings()) {
    if (inf.max_char_length != 1 || inf.id == Encoding::SQL_ASCII) continue;
    const Codec& c = pgcodec::codec(inf.id);
    const Repertoire rep = repertoire(c);
    ASSERT_FALSE(rep.high.empty()) << inf.name;
    for (int iter = 0; iter < 400; ++iter) {
      const bool decoding = iter % 2 == 0;
      const std::string in = decoding ? decode_input(rng, rep) : encode_input(rng, rep);
      const ErrorMode mode = iter % 4 < 2 ? ErrorMode::Strict : ErrorMode::Replace;
      // The full size, and capacities that cut the output inside a block.
      const std::size_t full = *(decoding ? c.max_decoded_size(in.size()) : c.max_encoded_size(in.size()));
      for (std::size_t cap : {full, full / 2, full / 3 + 1, std::size_t{64}, std::size_t{127},
                              static_cast<std::size_t>(rng() % (full + 1))}) {
        if (cap > full) continue;
        std::vector<char> want(cap + 1);
        Result w;
        {
          ActiveKernel on(*scalar);
          w = convert(c, decoding, in, std::span<char>(want.data(), cap), mode);
        }
        for (const pgcodec::kernels::Kernel& k : pgcodec::kernels::available()) {
          ActiveKernel on(k);
          std::vector<char> got(cap + 72, '\x5A');
          const Result g = convert(c, decoding, in, std::span<char>(got.data(), cap), mode);
          const std::string what = std::string(inf.name) + (decoding ? " decode " : " encode ") +
                                   k.name + " cap " + std::to_string(cap) + " input " + Hex(in);
          expect_same(g, w, what);
          ASSERT_EQ(std::string(got.data(), g.written), std::string(want.data(), w.written)) << what;
          for (std::size_t i = g.written; i < got.size(); ++i)
            ASSERT_EQ(got[i], '\x5A') << what << ": stored at " << i << " past written " << g.written;
          ++cases;
        }
      }
    }
  }
  EXPECT_GT(cases, 27u * 400u);
}

}  // namespace
