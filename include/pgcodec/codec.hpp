// The codec API: bytes in a PostgreSQL encoding <-> UTF-8, exactly as
// PostgreSQL converts them.
//
// A connection resolves its client_encoding once, keeps the `const Codec&`,
// and every call after that does no lookup and, given an output buffer, no
// allocation (one exception, once per process: on an AVX2 CPU the first
// conversion of a multibyte encoding's text long enough for the block
// kernels builds that encoding's one-read kernel tables, 64 to 256 KiB,
// kept until exit):
//
//   const pgcodec::Codec& c = pgcodec::codec(*pgcodec::lookup("WIN1252"));
//   std::vector<char> out(*c.max_decoded_size(in.size()));
//   pgcodec::Result r = c.decode(in, out);
//   if (!r.ok()) std::cerr << r.error.message() << "\n";
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "pgcodec/encoding.hpp"
#include "pgcodec/export.h"
#include "pgcodec/result.hpp"

namespace pgcodec {

// Text as code units, for hosts whose strings are not UTF-8: UTF-16 (ICU,
// Java, .NET, JavaScript), UTF-32, and the fixed-width forms of hosts that
// store each code point in one unit of the narrowest width that holds the
// string's widest (CPython's str: Latin-1, UCS-2 or UCS-4; V8's one-byte
// strings). docs/semantics.md ("Code units") gives the rules.
enum class UnitForm : std::uint8_t {
  Latin1,  // 1 byte per unit, one code point U+0000..U+00FF each
  Ucs2,    // 2 bytes per unit, one code point U+0000..U+FFFF each; a
           // surrogate is a code point of its own, never half of a pair
           // (CPython's 2-byte str)
  Utf16,   // 2 bytes per unit, UTF-16: a code point above U+FFFF is a pair
           // of surrogates
  Utf32,   // 4 bytes per unit, one code point each (CPython's 4-byte str)
};

// Where decode_units writes: `capacity` units of `form` at `data`
// (suitably aligned), storing no code point above `limit` (at least U+007F;
// the form's own maximum by default). A decode that meets a character above
// the limit stops before it with Status::Wider: the caller continues with
// the rest in a wider form (CPython: ASCII -> Latin-1 -> UCS-2 -> UCS-4).
struct UnitBuffer {
  void* data = nullptr;
  std::size_t capacity = 0;  // in units
  UnitForm form = UnitForm::Utf16;
  char32_t limit = 0x10FFFF;
};

// What encode_units reads: `length` units of `form` at `data`.
struct UnitText {
  const void* data = nullptr;
  std::size_t length = 0;  // in units
  UnitForm form = UnitForm::Utf16;
};

namespace detail {
struct CodecRow;
struct CodecFactory;
}  // namespace detail

class PGCODEC_API Codec {
 public:
  Encoding encoding() const noexcept { return encoding_; }
  std::string_view name() const noexcept { return info(encoding_).name; }

  // Bytes in encoding() -> UTF-8, written to `out`.
  Result decode(std::string_view in, std::span<char> out,
                ErrorMode mode = ErrorMode::Strict) const noexcept;
  // As decode(), but a character cut off by the end of `in` is not an error:
  // conversion stops before it (`consumed` says where) for the caller to
  // carry over into the next chunk. StreamDecoder is built on it.
  Result decode_partial(std::string_view in, std::span<char> out,
                        ErrorMode mode = ErrorMode::Strict) const noexcept;
  // UTF-8 -> bytes in encoding(). Invalid UTF-8 is an error like any other.
  Result encode(std::string_view utf8, std::span<char> out,
                ErrorMode mode = ErrorMode::Strict) const noexcept;
  // As encode(), for one chunk of a longer text: a character cut off by the
  // end of `utf8` is not an error, and in EUC_JIS_2004 and SHIFT_JIS_2004,
  // whose encoders look one character ahead to combine a pair of code points
  // into one code (U+304B U+309A is SHIFT_JIS_2004 82 F5), the characters at
  // the end whose conversion the next chunk could still change are held
  // back. Conversion stops before them with Status::Ok and consumed <
  // utf8.size(); pass them again at the start of the next chunk, and the
  // last chunk to encode(). What is held back is at most the bytes from a
  // lead byte whose claim reaches past the end (a cut-off character, up to
  // 3 bytes) and the characters the combining rule keeps open (at most
  // two: the parse's pairs are followed from the chunk's start, so a run of
  // tone letters U+02E5 U+02E9 keeps only its end open). An error whose
  // bytes are all in `utf8` is reported at once (c3 f2 is invalid whatever
  // follows), as decode_partial reports it.
  Result encode_partial(std::string_view utf8, std::span<char> out,
                        ErrorMode mode = ErrorMode::Strict) const noexcept;

