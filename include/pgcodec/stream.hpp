// Converting text that arrives in chunks (COPY streams, sockets), both ways:
// StreamDecoder (bytes in an encoding -> UTF-8) and StreamEncoder (UTF-8 ->
// bytes). What the end of a chunk leaves undecided is held back and
// converted with the next chunk, so the output, status and error are exactly
// what converting the concatenation in one go gives, for any chunking.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "pgcodec/codec.hpp"
#include "pgcodec/export.h"

namespace pgcodec {

namespace detail {

// What both streams are made of (src/stream.cpp): the held-back bytes, the
// stream offsets, the failed state, and the loop that converts (held back +
// chunk) with Codec::decode_partial or Codec::encode_partial and the end
// with decode() or encode().
//
// The bytes held back live in an inline buffer of kInline bytes. The
// decoder never holds back more than 3 (a cut-off character); the encoder
// holds back a cut-off character and what a combined pair could still take
// (two characters). Should a window of held-back bytes and chunk ever
// convert nothing, the buffer moves to the heap, grown by doubling with
// nothrow new; if that allocation fails, feed() stops short (see feed).
class PGCODEC_API StreamCore {
 public:
  static constexpr std::size_t kInline = 32;

  StreamCore(const Codec& codec, ErrorMode mode, bool decoding) noexcept
      : codec_(&codec), mode_(mode), decoding_(decoding) {}
  // Copying a stream whose held-back bytes are on the heap allocates (and
  // may throw std::bad_alloc); moving never does.
  StreamCore(const StreamCore& other);
  StreamCore& operator=(const StreamCore& other);
  StreamCore(StreamCore&& other) noexcept;
  StreamCore& operator=(StreamCore&& other) noexcept;
  ~StreamCore() = default;

  Result feed(std::string_view chunk, std::span<char> out) noexcept;
  Result finish(std::span<char> out) noexcept;
  std::optional<std::size_t> output_bound(std::size_t n) const noexcept;
  std::size_t carried() const noexcept { return carried_; }
  std::size_t position() const noexcept { return position_; }

 private:
  char* carry() noexcept { return heap_ ? heap_.get() : inline_.data(); }
  const char* carry() const noexcept { return heap_ ? heap_.get() : inline_.data(); }
  void copy_state(const StreamCore& other) noexcept;
  bool reserve(std::size_t n) noexcept;
  void keep_last(std::size_t keep) noexcept;
  Result step(std::string_view in, std::span<char> out, bool final) noexcept;
  Result failure() const noexcept;

  const Codec* codec_;
  ErrorMode mode_;
  bool decoding_;
  bool failed_ = false;
  std::size_t carried_ = 0;
  std::size_t position_ = 0;
  std::size_t capacity_ = kInline;
  std::array<char, kInline> inline_{};
  std::unique_ptr<char[]> heap_;  // the held-back bytes once they outgrow inline_
  Error error_{};                 // the error that stopped the stream, returned again
};

}  // namespace detail

class StreamDecoder {
 public:
  explicit StreamDecoder(const Codec& codec, ErrorMode mode = ErrorMode::Strict) noexcept
      : core_(codec, mode, true) {}

  // Decodes the whole characters of (carried bytes + chunk) into `out`, which
  // must hold output_bound(chunk.size()) bytes. Result::consumed counts the
  // chunk's bytes taken (converted or carried); error offsets count from the
  // start of the stream. After an error the decoder stays failed and every
  // later call returns that same error. Never allocates.
  Result feed(std::string_view chunk, std::span<char> out) noexcept { return core_.feed(chunk, out); }
  // Ends the stream: carried bytes left over are a truncated character, an
  // invalid byte sequence (or U+FFFD in Replace mode).
  Result finish(std::span<char> out) noexcept { return core_.finish(out); }

  // Output space feed() may need for a chunk of n bytes; nullopt on overflow.
  std::optional<std::size_t> output_bound(std::size_t n) const noexcept { return core_.output_bound(n); }
  std::size_t carried() const noexcept { return core_.carried(); }  // at most 3
  // Bytes of the stream converted so far (carried bytes excluded).
  std::size_t position() const noexcept { return core_.position(); }

 private:
  detail::StreamCore core_;
};

// UTF-8 text in chunks -> bytes in codec's encoding, e.g. the data of a
// COPY ... FROM STDIN sent as it is produced:
//
//   pgcodec::StreamEncoder s(pgcodec::codec(pgcodec::Encoding::SJIS));
//   std::vector<char> out(*s.output_bound(chunk.size()));
//   pgcodec::Result r = s.feed(chunk, out);   // send out[0, r.written)
//   ...
//   r = s.finish(last);                       // last: output_bound(0) bytes
class StreamEncoder {
 public:
  explicit StreamEncoder(const Codec& codec, ErrorMode mode = ErrorMode::Strict) noexcept
      : core_(codec, mode, false) {}

  // Encodes the whole characters of (held-back text + chunk) whose encoding
  // the rest of the stream cannot change into `out`, which must hold
  // output_bound(chunk.size()) bytes. Result::consumed counts the chunk's
  // bytes taken (converted or held back); error offsets count from the start
  // of the stream. After an error the encoder stays failed and every later
  // call returns that same error.
  //
  // Allocation: none while what is held back fits in 32 bytes, as
  // encode_partial's rule keeps it (a cut-off character and at most two
  // characters a pair could still take). Should it ever outgrow them and
  // the allocation fail, feed returns Status::OutputFull with `consumed` < chunk.size():
  // nothing is lost, the encoder stays usable, and the rest of the chunk
  // can be fed again. (Status::OutputFull means the same when `out` is
  // smaller than output_bound, in both streams: `consumed` bytes were taken,
  // converted or held back, and the rest, possibly empty, is fed again with
  // room.)
  Result feed(std::string_view utf8_chunk, std::span<char> out) noexcept {
    return core_.feed(utf8_chunk, out);
  }
  // The end: what is held back is encoded as the last piece of the text (a
  // cut-off character is then invalid UTF-8, or '?' in Replace mode). `out`
  // must hold output_bound(0) bytes.
  Result finish(std::span<char> out) noexcept { return core_.finish(out); }

  // Output space feed() may need for a chunk of n bytes (held-back text
  // included); nullopt on overflow.
  std::optional<std::size_t> output_bound(std::size_t n) const noexcept { return core_.output_bound(n); }
  std::size_t carried() const noexcept { return core_.carried(); }   // bytes held back
  std::size_t position() const noexcept { return core_.position(); }  // bytes of the stream converted so far

 private:
  detail::StreamCore core_;
};

}  // namespace pgcodec
