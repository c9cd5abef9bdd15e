// RapidCheck generators for the property suites, over the std-only pieces
// harness/core makes from each encoding's tables (core/generators.hpp,
// shared with the fuzzers): byte strings in an encoding and UTF-8 text,
// errors injected anywhere. Shrinking works piece by piece, so a failure
// shrinks to the few characters that matter.
#pragma once

#include <rapidcheck.h>

#include <string>

#include "pgcodec/encoding.hpp"

namespace pgcodec::props {

// Bytes in `e`: mostly ASCII runs and the encoding's characters, with
// unmapped characters, random bytes, truncated characters and NUL mixed in.
rc::Gen<std::string> bytes_in(Encoding e);
// Bytes in `e` that decode without error (ASCII and mapped characters).
rc::Gen<std::string> valid_bytes_in(Encoding e);
// Well-formed bytes in `e`, mapped or not: valid_bytes_in's pieces, the
// unmapped characters and the two-byte characters with an ASCII trail byte.
rc::Gen<std::string> well_formed_bytes_in(Encoding e);
// UTF-8 text for encoding into `e`: its repertoire, code points it lacks and
// every class of malformed UTF-8 at any position.
rc::Gen<std::string> utf8_for(Encoding e);
// Valid UTF-8 that `e` can encode: ASCII runs and its repertoire.
rc::Gen<std::string> text_in(Encoding e);
// A run of 128-400 bytes of one script of `e` (harness/core Repertoire::
// scripts), as bytes in `e` or as UTF-8, solid or with a space every few
// characters: what the 64-byte block kernels take whole. With `with_error`,
// one edge piece (harness/core edge_pieces) is inserted at a character
// boundary.
rc::Gen<std::string> script_run(Encoding e, bool decoding, bool with_error);
// 96-400 bytes of `e`'s characters of every length, its edge characters
// among them, and single ASCII characters (spaces and punctuation between
// words), as bytes in `e` or as UTF-8; half the time with one edge piece
// inserted at a character boundary. Text that mixes lengths in every block,
// as the UTF-8 <-> code unit block kernels take it.
rc::Gen<std::string> dense_text(Encoding e, bool decoding);

// 160-800 bytes of dense_text's kind with one piece inserted at the first
// character boundary at or after 64 k - 4 .. 64 k + 4 for a block k of the
// text: a NUL a third of the time, else an edge piece. Where the block
// kernels' loops (64, 128 or 256 bytes an iteration) and heads and tails
// end, past the first iteration.
rc::Gen<std::string> piece_at_block_edge(Encoding e, bool decoding);

}  // namespace pgcodec::props
