// The UTF-8 validation kernels (src/kernels/utf8_valid.cpp): every kernel's
// utf8_valid_run against the scalar twin, and the twin against the
// definition (whole characters that pg_utf8_islegal accepts, NUL excluded).
// Every buffer is allocated to its exact length, so the sanitize preset
// catches a read past p + n.
#include "kernels/utf8_valid.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.hpp"
#include "rules/utf8.hpp"
#include "test_util.hpp"

namespace {

namespace kernels = pgcodec::kernels;
namespace detail = pgcodec::detail;
using pgcodec::test::Hex;

// The definition, written apart from the twin: characters of the length
// their lead claims, while pg_utf8_islegal accepts them and none is NUL.
std::size_t Definition(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  while (i < n && p[i] != 0) {
    const std::size_t len = detail::utf8_lead_length(p[i]);
    if (p[i] >= 0x80 && (len == 1 || !detail::utf8_legal(p + i, len, n - i))) break;
    i += len;
  }
  return i;
}

// A buffer of exactly n bytes (no slack for an over-read to hide in).
struct Exact {
  explicit Exact(std::size_t size) : n(size), bytes(new unsigned char[size ? size : 1]) {}
  std::size_t n;
  std::unique_ptr<unsigned char[]> bytes;
  unsigned char* data() { return bytes.get(); }
};

std::string Show(const unsigned char* p, std::size_t n) {
  return Hex(std::string_view(reinterpret_cast<const char*>(p), n));
}

// Random valid UTF-8 of about `bytes` bytes: ASCII and 2-, 3- and 4-byte
// characters, boundary code points often.
std::vector<unsigned char> RandomUtf8(std::mt19937& rng, std::size_t bytes) {
  std::uniform_int_distribution<int> kind(0, 9);
  std::vector<unsigned char> out;
  char buf[4];
  while (out.size() < bytes) {
    std::uint32_t cp = 0;
    switch (kind(rng)) {
      case 0: case 1: case 2: cp = std::uniform_int_distribution<std::uint32_t>(1, 0x7F)(rng); break;
      case 3: case 4: cp = std::uniform_int_distribution<std::uint32_t>(0x80, 0x7FF)(rng); break;
      case 5: case 6: cp = std::uniform_int_distribution<std::uint32_t>(0x800, 0xFFFF)(rng); break;
      case 7: cp = std::uniform_int_distribution<std::uint32_t>(0x10000, 0x10FFFF)(rng); break;
      default: {
        static constexpr std::uint32_t kEdges[] = {0x01,   0x7F,    0x80,    0x7FF,    0x800,
                                                   0xD7FF, 0xE000,  0xFFFD,  0xFFFF,   0x10000,
                                                   0xFFFFF, 0x100000, 0x10FFFF};
        cp = kEdges[std::uniform_int_distribution<std::size_t>(0, std::size(kEdges) - 1)(rng)];
      }
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
    const std::size_t l = detail::write_utf8(buf, cp);
    out.insert(out.end(), buf, buf + l);
  }
  return out;
}

TEST(Utf8ValidRun, ScalarIsTheFirstKernelsAndMatchesTheDefinition) {
  ASSERT_EQ(kernels::available().front().utf8_valid_run, &kernels::utf8_valid_run_scalar);
  // Every sequence of up to 3 bytes, then ASCII or the end.
  for (std::uint32_t v = 0; v < (1u << 24); v += (v < (1u << 16) ? 1u : 7u)) {
    for (std::size_t len = 1; len <= 3; ++len) {
      unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                            static_cast<unsigned char>(v >> 16), 'a'};
      for (std::size_t n : {len, len + 1}) {
        if (n == len + 1) b[len] = 'a';
        ASSERT_EQ(kernels::utf8_valid_run_scalar(b, n), Definition(b, n)) << Show(b, n);
      }
    }
  }
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    std::vector<unsigned char> t = RandomUtf8(rng, 100);
    ASSERT_EQ(kernels::utf8_valid_run_scalar(t.data(), t.size()), t.size());
    t[std::uniform_int_distribution<std::size_t>(0, t.size() - 1)(rng)] =
        static_cast<unsigned char>(rng());
    ASSERT_EQ(kernels::utf8_valid_run_scalar(t.data(), t.size()), Definition(t.data(), t.size()))
        << Show(t.data(), t.size());
  }
}

