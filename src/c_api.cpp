// The C API (include/pgcodec/pgcodec.h) over the C++ one. A pgcodec_codec*
// is a `const pgcodec::Codec*`; a pgcodec_stream owns the core that
// StreamDecoder and StreamEncoder share, set to one direction when created.
//
// No exception can leave these functions: every C++ function they call is
// noexcept (checked below at compile time), the stream is allocated with
// nothrow new, and error messages are formatted into the caller's buffer
// without allocating. Each function is noexcept besides, so a bug would
// terminate rather than unwind through C frames.
#include "pgcodec/pgcodec.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "pgcodec/codec.hpp"
#include "pgcodec/encoding.hpp"
#include "pgcodec/stream.hpp"

struct pgcodec_stream {
  pgcodec::detail::StreamCore core;
};

namespace {

using pgcodec::Codec;
using pgcodec::ErrorKind;
using pgcodec::ErrorMode;
using pgcodec::Status;

// The C constants are the C++ enumerators' values.
static_assert(PGCODEC_OK == static_cast<int>(Status::Ok));
static_assert(PGCODEC_ERROR == static_cast<int>(Status::Error));
static_assert(PGCODEC_OUTPUT_FULL == static_cast<int>(Status::OutputFull));
static_assert(PGCODEC_WIDER == static_cast<int>(Status::Wider));
static_assert(PGCODEC_LATIN1 == static_cast<int>(pgcodec::UnitForm::Latin1));
static_assert(PGCODEC_UCS2 == static_cast<int>(pgcodec::UnitForm::Ucs2));
static_assert(PGCODEC_UTF16 == static_cast<int>(pgcodec::UnitForm::Utf16));
static_assert(PGCODEC_UTF32 == static_cast<int>(pgcodec::UnitForm::Utf32));
static_assert(PGCODEC_INVALID_BYTE_SEQUENCE == static_cast<int>(ErrorKind::InvalidByteSequence));
static_assert(PGCODEC_NO_EQUIVALENT == static_cast<int>(ErrorKind::NoEquivalent));
static_assert(PGCODEC_STRICT == static_cast<int>(ErrorMode::Strict));
static_assert(PGCODEC_REPLACE == static_cast<int>(ErrorMode::Replace));
static_assert(sizeof(pgcodec_result{}.error_bytes) == std::tuple_size_v<decltype(pgcodec::Error{}.bytes)>);

// What makes "nothing throws" true.
static_assert(noexcept(std::declval<const Codec&>().decode(std::string_view{}, std::span<char>{},
                                                           ErrorMode::Strict)));
static_assert(noexcept(std::declval<const Codec&>().decode_partial(
    std::string_view{}, std::span<char>{}, ErrorMode::Strict)));
static_assert(noexcept(std::declval<const Codec&>().encode(std::string_view{}, std::span<char>{},
                                                           ErrorMode::Strict)));
static_assert(noexcept(std::declval<const Codec&>().max_decoded_size(0)));
static_assert(noexcept(std::declval<const Codec&>().char_length(std::string_view{}, 0)));
static_assert(noexcept(pgcodec::find_codec(std::string_view{})));
static_assert(noexcept(pgcodec::codec(pgcodec::Encoding::UTF8)));
using pgcodec::detail::StreamCore;
static_assert(noexcept(StreamCore(std::declval<const Codec&>(), ErrorMode::Strict, true)));
static_assert(std::is_nothrow_move_constructible_v<StreamCore>);
static_assert(noexcept(std::declval<StreamCore&>().feed(std::string_view{}, std::span<char>{})));
static_assert(noexcept(std::declval<StreamCore&>().finish(std::span<char>{})));
static_assert(noexcept(std::declval<const StreamCore&>().output_bound(0)));

const Codec* to_cpp(const pgcodec_codec* c) noexcept { return reinterpret_cast<const Codec*>(c); }
const pgcodec_codec* to_c(const Codec* c) noexcept {
  return reinterpret_cast<const pgcodec_codec*>(c);
}

std::optional<ErrorMode> to_mode(int mode) noexcept {
  switch (mode) {
    case PGCODEC_STRICT:
      return ErrorMode::Strict;
    case PGCODEC_REPLACE:
      return ErrorMode::Replace;
    default:
      return std::nullopt;
  }
}

// A buffer is usable if it is non-NULL or empty.
bool usable(const char* p, std::size_t n) noexcept { return p != nullptr || n == 0; }

pgcodec_result invalid_argument() noexcept {
  pgcodec_result r{};
  r.status = PGCODEC_INVALID_ARGUMENT;
  return r;
}

pgcodec_result to_c(const pgcodec::Result& r) noexcept {
  pgcodec_result c{};
  c.consumed = r.consumed;
  c.written = r.written;
  c.status = static_cast<int>(r.status);
  if (r.status == Status::Error) {
    const pgcodec::Error& e = r.error;
    c.error_kind = static_cast<int>(e.kind);
    c.error_offset = e.offset;
    std::memcpy(c.error_bytes, e.bytes.data(), e.bytes.size());
    c.error_length = e.length;
    c.error_skip = e.skip;
    c.error_encoding = pgcodec::to_int(e.encoding);
    c.error_target = pgcodec::to_int(e.target);
  }
  return c;
}

int size_out(std::optional<std::size_t> n, std::size_t* out) noexcept {
  if (!n || !out) return -1;
  *out = *n;
  return 0;
}

using Convert = pgcodec::Result (Codec::*)(std::string_view, std::span<char>, ErrorMode) const
    noexcept;

pgcodec_result convert(Convert fn, const pgcodec_codec* codec, const char* in, std::size_t in_len,
                       char* out, std::size_t out_cap, int mode) noexcept {
  const auto m = to_mode(mode);
  if (!codec || !m || !usable(in, in_len) || !usable(out, out_cap)) return invalid_argument();
  return to_c((to_cpp(codec)->*fn)(std::string_view(in, in_len), std::span<char>(out, out_cap),
                                   *m));
}

std::optional<std::string_view> encoding_name(int id) noexcept {
  if (id < 0 || id >= pgcodec::encoding_count) return std::nullopt;
  return pgcodec::info(static_cast<pgcodec::Encoding>(id)).name;
}

bool holds_error(const pgcodec_result* r) noexcept {
  return r && r->status == PGCODEC_ERROR &&
         (r->error_kind == PGCODEC_INVALID_BYTE_SEQUENCE || r->error_kind == PGCODEC_NO_EQUIVALENT);
}

// Both directions of pgcodec_stream are one StreamCore.
pgcodec_stream* new_stream(const pgcodec_codec* codec, int mode, bool decoding) noexcept {
  const auto m = to_mode(mode);
  if (!codec || !m) return nullptr;
  return new (std::nothrow) pgcodec_stream{StreamCore(*to_cpp(codec), *m, decoding)};
}

}  // namespace

