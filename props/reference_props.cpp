// 4. References: the fast path equals ICU and Python's codecs modulo the
// divergence registry (corpus/divergences/<ENC>.<reference>.tsv), for every
// encoding that has a reference and under every kernel. One TEST_P per
// encoding and reference; it runs rc::check once per kernel in
// kernels::available(), with the number of cases from RC_PARAMS (set per
// test by props/CMakeLists.txt). PostgreSQL's side is pgcodec's outcome:
// the live tests and the verifier hold pgcodec to the server.
//
// What is compared, and why it is sound, is oracle/reference_check.hpp's
// (the icu and python fuzz targets run the same check); this file chooses
// the strings: valid ones (valid_bytes_in, text_in) and ones with errors
// (bytes_in, utf8_for), in either direction.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "inputs.hpp"
#include "kernels/kernels.hpp"
#include "oracle/python.hpp"
#include "oracle/reference_check.hpp"
#include "pgcodec/codec.hpp"

#ifndef PGCODEC_SOURCE_REGISTRY
#error "PGCODEC_SOURCE_REGISTRY (the source tree's corpus/divergences) is set by props/CMakeLists.txt"
#endif

namespace pgcodec::oracle {
// How gtest prints a parameter.
void PrintTo(const ReferenceSubject& s, std::ostream* os) { *os << info(s.encoding).name << " " << s.reference; }
}  // namespace pgcodec::oracle

namespace pgcodec::props {
namespace {

using oracle::ReferenceSubject;

// Every file of the registry is a test. Listing them reads file names
// only: the tests are listed at build time, outside the sanitizer settings
// that keep the embedded CPython's allocations at exit from counting as
// leaks, so listing must not start Python. The test itself checks that its
// reference is one the verifier compares, and
// ReferenceRegistry.EveryReferenceHasAFile that every such one has a file.
class ReferenceProps : public ::testing::TestWithParam<ReferenceSubject> {};

TEST_P(ReferenceProps, FastPathEqualsReferenceModuloRegistry) {
  const ReferenceSubject& subject = GetParam();
  const Encoding e = subject.encoding;
  const std::string enc(info(e).name);
  const std::vector<std::string> current = oracle::references_of(e);
  if (std::find(current.begin(), current.end(), subject.reference) == current.end()) {
    // The registry was written with Debian's CPython, which has every codec
    // it names; a Python without one cannot check that file at all.
    if (!subject.python.empty() && oracle::python_codec_name(subject.python).empty())
      FAIL() << enc << ": this Python has no codec " << subject.python << ", which the registry file "
             << subject.reference << " was written with (use Debian's /usr/bin/python3)";
    FAIL() << enc << ": the registry has a file for " << subject.reference
           << ", which oracle/names no longer names for it (a stale file)";
  }
  std::unique_ptr<oracle::ReferenceCheck> check;
  try {
    check = std::make_unique<oracle::ReferenceCheck>(subject, PGCODEC_SOURCE_REGISTRY);
  } catch (const std::exception& ex) {
    FAIL() << ex.what();
  }
  const kernels::Kernel& saved = kernels::active();
  for (const kernels::Kernel& k : kernels::available()) {
    kernels::set_active(k);
    const std::string name = "reference [" + enc + ", " + subject.reference + ", " + k.name + "]";
    const auto property = [&] {
      const bool decoding = *rc::gen::arbitrary<bool>();
      const bool errors = *rc::gen::arbitrary<bool>();
      const std::string s = decoding ? (errors ? *bytes_in(e) : *valid_bytes_in(e))
                                     : (errors ? *utf8_for(e) : *text_in(e));
      RC_LOG() << enc << (decoding ? " decode" : " encode") << " input: " << harness::hex_bytes(s) << "\n";
      if (const harness::CheckResult r = check->check(decoding, s)) RC_FAIL(*r);
    };
    EXPECT_TRUE(rc::check(name, property)) << name;
  }
  kernels::set_active(saved);
}

// Every reference the verifier compares has its registry file, so it has a
// test above.
TEST(ReferenceRegistry, EveryReferenceHasAFile) {
  for (const EncodingInfo& i : encodings())
    for (const std::string& r : oracle::references_of(i.id)) {
      const std::string path = harness::registry_path(PGCODEC_SOURCE_REGISTRY, i.id, r);
      EXPECT_TRUE(std::filesystem::exists(path))
          << i.name << ": no registry file for " << r << " (pgcodec verify --update-registry writes it)";
    }
}

INSTANTIATE_TEST_SUITE_P(Every, ReferenceProps,
                         ::testing::ValuesIn(oracle::registry_subjects(PGCODEC_SOURCE_REGISTRY)),
                         [](const ::testing::TestParamInfo<ReferenceSubject>& p) {
                           std::string n = std::string(pgcodec::info(p.param.encoding).name) + "_" + p.param.reference;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace pgcodec::props
