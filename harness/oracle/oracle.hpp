// One interface for every reference the verifier asks (ICU, Python's codecs,
// pgcodec's own paths and the table model); their outcomes are compared with
// harness::classify().
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/outcome.hpp"
#include "pgcodec/encoding.hpp"

namespace pgcodec::oracle {

using harness::Direction;
using harness::Outcome;

// A reference converter for one encoding.
class Reference {
 public:
  virtual ~Reference() = default;
  // Registry name: "icu-windows-31j", "python-cp932", "pgcodec-by-name".
  virtual std::string name() const = 0;
  // The outcome of each input, in order (`out` is resized to match).
  virtual void run(Direction d, std::span<const std::string> in, std::vector<Outcome>& out) = 0;
};

// pgcodec's own paths: the cached Codec and the by-name functions; and the
// table model (convert() semantics, see core/model.hpp; not defined for
// SQL_ASCII's client-path decode).
std::unique_ptr<Reference> pgcodec_cached(Encoding e);
std::unique_ptr<Reference> pgcodec_by_name(Encoding e);
std::unique_ptr<Reference> pgcodec_tables(Encoding e);

// The ICU converter oracle/names names for `e`, or null when there is none.
std::unique_ptr<Reference> icu_reference(Encoding e);

// The distinct Python codecs oracle/names names for `e` (psycopg 3's,
// psycopg2's, asyncpg's and the others), skipping names Python lacks.
struct PythonChoice {
  std::string codec;                 // codecs.lookup(name).name
  std::vector<std::string> used_by;  // "psycopg3", "psycopg2", "asyncpg"
};
std::vector<PythonChoice> python_choices(Encoding e);
std::unique_ptr<Reference> python_reference(const std::string& codec);

}  // namespace pgcodec::oracle
