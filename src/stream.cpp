// StreamDecoder and StreamEncoder: one implementation, detail::StreamCore,
// for both directions. The direction only picks the codec calls (the
// *_partial call for a chunk, the one-shot call for the end) and the output
// bound; holding back, the failed state and the offsets are the same code.
#include "pgcodec/stream.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

namespace pgcodec::detail {

// Copies and moves differ only in where the held-back bytes go.
void StreamCore::copy_state(const StreamCore& other) noexcept {
  codec_ = other.codec_;
  mode_ = other.mode_;
  decoding_ = other.decoding_;
  failed_ = other.failed_;
  carried_ = other.carried_;
  position_ = other.position_;
  error_ = other.error_;
}

StreamCore::StreamCore(const StreamCore& other) : StreamCore(*other.codec_, other.mode_, other.decoding_) {
  if (other.heap_) {
    heap_.reset(new char[other.capacity_]);
    capacity_ = other.capacity_;
  }
  std::copy_n(other.carry(), other.carried_, carry());
  copy_state(other);
}

StreamCore& StreamCore::operator=(const StreamCore& other) {
  if (this != &other) *this = StreamCore(other);
  return *this;
}

StreamCore::StreamCore(StreamCore&& other) noexcept
    : StreamCore(*other.codec_, other.mode_, other.decoding_) {
  *this = std::move(other);
}

StreamCore& StreamCore::operator=(StreamCore&& other) noexcept {
  if (this != &other) {
    copy_state(other);
    capacity_ = other.capacity_;
    inline_ = other.inline_;
    heap_ = std::move(other.heap_);
    other.carried_ = 0;  // the moved-from stream holds nothing back
    other.capacity_ = kInline;
  }
  return *this;
}

std::optional<std::size_t> StreamCore::output_bound(std::size_t n) const noexcept {
  if (n > SIZE_MAX - carried_) return std::nullopt;
  return decoding_ ? codec_->max_decoded_size(n + carried_) : codec_->max_encoded_size(n + carried_);
}

// Room for n held-back bytes. Only the encoder's runs of tone letters get
// past the inline buffer; growth doubles, so a long run held back across
// many small chunks costs O(log n) allocations.
bool StreamCore::reserve(std::size_t n) noexcept {
  if (n <= capacity_) return true;
  const std::size_t cap = std::max(n, capacity_ <= SIZE_MAX / 2 ? capacity_ * 2 : n);
  char* grown = new (std::nothrow) char[cap];
  if (!grown) return false;
  std::copy_n(carry(), carried_, grown);
  heap_.reset(grown);
  capacity_ = cap;
  return true;
}

// Keeps the last `keep` held-back bytes (those the last step did not
// convert), and goes back to the inline buffer once they fit in it.
void StreamCore::keep_last(std::size_t keep) noexcept {
  char* from = carry() + (carried_ - keep);
  if (heap_ && keep <= kInline) {
    std::copy_n(from, keep, inline_.data());
    heap_.reset();
    capacity_ = kInline;
  } else {
    std::memmove(carry(), from, keep);
  }
  carried_ = keep;
}

Result StreamCore::step(std::string_view in, std::span<char> out, bool final) noexcept {
  Result r;
  if (decoding_)
    r = final ? codec_->decode(in, out, mode_) : codec_->decode_partial(in, out, mode_);
  else
    r = final ? codec_->encode(in, out, mode_) : codec_->encode_partial(in, out, mode_);
  if (r.status == Status::Error) {
    r.error.offset += position_;
    failed_ = true;
    error_ = r.error;
  }
  position_ += r.consumed;
  return r;
}

Result StreamCore::failure() const noexcept {
  Result r;
  r.status = Status::Error;
  r.error = error_;
  return r;
}

Result StreamCore::feed(std::string_view chunk, std::span<char> out) noexcept {
  if (failed_) return failure();
  const std::size_t chunk_start = position_ + carried_;  // the chunk's offset in the stream
  Result total;
  auto stop = [&](const Result& r, std::size_t taken) {
    total.status = r.status;
    total.error = r.error;
    // After an error: the chunk's bytes converted before it. Output full (or
    // no memory to hold back more): the bytes taken; the rest is fed again.
    total.consumed = r.status == Status::Error ? (position_ > chunk_start ? position_ - chunk_start : 0)
                                               : taken;
    return total;
  };
  std::size_t at = 0;  // the chunk's bytes taken so far
  while (carried_) {
    // The held-back bytes and as much of the chunk as fits behind them, as
    // one window (a window is just one more way to cut the stream into
    // chunks). A full buffer that converted nothing grows.
    const std::size_t held = carried_;
    if (carried_ == capacity_ && at < chunk.size() && !reserve(capacity_ + 1)) {
      Result none;
      none.status = Status::OutputFull;
      return stop(none, at);
    }
    const std::size_t take = std::min(chunk.size() - at, capacity_ - carried_);
    std::copy_n(chunk.data() + at, take, carry() + carried_);  // chunk.data() may be null when empty
    at += take;
    carried_ += take;
    const Result r = step({carry(), carried_}, out.subspan(total.written), false);
    total.written += r.written;
    if (r.status == Status::Error) return stop(r, at);
    if (r.consumed >= held) {
      // Past what was held back: go on in the chunk itself.
      at -= carried_ - r.consumed;
      keep_last(0);
      if (r.status != Status::Ok) return stop(r, at);
      break;
    }
    keep_last(carried_ - r.consumed);
    if (r.status != Status::Ok) return stop(r, at);
    if (at == chunk.size()) {
      total.consumed = at;
      return total;
    }
  }
  if (at < chunk.size()) {
    const std::string_view rest = chunk.substr(at);
    const Result r = step(rest, out.subspan(total.written), false);
    total.written += r.written;
    if (r.status != Status::Ok) return stop(r, at + r.consumed);
    const std::size_t tail = rest.size() - r.consumed;
    if (!reserve(tail)) {
      Result none;
      none.status = Status::OutputFull;
      return stop(none, at + r.consumed);
    }
    std::copy_n(rest.data() + r.consumed, tail, carry());
    carried_ = tail;
  }
  total.consumed = chunk.size();
  return total;
}

Result StreamCore::finish(std::span<char> out) noexcept {
  if (failed_) return failure();
  Result r;
  if (carried_) {
    r = step({carry(), carried_}, out, true);
    keep_last(r.status == Status::OutputFull ? carried_ - r.consumed : 0);
  }
  r.consumed = 0;
  return r;
}

}  // namespace pgcodec::detail
