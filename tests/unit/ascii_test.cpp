// The ASCII-run kernels (src/kernels/ascii.cpp): every kernel's ascii_run
// against the definition, bytes 0x01..0x7F.
#include "kernels/ascii.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

#include "kernels/kernels.hpp"
#include "test_util.hpp"

namespace {

std::size_t Definition(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  while (i < n && p[i] >= 1 && p[i] <= 0x7F) ++i;
  return i;
}

class AsciiRun : public pgcodec::test::ForEachKernel {};
PGCODEC_FOR_EACH_KERNEL(AsciiRun);

TEST_P(AsciiRun, RandomRunsUnalignedStarts) {
  const auto run = kernel().ascii_run;
  std::mt19937 rng(1);
  std::vector<unsigned char> buf(600);
  std::uniform_int_distribution<int> ascii(1, 0x7F), stop_byte(0, 255), pick(0, 9);
  std::uniform_int_distribution<std::size_t> pos(0, 560), len(0, 40);
  for (int iter = 0; iter < 20000; ++iter) {
    for (auto& b : buf) b = static_cast<unsigned char>(ascii(rng));
    // A few stoppers (0x00 or >= 0x80), sometimes none.
    const int stops = pick(rng) % 4;
    for (int k = 0; k < stops; ++k) {
      int v = stop_byte(rng);
      if (v != 0 && v < 0x80) v = k % 2 ? 0 : v | 0x80;
      buf[pos(rng)] = static_cast<unsigned char>(v);
    }
    const std::size_t off = pos(rng) % 17;  // unaligned starts
    const std::size_t n = iter % 2 ? len(rng) : std::min(buf.size() - off, pos(rng));
    const unsigned char* p = buf.data() + off;
    ASSERT_EQ(run(p, n), Definition(p, n)) << "iter " << iter;
  }
}

TEST_P(AsciiRun, EveryStopPositionAndByte) {
  const auto run = kernel().ascii_run;
  std::vector<unsigned char> buf(80);
  for (std::size_t n = 0; n <= 70; ++n) {
    for (std::size_t stop = 0; stop <= n; ++stop) {
      for (unsigned v : {0x00u, 0x80u, 0x7Fu, 0xFFu, 0xC3u}) {
        std::fill(buf.begin(), buf.end(), static_cast<unsigned char>('a'));
        buf[n] = 0xFF;  // beyond the range: must not be seen
        if (stop < n) buf[stop] = static_cast<unsigned char>(v);
        const bool stops = stop < n && v != 0x7F;
        const std::size_t expect = stops ? stop : n;
        ASSERT_EQ(run(buf.data(), n), expect) << n << " " << stop << " " << v;
      }
    }
  }
}

TEST(AsciiRun, ScalarIsTheScalarKernel) {
  EXPECT_EQ(pgcodec::kernels::available().front().ascii_run, &pgcodec::kernels::ascii_run_scalar);
}

}  // namespace