  // Bytes in encoding() -> code units (UnitForm), exactly the characters,
  // errors and replacements of decode() / decode_partial() (final == false):
  // the same Status, `consumed` and Error (offsets in input bytes), with
  // `written` counted in units. Status::Wider (never from decode()) stops
  // before a character whose code point is above out.limit.
  // max_decoded_units(n) units always suffice. No allocation (see above). (`out` by
  // reference: a 32-byte struct passed by value is copied with wide loads
  // right after the caller stored it field by field, a store-forwarding
  // stall on every call.)
  Result decode_units(std::string_view in, const UnitBuffer& out, ErrorMode mode = ErrorMode::Strict,
                      bool final = true) const noexcept;
  // Code units -> bytes in encoding(), exactly as encode() converts the
  // text's UTF-8 (a lone surrogate or a unit above U+10FFFF counts as the
  // invalid UTF-8 PostgreSQL would be sent for it: ED A0 80 for U+D800).
  // `consumed` and Error::offset and Error::skip count units; Error::bytes
  // quote the UTF-8, as PostgreSQL's message does. Replace mode writes one
  // '?' per unit that is no character. With final == false (one chunk of a
  // longer text) it holds back what encode_partial holds back.
  // max_encoded_size(units * 4) bytes always suffice.
  // (`in` by reference, as `out` of decode_units: by value, its 24 bytes
  // were copied with wide loads right after the caller stored them field
  // by field, a store-forwarding stall on every call.)
  Result encode_units(const UnitText& in, std::span<char> out, ErrorMode mode = ErrorMode::Strict,
                      bool final = true) const noexcept;
  // The UTF-16 and UTF-32 forms by type.
  Result decode_utf16(std::string_view in, std::span<char16_t> out,
                      ErrorMode mode = ErrorMode::Strict) const noexcept {
    return decode_units(in, {out.data(), out.size(), UnitForm::Utf16, 0x10FFFF}, mode);
  }
  Result decode_utf32(std::string_view in, std::span<char32_t> out,
                      ErrorMode mode = ErrorMode::Strict) const noexcept {
    return decode_units(in, {out.data(), out.size(), UnitForm::Utf32, 0x10FFFF}, mode);
  }
  Result encode_utf16(std::u16string_view in, std::span<char> out,
                      ErrorMode mode = ErrorMode::Strict) const noexcept {
    return encode_units({in.data(), in.size(), UnitForm::Utf16}, out, mode);
  }
  Result encode_utf32(std::u32string_view in, std::span<char> out,
                      ErrorMode mode = ErrorMode::Strict) const noexcept {
    return encode_units({in.data(), in.size(), UnitForm::Utf32}, out, mode);
  }
  // Units that always suffice for n input bytes, in any form and mode: every
  // byte gives at most one code point, and a code point above U+FFFF (one
  // UTF-16 pair) takes at least two bytes.
  static constexpr std::size_t max_decoded_units(std::size_t n) noexcept { return n; }

