// The one result type every engine produces (PostgreSQL, the table model,
// ICU, Python, pgcodec itself) and the one comparison, classify(), that
// every checker runs (the verifier, the table generator, the live tests),
// as RE2's tester runs every engine through one Result and ResultOkay().
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pgcodec/codec.hpp"

namespace pgcodec::harness {

enum class OutcomeKind : std::uint8_t {
  Ok,
  InvalidByteSequence,  // the input is not well formed (SQLSTATE 22021)
  NoEquivalent,         // well formed, but the target has no mapping (22P05)
  Unspecified,          // failed, and the engine cannot say which kind
};
const char* to_string(OutcomeKind k) noexcept;

// Converted text, or an error. Every detail of an error is "known or not":
// convert() does not report offsets, ICU and Python quote no bytes and have
// no SQLSTATE or PostgreSQL message; classify() compares only what both
// sides know.
struct Outcome {
  OutcomeKind kind = OutcomeKind::Ok;
  std::string output;                    // the converted bytes (UTF-8 when decoding), when ok
  std::optional<std::size_t> offset;     // byte offset of the failing character
  std::optional<std::string> bytes;      // the bytes the error quotes
  std::optional<std::string> sqlstate;   // "22021"
  std::optional<std::string> message;    // PostgreSQL's primary message

  bool ok() const noexcept { return kind == OutcomeKind::Ok; }

  static Outcome converted(std::string output);
  static Outcome failed(OutcomeKind kind, std::optional<std::size_t> offset = std::nullopt);
};

// For failure messages: "converts to 82 a0", or the kind with what is known
// of the error ("invalid byte sequence at byte 3 [22021]: invalid byte ...").
std::string describe(const Outcome& o);

// The one conversion from a pgcodec result: `out` is the output buffer the
// call wrote into. Everything about a pgcodec error is known.
Outcome from_result(const Result& r, std::string_view out);

// Decode: bytes in the encoding -> UTF-8. Encode: UTF-8 -> bytes.
enum class Direction : std::uint8_t { Decode, Encode };
const char* to_string(Direction d) noexcept;  // "decode", "encode"
bool parse_direction(std::string_view s, Direction& d) noexcept;

// pgcodec's outcome for one strict conversion of `in` (an output buffer of
// max_*_size), as from_result() reads it.
Outcome pgcodec_outcome(const Codec& c, Direction d, std::string_view in);

// How an outcome differs from the expected (PostgreSQL's) one. The checks
// go in this order and the first difference wins; the last three need
// details only PostgreSQL and pgcodec give (ICU and Python never supply
// them, so registry rows only ever hold the first five).
enum class Category : std::uint8_t {
  Agree,
  DifferentMapping,    // both convert, to different output
  OnlyExpected,        // the expected side converts it, the actual one fails
  OnlyActual,          // the actual side converts it, the expected one fails
  DifferentErrorKind,  // both fail: invalid byte sequence vs no equivalent
  DifferentOffset,     // both fail with the same kind at different offsets
  DifferentBytes,      // ... quoting different bytes
  DifferentSqlstate,   // ... with different SQLSTATEs
  DifferentMessage,    // ... with different messages
};
// Stable names used in the registry files and the atlas
// ("only-postgres" and "only-reference" for OnlyExpected and OnlyActual).
const char* to_string(Category c) noexcept;
bool parse_category(std::string_view s, Category& c) noexcept;

// The comparison. Unspecified agrees with either failure kind; offsets,
// quoted bytes, SQLSTATEs and messages are compared only when both sides
// know theirs.
Category classify(const Outcome& expected, const Outcome& actual) noexcept;
inline bool agree(const Outcome& a, const Outcome& b) noexcept {
  return classify(a, b) == Category::Agree;
}

}  // namespace pgcodec::harness
