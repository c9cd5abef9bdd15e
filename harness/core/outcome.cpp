#include "core/outcome.hpp"

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

}  // namespace pgcodec::oracle
