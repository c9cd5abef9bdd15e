// Per-encoding names of the references: the closest ICU converter and the
// Python codecs the drivers choose, plus other Python codecs worth comparing.
// These are facts about the judges, not about the encodings, so they live
// here and not in pgcodec::EncodingInfo.
#pragma once

#include <span>
#include <string_view>

#include "pgcodec/encoding.hpp"

namespace pgcodec::oracle {

struct ReferenceNames {
  Encoding id;
  std::string_view python_psycopg3;  // the codec psycopg 3 uses, empty if none
  std::string_view python_psycopg2;  // psycopg2's choice
  std::string_view python_asyncpg;   // asyncpg's choice (may not exist in Python)
  std::span<const std::string_view> python_others;  // more codecs worth comparing
  std::string_view icu;              // closest ICU converter, empty if none
};

// One row per encoding, in pg_enc order.
std::span<const ReferenceNames> reference_names() noexcept;
const ReferenceNames& reference_names(Encoding e) noexcept;

}  // namespace pgcodec::oracle
