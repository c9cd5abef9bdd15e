// The body of icu_fuzzer and python_fuzzer: the case's encoding, direction
// and kernel (fuzz_case.hpp), one of the encoding's references, and
// oracle/reference_check.hpp's check (pgcodec equals the reference modulo
// the divergence registry). A ReferenceCheck is made once per reference
// and kept for the process.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_case.hpp"
#include "oracle/reference_check.hpp"

namespace pgcodec::fuzz {

// `pick` chooses among the references `choices(e)` lists (byte 3 of the
// header modulo their number); an encoding without one is skipped.
template <class Choices>
int run_reference(const char* target, const std::uint8_t* data, std::size_t size, Choices choices) {
  return run(target, data, size, [&](const FuzzCase& fc, const Codec& c, std::string_view in) -> harness::CheckResult {
    const std::vector<oracle::ReferenceSubject> subjects = choices(c.encoding());
    if (subjects.empty()) return {};
    const oracle::ReferenceSubject& s = subjects[fc.small % subjects.size()];
    static std::map<std::string, std::unique_ptr<oracle::ReferenceCheck>> checks;
    auto& check = checks[s.reference + "/" + std::to_string(to_int(s.encoding))];
    if (!check) check = std::make_unique<oracle::ReferenceCheck>(s, PGCODEC_SOURCE_REGISTRY);
    return under_kernel(fc, [&] { return check->check(fc.decoding, in); });
  });
}

}  // namespace pgcodec::fuzz
