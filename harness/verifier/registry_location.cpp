#include "verifier/registry_location.hpp"

#include <filesystem>
#include <system_error>

#ifndef PGCODEC_SOURCE_REGISTRY
#define PGCODEC_SOURCE_REGISTRY ""
#endif
#ifndef PGCODEC_REGISTRY_FROM_EXEDIR
#define PGCODEC_REGISTRY_FROM_EXEDIR "../../share/pgcodec/divergences"
#endif

namespace pgcodec::verifier {

RegistryLocation locate_registry(const std::string& exe_dir, const std::string& source_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!exe_dir.empty()) {
    const fs::path installed = (fs::path(exe_dir) / PGCODEC_REGISTRY_FROM_EXEDIR).lexically_normal();
    if (fs::is_directory(installed, ec)) return {installed.string(), true};
  }
  if (!source_dir.empty()) return {source_dir, false};
  return {"corpus/divergences", false};
}

RegistryLocation locate_registry() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return locate_registry(ec ? std::string() : exe.parent_path().string(), PGCODEC_SOURCE_REGISTRY);
}

}  // namespace pgcodec::verifier
