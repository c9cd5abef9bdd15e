// Property 4 of the props (and the icu and python fuzz targets): pgcodec
// equals a reference (ICU, a Python codec) on a string modulo the
// divergence registry (corpus/divergences/<ENC>.<reference>.tsv).
//
// The registry is per character, as the verifier builds it: a decode row for
// every byte sequence it enumerates that is one character by its lead byte,
// an encode row for every code point and every combined pair PostgreSQL
// writes as one code. For a string the check is:
//
//  (a) Split it into PostgreSQL's characters: decode by the encoding's byte
//      grammar (core/byte_rules.hpp; a malformed piece is as long as its lead
//      byte says, capped at the end), encode into UTF-8 characters, taking
//      two code points as one where the encoding has a code for the pair
//      (UtfToLocal's greedy lookahead). Compare pgcodec and the reference on
//      each piece alone. A disagreement on an input the verifier enumerates
//      must be exactly one of its rows: same direction, input, outcomes and
//      category. An input it does not enumerate has no row, so it must agree
//      outright; that is only asked where PostgreSQL and the reference read
//      the input by one standard (UTF-8, RFC 3629: UTF8's three- and
//      four-byte characters, malformed UTF-8 given to ICU to encode). Other
//      pieces are not compared, nor is a string that holds one.
//  (b) If every piece was compared and agrees, the whole string agrees as
//      well. A reference converts a string character by character, so the
//      whole is what the pieces say: both convert to the same text, or both
//      fail at the first failing piece, the same way (classify() compares
//      offsets only when both sides report one; ICU reports none). A string
//      that holds malformed text is compared as accept/reject only: ICU reads
//      all the UTF-8 it is given before it writes, so it can report a
//      malformed character that follows an unmapped one. And it is not
//      compared at all when pgcodec's first error is a malformed piece that
//      the reference accepts together with the rest of the string: PostgreSQL's
//      character boundaries hold for well-formed characters, but a reference
//      can read a malformed piece as the start of a longer character of its
//      own (EUC_CN's "81 30 81 30" is one character to GB18030, two invalid
//      ones to PostgreSQL), so a piece it rejects alone it may accept in context.
//  (c) Strings where a combining mark follows a piece are compared piece by
//      piece only (see combining_mark() in reference_check.cpp).
//
// PostgreSQL's side is pgcodec's outcome: the live tests and the verifier
// hold pgcodec to the server.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/checks.hpp"
#include "core/registry.hpp"
#include "oracle/oracle.hpp"
#include "pgcodec/encoding.hpp"

namespace pgcodec::oracle {

// One encoding and one of its references.
struct ReferenceSubject {
  Encoding encoding;
  std::string reference;  // the registry's name: "icu-windows-31j", "python-cp932"
  std::string python;     // the Python codec, empty for ICU
};

// Every registry file of a reference (ICU, Python) under `dir`, as a
// subject; the postgres-direct files, PostgreSQL against itself, are not
// one. Reads file names only (starts no Python).
std::vector<ReferenceSubject> registry_subjects(const std::string& dir);
// The references the verifier compares for `e`, by their registry names.
std::vector<std::string> references_of(Encoding e);

class ReferenceCheck {
 public:
  // Opens the reference and reads its registry file; throws
  // std::runtime_error when either is missing.
  ReferenceCheck(const ReferenceSubject& s, const std::string& registry_dir);
  ~ReferenceCheck();
  // Under the active kernel: empty, or what diverged beyond the registry.
  harness::CheckResult check(bool decoding, std::string_view s) const;
  const ReferenceSubject& subject() const noexcept { return subject_; }

 private:
  ReferenceSubject subject_;
  std::unique_ptr<Reference> ref_;
  harness::RegistryFile file_;
  harness::RegistryCheck registry_;
};

}  // namespace pgcodec::oracle
