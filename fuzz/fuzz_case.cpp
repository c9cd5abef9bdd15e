#include "fuzz_case.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/text.hpp"
#include "kernels/kernels.hpp"

namespace pgcodec::fuzz {

bool parse(const std::uint8_t* bytes, std::size_t n, FuzzCase& out) {
  if (n < kHeader) return false;
  out.codec = &codec(static_cast<Encoding>(bytes[0] % encoding_count));
  out.mode = (bytes[1] & 1) ? ErrorMode::Replace : ErrorMode::Strict;
  out.decoding = !(bytes[1] & 2);
  out.kernel = static_cast<std::size_t>((bytes[1] >> 2) & 7) % kernels::available().size();
  out.chunks.clear();
  if (bytes[2]) out.chunks = {static_cast<std::size_t>(bytes[2] & 15), static_cast<std::size_t>(bytes[2] >> 4)};
  out.small = bytes[3];
  out.size = n - kHeader;
  out.data.reset(new char[out.size ? out.size : 1]);
  if (out.size) std::memcpy(out.data.get(), bytes + kHeader, out.size);
  return true;
}

harness::CheckResult under_kernel(const FuzzCase& fc, const std::function<harness::CheckResult()>& check) {
  const kernels::Kernel& saved = kernels::active();
  kernels::set_active(kernels::available()[fc.kernel]);
  harness::CheckResult r = check();
  kernels::set_active(saved);
  if (r) r = "[" + std::string(kernels::available()[fc.kernel].name) + "] " + *r;
  return r;
}

std::string input_name(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(h));
  return name;
}

std::string describe(const FuzzCase& fc) {
  std::string s = std::string(fc.codec->name()) + (fc.decoding ? " decode " : " encode ") +
                  (fc.mode == ErrorMode::Strict ? "Strict " : "Replace ") +
                  kernels::available()[fc.kernel].name + " chunks ";
  if (fc.chunks.empty()) s += "whole";
  for (std::size_t i = 0; i < fc.chunks.size(); ++i) s += (i ? "," : "") + std::to_string(fc.chunks[i]);
  return s + " small " + std::to_string(fc.small);
}

void fail(const char* target, const std::uint8_t* bytes, std::size_t n, const std::string& what) {
  const std::string_view all(reinterpret_cast<const char*>(bytes), n);
  FuzzCase fc;
  std::fprintf(stderr, "\n%s: check failed\n", target);
  if (parse(bytes, n, fc)) std::fprintf(stderr, "  case:  %s\n", describe(fc).c_str());
  std::fprintf(stderr, "  input: %s\n  what:  %s\n", harness::hex_bytes(all).c_str(), what.c_str());
  if (std::getenv("PGCODEC_FUZZ_REGRESSION")) {
    const std::string name = input_name(all);
    std::fprintf(stderr,
                 "  regression (paste at the repository root; ctest -L fuzz replays it):\n"
                 "    mkdir -p corpus/regressions/fuzz/%s && printf '%s' > corpus/regressions/fuzz/%s/%s\n",
                 target, harness::hex_digits(all, "\\x").c_str(), target, name.c_str());
  }
  std::fflush(stderr);
  std::abort();
}

}  // namespace pgcodec::fuzz
