// The codec API: bytes in a PostgreSQL encoding <-> UTF-8, exactly as
// PostgreSQL converts them.
//
// A connection resolves its client_encoding once, keeps the `const Codec&`,
// and every call after that does no lookup and, given an output buffer, no
// allocation:
//
//   const pgcodec::Codec& c = pgcodec::codec(*pgcodec::lookup("WIN1252"));
//   std::vector<char> out(*c.max_decoded_size(in.size()));
//   pgcodec::Result r = c.decode(in, out);
//   if (!r.ok()) std::cerr << r.error.message() << "\n";
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "pgcodec/encoding.hpp"
#include "pgcodec/export.h"
#include "pgcodec/result.hpp"

namespace pgcodec {

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
  // 3 bytes) and the characters the combining rule keeps open (two, except
  // in a run of alternating tone letters U+02E5 U+02E9). An error whose
  // bytes are all in `utf8` is reported at once (c3 f2 is invalid whatever
  // follows), as decode_partial reports it.
  Result encode_partial(std::string_view utf8, std::span<char> out,
                        ErrorMode mode = ErrorMode::Strict) const noexcept;

  // Output sizes that always suffice for n input bytes, in any mode;
  // std::nullopt when that size does not fit in std::size_t.
  std::optional<std::size_t> max_decoded_size(std::size_t n) const noexcept;
  std::optional<std::size_t> max_encoded_size(std::size_t n) const noexcept;

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
  // character cut off by the end. No allocation.
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