class Utf8ValidRun : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(Utf8ValidRun);

// The bytes whose nibbles and ranges decide validity: ASCII, NUL, the edges
// of the continuation ranges, every special lead.
constexpr unsigned char kEdgeBytes[] = {0x00, 0x01, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                        0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
                                        0xED, 0xEE, 0xF0, 0xF1, 0xF4, 0xF5, 0xF8, 0xFF};

// Places `seq` at every offset 0..70 of ASCII ('a') buffers, at the end of a
// buffer of exactly offset + len bytes and inside one of 140 bytes.
class Placer {
 public:
  explicit Placer(kernels::Utf8ValidRunFn run) : run_(run), mid_(140) {
    for (std::size_t i = 0; i < mid_.n; ++i) mid_.data()[i] = 'a';
    for (std::size_t len = 1; len <= 4; ++len)
      for (std::size_t o = 0; o <= kMaxOffset; ++o) {
        end_[len - 1][o] = std::make_unique<Exact>(o + len);
        for (std::size_t i = 0; i < o; ++i) end_[len - 1][o]->data()[i] = 'a';
      }
  }

  // Returns false (after a gtest failure) when a kernel disagrees.
  bool Check(const unsigned char* seq, std::size_t len) {
    // The twin on the sequence alone and on the sequence then ASCII; the
    // ASCII before it changes nothing but the offset.
    unsigned char tmp[5] = {'a', 'a', 'a', 'a', 'a'};
    for (std::size_t k = 0; k < len; ++k) tmp[k] = seq[k];
    const std::size_t at_end = kernels::utf8_valid_run_scalar(tmp, len);
    const std::size_t inside = kernels::utf8_valid_run_scalar(tmp, len + 1);
    for (std::size_t o = 0; o <= kMaxOffset; ++o) {
      Exact& e = *end_[len - 1][o];
      for (std::size_t k = 0; k < len; ++k) e.data()[o + k] = seq[k];
      const std::size_t got_end = run_(e.data(), e.n);
      for (std::size_t k = 0; k < len; ++k) mid_.data()[o + k] = seq[k];
      const std::size_t got_mid = run_(mid_.data(), mid_.n);
      const std::size_t want_mid = inside == len + 1 ? mid_.n : o + inside;
      for (std::size_t k = 0; k < len; ++k) mid_.data()[o + k] = 'a';
      if (got_end != o + at_end || got_mid != want_mid) {
        ADD_FAILURE() << "sequence " << Show(seq, len) << " at offset " << o << ": end "
                      << got_end << " want " << o + at_end << ", inside 140: " << got_mid
                      << " want " << want_mid;
        return false;
      }
    }
    return true;
  }

 private:
  static constexpr std::size_t kMaxOffset = 70;
  kernels::Utf8ValidRunFn run_;
  Exact mid_;
  std::unique_ptr<Exact> end_[4][kMaxOffset + 1];
};

TEST_P(Utf8ValidRun, EverySequenceOfOneAndTwoBytesAtEveryOffset) {
  Placer placer(kernel().utf8_valid_run);
  for (unsigned a = 0; a < 256; ++a) {
    const unsigned char one[1] = {static_cast<unsigned char>(a)};
    ASSERT_TRUE(placer.Check(one, 1));
    for (unsigned b = 0; b < 256; ++b) {
      const unsigned char two[2] = {static_cast<unsigned char>(a), static_cast<unsigned char>(b)};
      ASSERT_TRUE(placer.Check(two, 2));
    }
  }
}

