// The fuzz targets' main() where libFuzzer is not linked (g++, or the
// replay in ctest): runs every file named on the command line, and every
// file in every directory named, through LLVMFuzzerTestOneInput, each
// copied into an allocation of exactly its size. A target aborts on the
// first failed check; an unreadable file or directory is an error (exit 2).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

bool run_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "replay: cannot read %s\n", p.string().c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (f.bad()) {
    std::fprintf(stderr, "replay: error reading %s\n", p.string().c_str());
    return false;
  }
  std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[bytes.size() ? bytes.size() : 1]);
  std::copy(bytes.begin(), bytes.end(), exact.get());
  LLVMFuzzerTestOneInput(exact.get(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::size_t ran = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!arg.empty() && arg[0] == '-') continue;  // libFuzzer flags such as -runs=0
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> files;
      for (const auto& e : fs::recursive_directory_iterator(arg, ec))
        if (e.is_regular_file()) files.push_back(e.path());
      if (ec) {
        std::fprintf(stderr, "replay: cannot list %s: %s\n", arg.c_str(), ec.message().c_str());
        return 2;
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        if (!run_file(f)) return 2;
        ++ran;
      }
    } else {
      if (!run_file(arg)) return 2;
      ++ran;
    }
  }
  std::printf("replay: %zu inputs, all passed\n", ran);
  return 0;
}
