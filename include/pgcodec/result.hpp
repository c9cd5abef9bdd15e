// What a conversion returns: Result {consumed, written, status, error}, the
// Error with everything PostgreSQL's message names, and the ConversionError
// the allocating conveniences throw. Included by codec.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "pgcodec/encoding.hpp"
#include "pgcodec/export.h"

namespace pgcodec {

enum class ErrorKind : std::uint8_t {
  InvalidByteSequence,  // SQLSTATE 22021: not a well-formed character
  NoEquivalent,         // SQLSTATE 22P05: well formed, but no mapping
};

enum class ErrorMode : std::uint8_t {
  Strict,   // stop at the first error, as PostgreSQL does
  Replace,  // decode: U+FFFD, encode: '?', for each error; never fails
};

// One conversion error, with everything PostgreSQL's message names.
struct PGCODEC_API Error {
  ErrorKind kind = ErrorKind::InvalidByteSequence;
  Encoding encoding = Encoding::UTF8;  // the encoding the offending bytes are in
  Encoding target = Encoding::UTF8;    // the encoding being converted to
  std::size_t offset = 0;              // byte offset of the offending character
  std::uint8_t length = 0;             // bytes quoted, 1..8, as PostgreSQL quotes them
  std::uint8_t skip = 1;  // bytes to skip to resume: 1 after an invalid sequence,
                          // the whole character after one with no equivalent
  std::array<unsigned char, 8> bytes{};

  const char* sqlstate() const noexcept;
  // PostgreSQL's wording, e.g.
  //   invalid byte sequence for encoding "UTF8": 0xc3 0x28
  //   character with byte sequence 0xe2 0x82 0xac in encoding "UTF8" has no
  //   equivalent in encoding "LATIN1"
  std::string message() const;
  // The same message written into buf as snprintf writes: at most cap - 1
  // bytes and a NUL; returns the full length. Never allocates.
  std::size_t format(char* buf, std::size_t cap) const noexcept;
};

enum class Status : std::uint8_t {
  Ok,          // all input converted (decode_partial: all but a character cut
               // off by the end, left for the next chunk)
  Error,       // stopped at `error` (Strict mode)
  OutputFull,  // the output buffer is full; `consumed` input was converted
  Wider = 5,   // decoding to code units (Codec::decode_units): the next
               // character has a code point above the buffer's limit; the
               // text so far is converted, the rest needs wider units
};

struct Result {
  std::size_t consumed = 0;  // input bytes converted (up to the error, if any);
                             // code units for Codec::encode_units
  std::size_t written = 0;   // output bytes written; code units for
                             // Codec::decode_units
  Status status = Status::Ok;
  Error error{};  // meaningful when status == Status::Error
  bool ok() const noexcept { return status == Status::Ok; }
};

// Thrown only by Codec's allocating conveniences, never by the buffer API.
class PGCODEC_API ConversionError : public std::runtime_error {
 public:
  explicit ConversionError(const Error& e) : std::runtime_error(e.message()), error_(e) {}
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

}  // namespace pgcodec
