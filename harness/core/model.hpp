// The table model: what PostgreSQL's convert() answers for an input, derived
// from the byte grammar (core/byte_rules.hpp) and a mapping table's runs, one
// character at a time with no shortcuts. The table generator holds the
// server to it before writing tables; the verifier holds it to the server.
//
// It shares no code with the codecs: its lookups are ordered maps built from
// the runs, not the codecs' dense arrays or their binary searches
// (tables/lookup.hpp), and its byte grammar is its own (core/byte_rules.hpp),
// not src/rules/, so a mistake in one is not repeated in the other.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/outcome.hpp"
#include "tables/table.hpp"

namespace pgcodec::harness {

// One error of the client path, with the bytes to skip to resume after it.
struct ModelError {
  Outcome outcome;  // offset, quoted bytes, SQLSTATE and message all known
  std::size_t offset = 0, skip = 1;
};

// Everything the client path does with one input.
struct ClientRun {
  Outcome strict;                   // the first error, or the whole output
  std::string before_error;         // what strict mode converts before that error
  std::size_t consumed = 0;         // ... and the input bytes that makes (the error's
                                    // offset, but for the lookahead's errors)
  std::string replaced;             // Replace mode's output (it never fails)
  std::vector<ModelError> errors;   // every error, as check() lists them: strict conversion
                                    // resumed after each skip, a character the lookahead
                                    // left unconverted converted on its own first; what
                                    // `replaced` replaces
};

class TableModel {
 public:
  // Copies what it needs: `t` may be a temporary.
  explicit TableModel(const detail::MappingTable& t);

  // bytes in the encoding -> UTF-8, as convert(bytes, enc, 'UTF8'). The
  // outcome has no offset (convert() reports none).
  Outcome decode(std::string_view bytes) const;
  // UTF-8 (assumed valid) -> bytes, as convert(text, 'UTF8', enc).
  Outcome encode(std::string_view utf8) const;

  // The client path (docs/semantics.md): what a UTF8 server does with bytes
  // a client sends in the encoding (decode) and with text it sends back
  // (encode). One walk over the input that stops at the first character
  // that is malformed or has no mapping, with PostgreSQL's offsets, quoted
  // bytes and messages, and the combined-character lookahead of UtfToLocal.
  ClientRun client_decode(std::string_view bytes) const;
  ClientRun client_encode(std::string_view utf8) const;

  // One character: the code points a byte code decodes to (the second is 0
  // unless it decodes to two), the code a code point or a pair encodes to.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> decode_code(std::uint32_t code) const;
  std::optional<std::uint32_t> encode_code_point(std::uint32_t cp) const;
  std::optional<std::uint32_t> encode_pair(std::uint32_t cp1, std::uint32_t cp2) const;

  Encoding encoding() const noexcept { return enc_; }

 private:
  struct Step;
  Step decode_step(std::string_view in, std::size_t i) const;
  Step encode_step(std::string_view in, std::size_t i, bool lookahead) const;
  template <class StepFn>
  ClientRun client_run(std::string_view in, bool decoding, StepFn step) const;

  struct Span {
    std::uint32_t to, length;
  };
  Encoding enc_;
  bool identity_;
  std::map<std::uint32_t, Span> decode_, decode_linear_, encode_, encode_linear_;
  std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> decode_pairs_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> encode_pairs_;
  bool has_encode_pairs_ = false;
};

// The model of an encoding's committed table, built once per process.
const TableModel& model(Encoding e);
// Shorthands: model(t.encoding) when `t` is the committed table, else a
// model built for this call.
Outcome model_decode(const detail::MappingTable& t, std::string_view bytes);
Outcome model_encode(const detail::MappingTable& t, std::string_view utf8);

// Every (byte code, code point) a table decodes to one code point, expanded
// from its runs.
std::vector<std::pair<std::uint32_t, std::uint32_t>> decoded_codes(const detail::MappingTable& t);

}  // namespace pgcodec::harness
