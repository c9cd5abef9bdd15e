#include "oracle/outcome.hpp"

namespace pgcodec::oracle {

const char* to_string(OutcomeKind k) noexcept {
  switch (k) {
    case OutcomeKind::Ok: return "ok";
    case OutcomeKind::InvalidByteSequence: return "invalid byte sequence";
    case OutcomeKind::NoEquivalent: return "no equivalent";
    case OutcomeKind::Unspecified: return "error (unspecified)";
  }
  return "?";
}

bool agree(const Outcome& a, const Outcome& b) noexcept {
  if (a.ok() != b.ok()) return false;
  if (a.ok()) return a.output == b.output;
  if (a.kind != b.kind && a.kind != OutcomeKind::Unspecified && b.kind != OutcomeKind::Unspecified)
    return false;
  return !(a.offset_known && b.offset_known) || a.offset == b.offset;
}

}  // namespace pgcodec::oracle
