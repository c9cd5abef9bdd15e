// The kernel list (src/kernels/kernels.cpp): order, lookup, the active
// kernel and PGCODEC_FORCE_IMPL.
#include "kernels/kernels.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "pgcodec/codec.hpp"
#include "test_util.hpp"

namespace {

namespace kernels = pgcodec::kernels;

TEST(Kernels, ScalarFirstNamesUniqueAndFindable) {
  const auto all = kernels::available();
  ASSERT_FALSE(all.empty());
  EXPECT_STREQ(all.front().name, "scalar");
  EXPECT_FALSE(all.front().table_shortcuts) << "scalar is the plain twin of every fast path";
  std::set<std::string> names;
  for (const auto& k : all) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_EQ(kernels::find(k.name), &k);
    EXPECT_NE(k.ascii_run, nullptr);
  }
  for (const auto& k : all.subspan(1)) EXPECT_TRUE(k.table_shortcuts) << k.name;
  for (const auto& k : all) EXPECT_NE(k.utf8_valid_run, nullptr) << k.name;
#if defined(__SSE2__)
  ASSERT_NE(kernels::find("sse2"), nullptr);
  EXPECT_TRUE(kernels::find("sse2")->table_shortcuts);
#endif
#if defined(__x86_64__)
  // Listed exactly when the CPU (and the OS) can run them.
  EXPECT_EQ(kernels::find("avx2") != nullptr, __builtin_cpu_supports("avx2") != 0);
  EXPECT_EQ(kernels::find("avx512") != nullptr,
            __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"));
#endif
  EXPECT_EQ(kernels::find("no-such-kernel"), nullptr);
  EXPECT_EQ(kernels::find(""), nullptr);
}

// Run by ctest with PGCODEC_FORCE_IMPL set to each kernel's name (and to a
// bad name, which must abort with a message); without it, the last kernel.
TEST(Kernels, InOrderOfPreference) {
  const std::string order[] = {"scalar", "sse2", "avx2", "avx512"};
  std::size_t at = 0;
  for (const auto& k : kernels::available()) {
    while (at < std::size(order) && order[at] != k.name) ++at;
    ASSERT_LT(at, std::size(order)) << k.name << " out of order or unknown";
  }
}

TEST(Kernels, ActiveFollowsForceImpl) {
  const char* force = std::getenv("PGCODEC_FORCE_IMPL");
  const auto& active = kernels::active();
  if (force && *force) {
    EXPECT_STREQ(active.name, force);
  } else {
    EXPECT_EQ(&active, &kernels::available().back());
  }
}

TEST(Kernels, SetActiveSwitchesEveryConversion) {
  const auto& saved = kernels::active();
  for (const auto& k : kernels::available()) {
    pgcodec::test::ActiveKernel scope(k);
    EXPECT_EQ(&kernels::active(), &k);
    EXPECT_EQ(pgcodec::codec(pgcodec::Encoding::SJIS).decode("a\x82\xa0"), "a\xe3\x81\x82");
  }
  EXPECT_EQ(&kernels::active(), &saved);
}

}  // namespace
