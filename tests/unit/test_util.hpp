// Small helpers shared by the unit tests, and the ForEachKernel fixtures that
// run a test once per entry of kernels::available().
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kernels/kernels.hpp"

namespace pgcodec::test {

inline const std::string kFFFD = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// "c3 28 " style dump for failure messages.
inline std::string Hex(std::string_view s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    out += digits[c >> 4];
    out += digits[c & 15];
    out += ' ';
  }
  return out;
}

// Every kernel, in the order of kernels::available().
inline std::vector<const kernels::Kernel*> AllKernels() {
  std::vector<const kernels::Kernel*> v;
  for (const kernels::Kernel& k : kernels::available()) v.push_back(&k);
  return v;
}

// Makes `k` the active kernel for the scope's lifetime. gtest runs tests on
// one thread, so switching between tests is safe (see set_active()).
class ActiveKernel {
 public:
  explicit ActiveKernel(const kernels::Kernel& k) : saved_(&kernels::active()) {
    kernels::set_active(k);
  }
  ~ActiveKernel() { kernels::set_active(*saved_); }
  ActiveKernel(const ActiveKernel&) = delete;
  ActiveKernel& operator=(const ActiveKernel&) = delete;

 private:
  const kernels::Kernel* saved_;
};

// A test fixture whose tests run once per kernel: every conversion inside
// (cached codec, by-name, StreamDecoder, C API, check_*) uses that kernel.
//   class CodecErrors : public ForEachKernel {};
//   TEST_P(CodecErrors, ...) { ... }
//   PGCODEC_FOR_EACH_KERNEL(CodecErrors);
class ForEachKernel : public ::testing::TestWithParam<const kernels::Kernel*> {
 protected:
  void SetUp() override { active_.emplace(*GetParam()); }
  void TearDown() override { active_.reset(); }
  const kernels::Kernel& kernel() const { return *GetParam(); }

 private:
  std::optional<ActiveKernel> active_;
};

inline std::string KernelName(const ::testing::TestParamInfo<const kernels::Kernel*>& p) {
  return p.param->name;
}

// The same for a fixture with its own parameter T: runs every (kernel, T).
// Instantiate with PGCODEC_FOR_EACH_KERNEL_AND(Suite, generator, name) where
// name(const T&) gives the T part of the test name.
template <class T>
class ForEachKernelAnd : public ::testing::TestWithParam<std::tuple<const kernels::Kernel*, T>> {
 protected:
  void SetUp() override { active_.emplace(*std::get<0>(this->GetParam())); }
  void TearDown() override { active_.reset(); }
  const T& param() const { return std::get<1>(this->GetParam()); }
  const kernels::Kernel& kernel() const { return *std::get<0>(this->GetParam()); }

 private:
  std::optional<ActiveKernel> active_;
};

}  // namespace pgcodec::test

namespace pgcodec::kernels {
// gtest prints a kernel parameter by name (found by ADL).
inline void PrintTo(const Kernel* k, std::ostream* os) { *os << k->name; }
}  // namespace pgcodec::kernels

#define PGCODEC_FOR_EACH_KERNEL(Suite)                                             \
  INSTANTIATE_TEST_SUITE_P(Kernels, Suite,                                         \
                           ::testing::ValuesIn(::pgcodec::test::AllKernels()),     \
                           ::pgcodec::test::KernelName)

#define PGCODEC_FOR_EACH_KERNEL_AND(Suite, generator, name_of)                       \
  INSTANTIATE_TEST_SUITE_P(                                                          \
      Kernels, Suite,                                                                \
      ::testing::Combine(::testing::ValuesIn(::pgcodec::test::AllKernels()), generator), \
      [](const auto& p) {                                                            \
        return std::string(std::get<0>(p.param)->name) + "_" + name_of(std::get<1>(p.param)); \
      })
