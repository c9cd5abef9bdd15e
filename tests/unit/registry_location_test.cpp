// Where `pgcodec verify` looks for the registry (harness/verifier/registry_location.cpp).
#include "verifier/registry_location.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace {

namespace fs = std::filesystem;
using pgcodec::verifier::locate_registry;

struct Prefix {
  fs::path root = fs::temp_directory_path() / "pgcodec-registry-location-test";
  Prefix() {
    fs::remove_all(root);
    fs::create_directories(root / "libexec/pgcodec");  // where pgcodec-verify is installed
  }
  ~Prefix() { fs::remove_all(root); }
};

TEST(RegistryLocation, InstalledCopyNextToTheExecutableWins) {
  Prefix p;
  fs::create_directories(p.root / "share/pgcodec/divergences");
  const auto where = locate_registry((p.root / "libexec/pgcodec").string(), "/src/corpus/divergences");
  EXPECT_TRUE(where.installed);
  EXPECT_EQ(fs::path(where.dir), (p.root / "share/pgcodec/divergences").lexically_normal());
}

TEST(RegistryLocation, BuildTreeFallsBackToTheSourceTree) {
  Prefix p;  // no share/pgcodec/divergences: a build tree
  const auto where = locate_registry((p.root / "libexec/pgcodec").string(), "/src/corpus/divergences");
  EXPECT_FALSE(where.installed);
  EXPECT_EQ(where.dir, "/src/corpus/divergences");
  EXPECT_EQ(locate_registry("", "").dir, "corpus/divergences");
}

TEST(RegistryLocation, ThisBuildFindsTheSourceTreeRegistry) {
  const auto where = locate_registry();
  EXPECT_FALSE(where.installed);
  EXPECT_TRUE(fs::is_directory(where.dir)) << where.dir;
  EXPECT_TRUE(fs::exists(fs::path(where.dir) / "SJIS.python-cp932.tsv")) << where.dir;
}

}  // namespace