TEST_P(Utf8ValidRun, EveryLeadThenEdgeBytesAtEveryOffset) {
  // Three bytes: any first byte, then two edge bytes. Four: edge bytes only.
  Placer placer(kernel().utf8_valid_run);
  for (unsigned a = 0; a < 256; ++a)
    for (unsigned char b : kEdgeBytes)
      for (unsigned char c : kEdgeBytes) {
        const unsigned char three[3] = {static_cast<unsigned char>(a), b, c};
        ASSERT_TRUE(placer.Check(three, 3));
      }
  for (unsigned char a : kEdgeBytes)
    for (unsigned char b : kEdgeBytes)
      for (unsigned char c : kEdgeBytes)
        for (unsigned char d : kEdgeBytes) {
          const unsigned char four[4] = {a, b, c, d};
          ASSERT_TRUE(placer.Check(four, 4));
        }
}

// Checks the kernel on an exact copy of t against the twin.
::testing::AssertionResult Agrees(kernels::Utf8ValidRunFn run, const std::vector<unsigned char>& t,
                                  std::size_t n) {
  Exact e(n);
  for (std::size_t i = 0; i < n; ++i) e.data()[i] = t[i];
  const std::size_t want = kernels::utf8_valid_run_scalar(e.data(), n);
  const std::size_t got = run(e.data(), n);
  if (got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << " want " << want << " on " << n
                                       << " bytes: " << Show(e.data(), n);
}

TEST_P(Utf8ValidRun, RandomTextOneCorruptedByteAtEveryPosition) {
  const auto run = kernel().utf8_valid_run;
  std::mt19937 rng(12);
  static constexpr unsigned char kBad[] = {0x00, 0x80, 0xBF, 0xC0, 0xC3, 0xE0, 0xED,
                                           0xF0, 0xF4, 0xF5, 0xFF, 'a'};
  for (int iter = 0; iter < 40; ++iter) {
    const std::vector<unsigned char> text = RandomUtf8(rng, 40 + static_cast<std::size_t>(iter) * 7);
    ASSERT_TRUE(Agrees(run, text, text.size()));
    std::vector<unsigned char> t = text;
    for (std::size_t pos = 0; pos < t.size(); ++pos) {
      for (unsigned char bad : kBad) {
        t[pos] = bad;
        ASSERT_TRUE(Agrees(run, t, t.size())) << "byte " << pos << " := " << unsigned{bad};
      }
      t[pos] = static_cast<unsigned char>(rng());
      ASSERT_TRUE(Agrees(run, t, t.size())) << "byte " << pos;
      t[pos] = text[pos];
    }
  }
}

TEST_P(Utf8ValidRun, RandomTextEveryTruncation) {
  const auto run = kernel().utf8_valid_run;
  std::mt19937 rng(13);
  for (int iter = 0; iter < 30; ++iter) {
    const std::vector<unsigned char> text = RandomUtf8(rng, 300);
    for (std::size_t n = 0; n <= text.size(); ++n) ASSERT_TRUE(Agrees(run, text, n));
  }
}

TEST_P(Utf8ValidRun, NulAtEveryPosition) {
  const auto run = kernel().utf8_valid_run;
  std::mt19937 rng(14);
  for (int iter = 0; iter < 20; ++iter) {
    std::vector<unsigned char> t = iter % 4 == 0 ? std::vector<unsigned char>(200, 'x')
                                                 : RandomUtf8(rng, 200);
    for (std::size_t pos = 0; pos < t.size(); ++pos) {
      const unsigned char saved = t[pos];
      t[pos] = 0;
      ASSERT_TRUE(Agrees(run, t, t.size())) << "NUL at " << pos;
      t[pos] = saved;
    }
  }
}

TEST_P(Utf8ValidRun, LongValidTextWithALateError) {
  // Many blocks, each kind of block (ASCII only, mixed), then one error.
  const auto run = kernel().utf8_valid_run;
  std::mt19937 rng(15);
  std::vector<unsigned char> t(5000, 'q');
  const std::vector<unsigned char> mix = RandomUtf8(rng, 5000);
  t.insert(t.end(), mix.begin(), mix.end());
  ASSERT_TRUE(Agrees(run, t, t.size()));
  for (std::size_t back = 1; back < 200; ++back) {
    std::vector<unsigned char> u = t;
    u[u.size() - back] = 0xFF;
    ASSERT_TRUE(Agrees(run, u, u.size())) << back;
  }
}

}  // namespace
