// The reference conversion: what PostgreSQL's convert() answers for an input,
// derived from the structural rules and a mapping table, one character at a
// time with no shortcuts. The table generator checks the server against it;
// the fast codecs are checked against it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tables/table.hpp"

namespace pgcodec::detail {

enum class RefStatus : std::uint8_t {
  Ok,
  InvalidByteSequence,  // SQLSTATE 22021
  NoEquivalent,         // SQLSTATE 22P05
};

struct Answer {
  RefStatus status = RefStatus::Ok;
  std::string output;  // converted bytes when status == Ok
  bool operator==(const Answer&) const = default;
};

// bytes in table.encoding -> UTF-8, as convert(bytes, enc, 'UTF8').
Answer reference_decode(const MappingTable& table, std::string_view bytes);
// UTF-8 (assumed valid) -> bytes in table.encoding, as convert(bytes, 'UTF8', enc).
Answer reference_encode(const MappingTable& table, std::string_view utf8);

}  // namespace pgcodec::detail