  // Output sizes that always suffice for n input bytes, in any mode;
  // std::nullopt when that size does not fit in std::size_t.
  std::optional<std::size_t> max_decoded_size(std::size_t n) const noexcept;
  std::optional<std::size_t> max_encoded_size(std::size_t n) const noexcept;
  // Bytes that always suffice for encode_units of `units` units of `form`,
  // in any mode: each unit is at most one character of the encoding (a
  // UTF-16 pair one for two; even U+00E9 is 4 bytes in GB18030) or one '?',
  // and in UTF8 and SQL_ASCII the UTF-8 its form allows (2 bytes a Latin-1
  // unit, 3 a 16-bit one, 4 a 32-bit one). Tighter than
  // max_encoded_size(units * 4): LATIN1 needs `units` bytes.
  std::optional<std::size_t> max_encoded_units_size(std::size_t units, UnitForm form) const noexcept;

  // PostgreSQL's mblen: the length of the character that starts at `at`, as
  // the lead byte says, capped at what is left of `s` (0 at the end). Use it
  // to step over characters in encodings whose trail bytes look like ASCII
  // (a SJIS trail byte can be 0x5C, a backslash).
  std::size_t char_length(std::string_view s, std::size_t at) const noexcept;

  // The third error mode, iterate-all-errors: visits every error in the
  // input in order, resuming one byte after an invalid byte sequence and
  // after the whole character when it has no equivalent (what `pgcodec
  // check` reports): exactly the spans Replace mode replaces. Where
  // EUC_JIS_2004 / SHIFT_JIS_2004's lookahead fails because of the next
  // character, the current one is checked on its own first
  // (docs/semantics.md). Returns how many errors there were and how much input
  // was examined: all of it, or with final == false (chunked input) up to a
  // character cut off by the end. No allocation (see above).
  struct CheckResult {
    std::size_t errors = 0;
    std::size_t consumed = 0;
  };
  using ErrorVisitor = void (*)(const Error& error, void* context);
  CheckResult check_decode(std::string_view in, ErrorVisitor visit, void* context,
                           bool final = true) const noexcept;
  CheckResult check_encode(std::string_view utf8, ErrorVisitor visit, void* context) const noexcept;
  template <class F>
  CheckResult for_each_decode_error(std::string_view in, F&& visit, bool final = true) const {
    return check_decode(in, &thunk<F>, &visit, final);
  }
  template <class F>
  CheckResult for_each_encode_error(std::string_view utf8, F&& visit) const {
    return check_encode(utf8, &thunk<F>, &visit);
  }

  // Allocating conveniences; Strict mode throws ConversionError.
  std::string decode(std::string_view in, ErrorMode mode = ErrorMode::Strict) const;
  std::string encode(std::string_view utf8, ErrorMode mode = ErrorMode::Strict) const;


 private:
  friend struct detail::CodecFactory;
  constexpr Codec(Encoding e, const detail::CodecRow* row) noexcept : encoding_(e), row_(row) {}

  template <class F>
  static void thunk(const Error& e, void* f) {
    (*static_cast<std::remove_reference_t<F>*>(f))(e);
  }
  CheckResult check(std::string_view in, ErrorVisitor visit, void* context, bool decoding,
                    bool final) const noexcept;

  Encoding encoding_;
  const detail::CodecRow* row_;  // its row of the codec table (src/codec_table.cpp)
};

// The codec of an encoding: resolve once, keep the reference.
PGCODEC_API const Codec& codec(Encoding e) noexcept;
// Name lookup as PostgreSQL resolves names; nullptr if unknown.
PGCODEC_API const Codec* find_codec(std::string_view name) noexcept;

// The by-name path: looks the codec up on every call. Same results as the
// cached path; it exists for comparison (and for one-off conversions).
// An unknown name is a std::invalid_argument.
PGCODEC_API Result decode(std::string_view encoding_name, std::string_view in,
                          std::span<char> out, ErrorMode mode = ErrorMode::Strict);
PGCODEC_API Result encode(std::string_view encoding_name, std::string_view utf8,
                          std::span<char> out, ErrorMode mode = ErrorMode::Strict);

}  // namespace pgcodec
