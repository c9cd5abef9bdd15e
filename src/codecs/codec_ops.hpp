// The table of functions behind a Codec, one per family of encodings (as
// ICU's UConverterImpl in ucnv_cnv.h): the families share code; each
// encoding's row in codec_table.cpp names its family and its shared tables.
//
// THE CONTRACT. Every family implements both functions below; a new family
// can be written from this comment alone.
//
//   Result decode(const CodecRow& row, std::string_view in, std::span<char> out,
//                 ErrorMode mode, bool final, const kernels::Kernel& k);
//   Result encode(const CodecRow& row, std::string_view utf8, std::span<char> out,
//                 ErrorMode mode, const kernels::Kernel& k);
//
// decode converts bytes in row.encoding to UTF-8, encode UTF-8 to bytes in
// row.encoding, exactly as PostgreSQL's LocalToUtf()/UtfToLocal() do
// (src/backend/utils/mb/conv.c), character by character in input order.
//
// Parameters
//   row    the encoding's codec_table row; row.tables points at the
//          family's dense tables (tables/dense.hpp), constant data.
//   in     the whole input (or, with final == false, a chunk of it). Any
//          bytes; the functions never read outside it.
//   out    the output buffer; any size, 0 included. Never written outside.
//   mode   Strict: stop at the first error. Replace: write U+FFFD (decode)
//          or '?' (encode) for each error and go on; never Status::Error.
//   final  decode only. false (streaming): a character cut off by the end
//          of `in` (too few bytes left for the length its lead byte claims,
//          rules/grammar.hpp char_length) is not an error; conversion
//          stops before it with Status::Ok and consumed < in.size(), and the
//          caller carries it over. true: it is an invalid byte sequence.
//          encode has no `final`: a cut-off UTF-8 character is an invalid
//          byte sequence. Encoding in chunks is Codec::encode_partial
//          (codec.cpp), which cuts the text before what the next chunk
//          could change and calls encode on the rest.
//   k      the kernel (kernels/kernels.hpp): k.ascii_run scans ASCII runs
//          (codecs/ascii_copy.hpp handles short ones inline),
//          k.utf8_valid_run validates UTF-8 (UTF8, SQL_ASCII),
//          k.single_byte_decode / _encode take 64-byte blocks (single-byte
//          family; null: byte by byte), k.table_shortcuts allows the
//          families' fast paths. Every kernel gives identical results.
//
// On return (r = the Result)
//   in[0, r.consumed) was converted, character by character, and its
//   output is exactly out[0, r.written); a character is never split: either
//   all of its output is written and it counts as consumed, or neither.
//   r.status is one of
//     Ok          consumed == in.size(), or (decode, final == false)
//                 consumed < in.size() where only a cut-off character is left.
//     Error       (Strict only) r.error is the first error in input order,
//                 made by make_error() (kind, offset, the bytes quoted as
//                 PostgreSQL quotes them, skip = bytes to resume after).
//                 consumed <= r.error.offset: equal, except that encoding
//                 EUC_JIS_2004 / SHIFT_JIS_2004 looks one character ahead
//                 (UtfToLocal's combined characters), so an error in the
//                 next character leaves the current one unconverted.
//     OutputFull  the next character's output (or its replacement) does not
//                 fit in out[r.written, out.size()); consumed < in.size().
//                 An error needs no room: where the output fills up exactly
//                 before an error, Strict mode returns the Error, in every
//                 family (check_buffers states it).
//                 Calling again with the rest of the input and more room
//                 continues exactly as if the buffer had been large enough.
//   consumed < in.size() therefore means exactly one of: Error, OutputFull,
//   or a cut-off character at the end of a non-final decode chunk.
//
// What happens to out[r.written, out.size())
//   Nothing: no family stores there, whatever stopped it (tested by
//   CodecOutputFull.NothingStoredPastWritten under every kernel). Decided
//   by measurement: the single-byte decoder's one fixed 4-byte store per
//   character (bytes past the character's 2 or 3 left unspecified) was no
//   faster than storing only the character's bytes (pgcodec_bench,
//   decode/WIN1252/western: 64 KiB 68.8-70.6 us vs 68.9-70.9 us; 100 B
//   89-92 ns vs 91-97 ns, within the shared machine's noise).
//
// decode_units is the same decoder as decode, written once as a template
// over its output (codecs/sinks.hpp): it returns what decode returns, with
// `written` in units, and in addition Status::Wider, before a character
// with a code point above out.limit (nothing of it written, consumed at its
// start; calling again with the rest into a wider form continues exactly).
// Encoding from units needs no family function: src/units.cpp transcodes
// blocks of units to UTF-8 and calls encode.
//
// Sizes: decode_factor / encode_factor bound the output per input byte in
// any mode, so out.size() >= factor * in.size() never gives OutputFull.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <string_view>