namespace {

// Outside extern "C": these return C++ types.
std::optional<pgcodec::UnitForm> to_form(int form) noexcept {
  if (form < PGCODEC_LATIN1 || form > PGCODEC_UTF32) return std::nullopt;
  return static_cast<pgcodec::UnitForm>(form);
}
// A unit buffer is usable if it is empty, or non-NULL and aligned for its units.
bool usable_units(const void* p, std::size_t n, pgcodec::UnitForm f) noexcept {
  if (n == 0) return true;
  const std::size_t align = f == pgcodec::UnitForm::Latin1 ? 1 : f == pgcodec::UnitForm::Utf32 ? 4 : 2;
  return p != nullptr && reinterpret_cast<std::uintptr_t>(p) % align == 0;
}
}  // namespace

extern "C" {

const pgcodec_codec* pgcodec_find(const char* name) noexcept {
  if (!name) return nullptr;
  // PostgreSQL's rule makes names of 64 bytes or more unknown: look no further.
  std::size_t n = 0;
  while (n < 64 && name[n]) ++n;
  return to_c(pgcodec::find_codec(std::string_view(name, n)));
}

const pgcodec_codec* pgcodec_by_id(int pg_encoding_id) noexcept {
  if (pg_encoding_id < 0 || pg_encoding_id >= pgcodec::encoding_count) return nullptr;
  return to_c(&pgcodec::codec(static_cast<pgcodec::Encoding>(pg_encoding_id)));
}

int pgcodec_id(const pgcodec_codec* codec) noexcept {
  return codec ? pgcodec::to_int(to_cpp(codec)->encoding()) : -1;
}

const char* pgcodec_name(const pgcodec_codec* codec) noexcept {
  // The registry's names are string literals, so NUL-terminated.
  return codec ? to_cpp(codec)->name().data() : nullptr;
}

const char* pgcodec_version() noexcept { return PGCODEC_VERSION_STRING; }

pgcodec_result pgcodec_decode(const pgcodec_codec* codec, const char* in, size_t in_len, char* out,
                              size_t out_cap, int mode) noexcept {
  return convert(&Codec::decode, codec, in, in_len, out, out_cap, mode);
}

pgcodec_result pgcodec_decode_partial(const pgcodec_codec* codec, const char* in, size_t in_len,
                                      char* out, size_t out_cap, int mode) noexcept {
  return convert(&Codec::decode_partial, codec, in, in_len, out, out_cap, mode);
}

pgcodec_result pgcodec_encode(const pgcodec_codec* codec, const char* utf8, size_t in_len,
                              char* out, size_t out_cap, int mode) noexcept {
  return convert(&Codec::encode, codec, utf8, in_len, out, out_cap, mode);
}

pgcodec_result pgcodec_decode_units(const pgcodec_codec* codec, const char* in, size_t in_len,
                                    void* out, size_t out_units, int form, unsigned long limit,
                                    int mode, int final) noexcept {
  const auto m = to_mode(mode);
  const auto f = to_form(form);
  if (!codec || !m || !f || !usable(in, in_len) || !usable_units(out, out_units, *f))
    return invalid_argument();
  const auto lim = static_cast<char32_t>(std::min<unsigned long>(limit, 0x10FFFF));
  return to_c(to_cpp(codec)->decode_units(std::string_view(in, in_len), {out, out_units, *f, lim},
                                          *m, final != 0));
}

pgcodec_result pgcodec_encode_units(const pgcodec_codec* codec, const void* in, size_t in_units,
                                    int form, char* out, size_t out_cap, int mode,
                                    int final) noexcept {
  const auto m = to_mode(mode);
  const auto f = to_form(form);
  if (!codec || !m || !f || !usable_units(in, in_units, *f) || !usable(out, out_cap))
    return invalid_argument();
  return to_c(to_cpp(codec)->encode_units({in, in_units, *f}, std::span<char>(out, out_cap), *m,
                                          final != 0));
}

int pgcodec_max_decoded_size(const pgcodec_codec* codec, size_t n, size_t* out) noexcept {
  return codec ? size_out(to_cpp(codec)->max_decoded_size(n), out) : -1;
}

int pgcodec_max_encoded_size(const pgcodec_codec* codec, size_t n, size_t* out) noexcept {
  return codec ? size_out(to_cpp(codec)->max_encoded_size(n), out) : -1;
}

int pgcodec_max_encoded_units_size(const pgcodec_codec* codec, size_t units, int form, size_t* out) noexcept {
  const auto f = to_form(form);
  return codec && f ? size_out(to_cpp(codec)->max_encoded_units_size(units, *f), out) : -1;
}

size_t pgcodec_char_length(const pgcodec_codec* codec, const char* s, size_t len,
                           size_t at) noexcept {
  if (!codec || !usable(s, len)) return 0;
  return to_cpp(codec)->char_length(std::string_view(s, len), at);
}

size_t pgcodec_error_message(const pgcodec_result* result, char* buf, size_t cap) noexcept {
  if (!holds_error(result) || !encoding_name(result->error_encoding) ||
      !encoding_name(result->error_target) ||
      (result->error_kind != PGCODEC_INVALID_BYTE_SEQUENCE &&
       result->error_kind != PGCODEC_NO_EQUIVALENT)) {
    if (buf && cap) buf[0] = '\0';
    return 0;
  }
  pgcodec::Error e;
  e.kind = result->error_kind == PGCODEC_INVALID_BYTE_SEQUENCE
               ? pgcodec::ErrorKind::InvalidByteSequence
               : pgcodec::ErrorKind::NoEquivalent;
  e.encoding = static_cast<pgcodec::Encoding>(result->error_encoding);
  e.target = static_cast<pgcodec::Encoding>(result->error_target);
  e.length = static_cast<std::uint8_t>(std::clamp(result->error_length, 0, 8));
  std::copy(result->error_bytes, result->error_bytes + e.length, e.bytes.begin());
  return e.format(buf, cap);
}

const char* pgcodec_error_sqlstate(const pgcodec_result* result) noexcept {
  if (!holds_error(result)) return nullptr;
  return result->error_kind == PGCODEC_INVALID_BYTE_SEQUENCE ? "22021" : "22P05";
}

pgcodec_stream* pgcodec_stream_new(const pgcodec_codec* codec, int mode) noexcept {
  return new_stream(codec, mode, true);
}

pgcodec_stream* pgcodec_stream_encoder_new(const pgcodec_codec* codec, int mode) noexcept {
  return new_stream(codec, mode, false);
}

void pgcodec_stream_free(pgcodec_stream* stream) noexcept { delete stream; }

pgcodec_result pgcodec_stream_feed(pgcodec_stream* stream, const char* chunk, size_t len,
                                   char* out, size_t out_cap) noexcept {
  if (!stream || !usable(chunk, len) || !usable(out, out_cap)) return invalid_argument();
  return to_c(stream->core.feed(std::string_view(chunk, len), std::span<char>(out, out_cap)));
}

pgcodec_result pgcodec_stream_finish(pgcodec_stream* stream, char* out, size_t out_cap) noexcept {
  if (!stream || !usable(out, out_cap)) return invalid_argument();
  return to_c(stream->core.finish(std::span<char>(out, out_cap)));
}

int pgcodec_stream_output_bound(const pgcodec_stream* stream, size_t n, size_t* out) noexcept {
  if (!stream) return -1;
  return size_out(stream->core.output_bound(n), out);
}

}  // extern "C"
