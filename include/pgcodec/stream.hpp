// Decoding input that arrives in chunks (COPY streams, sockets): a character
// split across chunks is carried over, and the result is exactly what decoding
// the concatenation in one go gives, for any chunking.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "pgcodec/codec.hpp"

namespace pgcodec {

class StreamDecoder {
 public:
  explicit StreamDecoder(const Codec& codec, ErrorMode mode = ErrorMode::Strict) noexcept
      : codec_(&codec), mode_(mode) {}

  // Decodes the whole characters of (carried bytes + chunk) into `out`, which
  // must hold output_bound(chunk.size()) bytes. Result::consumed counts the
  // chunk's bytes taken (converted or carried); error offsets count from the
  // start of the stream. After an error the decoder stays failed and every
  // later call returns that same error.
  Result feed(std::string_view chunk, std::span<char> out) noexcept;
  // Ends the stream: carried bytes left over are a truncated character, an
  // invalid byte sequence (or U+FFFD in Replace mode).
  Result finish(std::span<char> out) noexcept;

  // Output space feed() may need for a chunk of n bytes; nullopt on overflow.
  std::optional<std::size_t> output_bound(std::size_t n) const noexcept {
    if (n > SIZE_MAX - carried_) return std::nullopt;
    return codec_->max_decoded_size(n + carried_);
  }
  std::size_t carried() const noexcept { return carried_; }
  // Bytes of the stream converted so far (carried bytes excluded).
  std::size_t position() const noexcept { return position_; }

 private:
  Result decode_at(std::string_view in, std::span<char> out, bool final) noexcept;

  const Codec* codec_;
  ErrorMode mode_;
  std::array<char, 8> carry_{};
  std::size_t carried_ = 0;
  std::size_t position_ = 0;
  bool failed_ = false;
  Error error_{};  // the error that stopped the stream, returned again
};

}  // namespace pgcodec
