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

// Lookups on one character; return false when there is no mapping.
bool lookup_decode(const MappingTable& t, std::uint32_t code, std::uint32_t& cp1,
                   std::uint32_t& cp2);
bool lookup_encode(const MappingTable& t, std::uint32_t cp, std::uint32_t& code);
bool lookup_encode_pair(const MappingTable& t, std::uint32_t cp1, std::uint32_t cp2,
                        std::uint32_t& code);

void append_utf8(std::string& out, std::uint32_t cp);
// Appends the bytes of a byte code (see Run).
void append_code(std::string& out, std::uint32_t code);
std::uint32_t code_of(std::string_view bytes);  // bytes.size() <= 4

}  // namespace pgcodec::detail
