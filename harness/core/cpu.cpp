#include "core/cpu.hpp"

#include <fstream>
#include <set>
#include <sstream>

namespace pgcodec::harness {
namespace {

const std::set<std::string>& flags() {
  static const std::set<std::string> all = [] {
    std::set<std::string> s;
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("flags", 0) != 0) continue;  // "flags\t\t: fpu vme ..."
      std::istringstream words(line.substr(line.find(':') + 1));
      for (std::string w; words >> w;) s.insert(w);
      break;  // every core lists the same
    }
    return s;
  }();
  return all;
}

}  // namespace

bool cpu_has(std::string_view flag) { return flags().count(std::string(flag)) != 0; }

std::string best_kernel_name() {
#if defined(__x86_64__) || defined(_M_X64)
  if (cpu_has("avx512f") && cpu_has("avx512bw")) return "avx512";
  if (cpu_has("avx2")) return "avx2";
  return "sse2";
#else
  return "scalar";
#endif
}

}  // namespace pgcodec::harness
