// The checks the property suites (props/) and the fuzz targets (fuzz/) run:
// each takes an input and the choices a generator or a fuzzer's first bytes
// made, runs the library under the active kernel, and says what, if
// anything, was wrong. One definition of "right" serves both; props run each
// check under RapidCheck, the fuzzers on whatever libFuzzer hands them.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "pgcodec/codec.hpp"

namespace pgcodec::harness {

// Empty when the check passed, else what failed: the condition, the
// outcomes that differed (core/outcome.hpp describe()), and where.
using CheckResult = std::optional<std::string>;

// 1. Text from the repertoire encodes, and decodes back to itself unless it
// holds an enumerated one-way code point (then to what the model says).
CheckResult check_round_trip_text(const Codec& c, std::string_view text);
// 2. Well-formed, mapped bytes decode, and encode back to themselves unless
// they hold an enumerated non-injective code or two characters that form a
// combined one (then to what the model says). Input that does not decode is
// skipped (passes) unless `must_decode`.
CheckResult check_round_trip_bytes(const Codec& c, std::string_view bytes, bool must_decode = true);
// 3. Strict conversion equals the table model's client path: output, or the
// error's kind, offset, quoted bytes, SQLSTATE, message, the output before
// it and the input consumed.
CheckResult check_model(const Codec& c, bool decoding, std::string_view in);
// 5. StreamDecoder fed chunks of the given sizes (cycled; a run of more
// than two empty chunks counts as one byte; no sizes: one chunk) equals
// one-shot decoding.
CheckResult check_streaming(const Codec& c, std::string_view in, ErrorMode mode,
                            std::span<const std::size_t> chunks);
// 5. (encoding) StreamEncoder fed chunks of the given sizes (as above)
// equals one-shot encoding; so do the same chunks through
// Codec::encode_partial by hand, each chunk after what the previous call
// held back and the rest through encode(), and what a call holds back is at
// most a cut-off character plus characters a combined pair could still
// take. Both streams also keep position() + carried() equal to the bytes
// fed, and stay failed after an error.
CheckResult check_streaming_encode(const Codec& c, std::string_view utf8, ErrorMode mode,
                                   std::span<const std::size_t> chunks);
// 6. The cached codec, find_codec, the by-name functions and the C API agree.
CheckResult check_paths(const Codec& c, bool decoding, std::string_view in);
// 7. Replace mode never fails, writes well-formed output (but for the
// enumerated ill-formed writes), equals strict mode on valid input and the
// model's replacement of the errors check() reports.
CheckResult check_replace(const Codec& c, bool decoding, std::string_view in);
// 8. check() reports the errors repeated strict conversion finds after each
// skip, and they are the model's.
CheckResult check_errors(const Codec& c, bool decoding, std::string_view in);
// 9. char_length steps as the model's grammar over well-formed input
// (`any`), and over decodable input (`valid`, skipped if it does not
// decode) its pieces decode to the whole.
CheckResult check_char_length(const Codec& c, std::string_view any);
CheckResult check_char_pieces(const Codec& c, std::string_view valid);
// 10. Every kernel gives the same outcome and bytes.
CheckResult check_kernels(const Codec& c, bool decoding, ErrorMode mode, std::string_view in);
// 11. A buffer of `small` bytes (taken modulo the full output's size + 1)
// gives a prefix of the full result and is never written past; two fill
// patterns give the same bytes. Smaller than the full output: OutputFull;
// as large (tried too): the full answer, an error included.
CheckResult check_buffers(const Codec& c, bool decoding, ErrorMode mode, std::string_view in,
                          std::size_t small);
// 6. Every field a C caller reads (counts, status, the error's kind,
// offset, quoted bytes, length, skip, encodings, SQLSTATE, message, and
// each stream call's output bound) equals the C++ API's: one-shot into the
// bound and into a buffer of `small` bytes (modulo the bound + 1),
// decode_partial, and the C stream of the same direction fed `chunks` (as
// check_streaming) and finished.
CheckResult check_c_api_fields(const Codec& c, bool decoding, ErrorMode mode, std::string_view in,
                               std::span<const std::size_t> chunks, std::size_t small);
// 11. The C API with the null pointers and zero capacities pgcodec.h allows
// equals the C++ API on an empty span; what it forbids is
// PGCODEC_INVALID_ARGUMENT and converts nothing.
CheckResult check_c_api_edges(const Codec& c, bool decoding, ErrorMode mode, std::string_view in);

// 13. The code-unit paths equal the UTF-8 path (harness/core/check_units.cpp).
// Decoding: decode_units into UTF-16, UTF-32, UCS-2 and Latin-1, each with
// its own limit and with U+007F, final and not: the same status, consumed,
// error and code points, or Status::Wider right before the first code
// point above the limit, after which UTF-32 finishes the text; a buffer of
// `small` units (modulo the whole + 1) gives a prefix, OutputFull, and
// continues from `consumed`; the C API's fields agree. Encoding: the
// input's characters, each byte that is none as a lone surrogate, in every
// form that holds them: encode_units equals encoding their generalized
// UTF-8 (Strict) or the valid stretches with one '?' per lone surrogate
// (Replace), positions in units; a small buffer gives a prefix and
// continues; a first chunk with final == false and the rest equal one-shot;
// the C API agrees.
CheckResult check_units(const Codec& c, bool decoding, ErrorMode mode, std::string_view in, std::size_t small);
// 12. A name resolves by PostgreSQL's rule (a C string, under NAMEDATALEN
// bytes, letters and digits lowercased, then the aliases) through lookup,
// find_codec, pgcodec_find and the by-name functions alike.
CheckResult check_name(std::string_view name);

}  // namespace pgcodec::harness
