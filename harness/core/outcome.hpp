// The one result type every reference produces (PostgreSQL, ICU, Python,
// pgcodec itself), so every checker compares the same things the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pgcodec::oracle {

enum class OutcomeKind : std::uint8_t {
  Ok,
  InvalidByteSequence,  // the input is not well formed
  NoEquivalent,         // well formed, but the target has no mapping
  Unspecified,          // failed, and the reference cannot say which kind
};

struct Outcome {
  OutcomeKind kind = OutcomeKind::Ok;
  std::string output;       // converted bytes (UTF-8 when decoding) when Ok
  std::size_t offset = 0;   // byte offset of the failing character, when known
  bool offset_known = false;

  bool ok() const noexcept { return kind == OutcomeKind::Ok; }
};

const char* to_string(OutcomeKind k) noexcept;

// Whether two outcomes agree: same kind; same output when Ok; same offset
// when both know it. Unspecified agrees with either failure kind.
bool agree(const Outcome& a, const Outcome& b) noexcept;

}  // namespace pgcodec::oracle
