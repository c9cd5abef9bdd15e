// RapidCheck generators for the property suites: byte strings in an
// encoding and UTF-8 text, built from the encoding's own tables, with errors
// injected anywhere. Shrinking works piece by piece, so a failure shrinks to
// the few characters that matter.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pgcodec/encoding.hpp"

namespace pgcodec::props {

// What strings are made of, per encoding (built once from the tables).
struct Pieces {
  std::vector<std::string> chars;     // well-formed characters with a mapping
  std::vector<std::string> unmapped;  // bytes the encoding has no mapping for (may be empty)
  std::vector<std::string> text;      // UTF-8 of code points the encoding can encode
  std::vector<std::string> foreign;   // UTF-8 of code points it cannot
};
const Pieces& pieces(Encoding e);

// Every class of malformed UTF-8, to put inside otherwise valid text:
// overlong 2-, 3- and 4-byte forms, surrogates, above U+10FFFF, stray
// continuation bytes, truncated characters, NUL.
const std::vector<std::string>& malformed_utf8();

// Bytes in `e`: mostly ASCII runs and the encoding's characters, with
// unmapped characters, random bytes, truncated characters and NUL mixed in.
rc::Gen<std::string> bytes_in(Encoding e);
// Bytes in `e` that decode without error (ASCII and mapped characters).
rc::Gen<std::string> valid_bytes_in(Encoding e);
// UTF-8 text for encoding into `e`: its repertoire, code points it lacks and
// malformed UTF-8 at any position.
rc::Gen<std::string> utf8_for(Encoding e);

}  // namespace pgcodec::props
