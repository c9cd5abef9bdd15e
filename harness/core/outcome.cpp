#include "core/outcome.hpp"

#include <algorithm>

#include <array>

#include "core/text.hpp"

namespace pgcodec::harness {

const char* to_string(OutcomeKind k) noexcept {
  switch (k) {
    case OutcomeKind::Ok: return "ok";
    case OutcomeKind::InvalidByteSequence: return "invalid byte sequence";
    case OutcomeKind::NoEquivalent: return "no equivalent";
    case OutcomeKind::Unspecified: return "error (unspecified)";
  }
  return "?";
}

Outcome Outcome::converted(std::string output) {
  Outcome o;
  o.output = std::move(output);
  return o;
}

Outcome Outcome::failed(OutcomeKind kind, std::optional<std::size_t> offset) {
  Outcome o;
  o.kind = kind;
  o.offset = offset;
  return o;
}

std::string describe(const Outcome& o) {
  if (o.ok()) return "converts to " + hex_bytes(o.output);
  std::string s = to_string(o.kind);
  if (o.offset) s += " at byte " + std::to_string(*o.offset);
  if (o.sqlstate) s += " [" + *o.sqlstate + "]";
  if (o.message) s += ": " + *o.message;
  return s;
}

Outcome from_result(const Result& r, std::string_view out) {
  if (r.ok()) return Outcome::converted(std::string(out.substr(0, r.written)));
  Outcome o;
  if (r.status != Status::Error) {
    // Not a conversion error (the output buffer was too small): nothing to
    // compare but the failure itself.
    o.kind = OutcomeKind::Unspecified;
    return o;
  }
  o.kind = r.error.kind == ErrorKind::InvalidByteSequence ? OutcomeKind::InvalidByteSequence
                                                         : OutcomeKind::NoEquivalent;
  o.offset = r.error.offset;
  o.bytes.emplace(reinterpret_cast<const char*>(r.error.bytes.data()), r.error.length);
  o.sqlstate.emplace(r.error.sqlstate());
  o.message = r.error.message();
  return o;
}

Outcome pgcodec_outcome(const Codec& c, Direction d, std::string_view in) {
  const bool decoding = d == Direction::Decode;
  const auto cap = decoding ? c.max_decoded_size(in.size()) : c.max_encoded_size(in.size());
  std::string out(std::max<std::size_t>(cap.value_or(in.size() * 4), 1), '\0');
  const Result r = decoding ? c.decode(in, out) : c.encode(in, out);
  return from_result(r, out);
}

const char* to_string(Direction d) noexcept { return d == Direction::Decode ? "decode" : "encode"; }

bool parse_direction(std::string_view s, Direction& d) noexcept {
  if (s == "decode") d = Direction::Decode;
  else if (s == "encode") d = Direction::Encode;
  else return false;
  return true;
}

namespace {
constexpr std::array<const char*, 9> kCategoryNames = {
    "agree",           "different-mapping", "only-postgres",      "only-reference",
    "different-error-kind", "different-offset", "different-bytes", "different-sqlstate",
    "different-message"};
}  // namespace

const char* to_string(Category c) noexcept { return kCategoryNames[static_cast<std::size_t>(c)]; }

bool parse_category(std::string_view s, Category& c) noexcept {
  for (std::size_t i = 0; i < kCategoryNames.size(); ++i)
    if (s == kCategoryNames[i]) {
      c = static_cast<Category>(i);
      return true;
    }
  return false;
}

Category classify(const Outcome& expected, const Outcome& actual) noexcept {
  if (expected.ok() && actual.ok())
    return expected.output == actual.output ? Category::Agree : Category::DifferentMapping;
  if (expected.ok()) return Category::OnlyExpected;
  if (actual.ok()) return Category::OnlyActual;
  if (expected.kind != actual.kind && expected.kind != OutcomeKind::Unspecified &&
      actual.kind != OutcomeKind::Unspecified)
    return Category::DifferentErrorKind;
  auto differ = [](const auto& a, const auto& b) { return a && b && *a != *b; };
  if (differ(expected.offset, actual.offset)) return Category::DifferentOffset;
  if (differ(expected.bytes, actual.bytes)) return Category::DifferentBytes;
  if (differ(expected.sqlstate, actual.sqlstate)) return Category::DifferentSqlstate;
  if (differ(expected.message, actual.message)) return Category::DifferentMessage;
  return Category::Agree;
}

}  // namespace pgcodec::harness
