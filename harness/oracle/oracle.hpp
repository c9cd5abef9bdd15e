// One interface for every reference the verifier asks (ICU, Python's codecs,
// pgcodec's own paths), and the one comparison routine every checker uses.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.hpp"
#include "pgcodec/encoding.hpp"

namespace pgcodec::oracle {

// Decode: bytes in the encoding -> UTF-8. Encode: UTF-8 -> bytes.
enum class Direction : std::uint8_t { Decode, Encode };
const char* to_string(Direction d) noexcept;

// How an outcome differs from the expected (PostgreSQL's) one.
enum class Category : std::uint8_t {
  Agree,
  DifferentMapping,    // both convert, to different output
  OnlyExpected,        // PostgreSQL converts it, the reference fails
  OnlyActual,          // the reference converts it, PostgreSQL fails
  DifferentErrorKind,  // both fail: invalid byte sequence vs no equivalent
  DifferentOffset,     // both fail with the same kind at different offsets
};
// Stable names used in the registry files and the atlas.
const char* to_string(Category c) noexcept;
bool parse_category(std::string_view s, Category& c) noexcept;

// The comparison: an Unspecified failure agrees with either failure kind,
// and offsets are compared only when both sides know theirs.
Category classify(const Outcome& expected, const Outcome& actual) noexcept;

// A reference converter for one encoding.
class Reference {
 public:
  virtual ~Reference() = default;
  // Registry name: "icu-windows-31j", "python-cp932", "pgcodec-by-name".
  virtual std::string name() const = 0;
  // The outcome of each input, in order (`out` is resized to match).
  virtual void run(Direction d, std::span<const std::string> in, std::vector<Outcome>& out) = 0;
};

// pgcodec's own paths: the cached Codec, the by-name functions, and the
// table-driven single-character reference (convert() semantics, used by
// the table generator; not defined for SQL_ASCII's client-path decode).
std::unique_ptr<Reference> pgcodec_cached(Encoding e);
std::unique_ptr<Reference> pgcodec_by_name(Encoding e);
std::unique_ptr<Reference> pgcodec_tables(Encoding e);

// The ICU converter the registry names for `e`, or null when there is none.
std::unique_ptr<Reference> icu_reference(Encoding e);

// The distinct Python codecs the registry names for `e` (psycopg 3's,
// psycopg2's, asyncpg's and the others), skipping names Python lacks.
struct PythonChoice {
  std::string codec;                 // codecs.lookup(name).name
  std::vector<std::string> used_by;  // "psycopg3", "psycopg2", "asyncpg"
};
std::vector<PythonChoice> python_choices(Encoding e);
std::unique_ptr<Reference> python_reference(const std::string& codec);

}  // namespace pgcodec::oracle