#include "kernels/kernels.hpp"
#include "pgcodec/codec.hpp"
#include "tables/dense.hpp"

namespace pgcodec::detail {

// memcpy for a count that may be 0 with a null pointer (an empty input, or
// the NULL buffer of capacity 0 the C API allows), which memcpy itself must
// not be given. Found by check_fuzzer (corpus/regressions/fuzz/).
inline void copy_bytes(void* dst, const void* src, std::size_t n) noexcept {
  if (n) std::memcpy(dst, src, n);
}

struct CodecRow;

struct CodecOps {
  Result (*decode)(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
                   bool final, const kernels::Kernel& k) noexcept;
  Result (*encode)(const CodecRow& row, std::string_view utf8, std::span<char> out,
                   ErrorMode mode, const kernels::Kernel& k) noexcept;
  // decode, into code units (Codec::decode_units): the same decoder, through
  // a sink of out's form (codecs/sinks.hpp); out.limit is already clamped to
  // the form (U+007F at least).
  Result (*decode_units)(const CodecRow& row, std::string_view in, const UnitBuffer& out,
                         ErrorMode mode, bool final, const kernels::Kernel& k) noexcept;
  std::size_t decode_factor;  // output bytes per input byte, at most, in any mode
  std::size_t encode_factor;
  // encode_units' fast path, or null: from unit `i` of `in`, converts what
  // this family's encode() takes in its own fast loop (so the same bytes),
  // straight from the units, into out from `w`; stops before the first unit
  // it does not take (a kernel without table shortcuts takes none) or when
  // out has no room, and returns the new i (w updated). The block path
  // (src/units.cpp) converts the rest. `final`: `in` ends the text (a
  // character that could combine with what follows need not wait).
  std::size_t (*encode_units_prefix)(const CodecRow& row, const UnitText& in, std::size_t i,
                                     std::span<char> out, std::size_t& w, bool final,
                                     const kernels::Kernel& k) noexcept = nullptr;
};

// Families (src/codecs/).
extern const CodecOps utf8_ops;         // UTF8 and SQL_ASCII
extern const CodecOps single_byte_ops;  // LATIN1..KOI8U
extern const CodecOps multibyte_ops;    // the 13 others

// The UTF8 family's fast loop for another family's encoder: decodes a
// prefix of the UTF-8 [p + i, p + n) into 16-bit units at o + w (cap - w >=
// n - i: a unit for every byte), with the kernel's ASCII runs and its UTF-8
// blocks where it has them; takes ASCII other than NUL and the two- and
// three-byte characters PostgreSQL accepts, never a character that crosses
// n, and stops before anything else (NUL, a four-byte character, an
// invalid or cut sequence) or where fewer than three bytes are left.
// Returns the new i (w updated).
std::size_t utf8_to_ucs2_prefix(const kernels::Kernel& k, const unsigned char* p, std::size_t i, std::size_t n,
                                char16_t* o, std::size_t cap, std::size_t& w) noexcept;

// How many of the multibyte family's one-read kernel tables (lazy_table in
// codecs/multibyte.cpp) this process has built: the tests hold the library
// to building none for input shorter than 128 bytes (Python's import
// decodes every encoding's bytes 01..FF in chunks of 64).
unsigned kernel_tables_built() noexcept;

// A row's tables: the dense tables of its family (tables/dense.hpp), the
// other null. They are constant data generated by tools/gentables, so no
// call builds, allocates or locks anything.
struct FamilyTables {
  const SingleByteDense* single_byte = nullptr;
  const MultibyteDense* multibyte = nullptr;
};

// Builds an error at `at` in `in`: PostgreSQL quotes the character's bytes
// as its lead byte counts them, capped at what is left and at 8.
Error make_error(ErrorKind kind, Encoding bytes_enc, Encoding target, std::string_view in,
                 std::size_t at, std::size_t skip) noexcept;

}  // namespace pgcodec::detail
