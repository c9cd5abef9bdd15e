#include "pgcodec/stream.hpp"

#include <algorithm>
#include <cstring>

namespace pgcodec {

Result StreamDecoder::decode_at(std::string_view in, std::span<char> out, bool final) noexcept {
  Result r = final ? codec_->decode(in, out, mode_) : codec_->decode_partial(in, out, mode_);
  if (r.status == Status::Error) {
    r.error.offset += position_;
    failed_ = true;
    error_ = r.error;
  }
  position_ += r.consumed;
  return r;
}

Result StreamDecoder::feed(std::string_view chunk, std::span<char> out) noexcept {
  Result total;
  if (failed_) {
    total.status = Status::Error;
    total.error = error_;
    return total;
  }
  std::size_t skip = 0;  // chunk bytes already handled through the carry
  if (carried_) {
    // Complete the carried character from the chunk's first bytes. A small
    // window is enough: the character is at most 4 bytes long.
    std::array<char, 16> window{};
    std::memcpy(window.data(), carry_.data(), carried_);
    const std::size_t extra = std::min(chunk.size(), window.size() - carried_);
    std::copy_n(chunk.data(), extra, window.data() + carried_);  // chunk.data() may be null when empty
    const std::size_t have = carried_ + extra;
    Result r = decode_at({window.data(), have}, out, false);
    total.written = r.written;
    if (r.status != Status::Ok) {
      total.status = r.status;
      total.error = r.error;
      total.consumed = r.consumed > carried_ ? r.consumed - carried_ : 0;
      return total;
    }
    if (r.consumed < carried_) {
      // Still incomplete: everything so far stays carried.
      const std::size_t keep = have - r.consumed;
      std::memmove(carry_.data(), window.data() + r.consumed, keep);
      carried_ = keep;
      total.consumed = chunk.size();
      return total;
    }
    // Resume in the chunk right after the last whole character converted.
    skip = r.consumed - carried_;
    carried_ = 0;
  }
  Result r = decode_at(chunk.substr(skip), out.subspan(total.written), false);
  total.written += r.written;
  total.status = r.status;
  total.error = r.error;
  total.consumed = skip + r.consumed;
  if (r.status == Status::Ok) {
    const std::size_t rest = chunk.size() - total.consumed;
    // rest < the maximum character length; chunk.data() may be null (an
    // empty chunk), which memcpy must not be given even for 0 bytes.
    std::copy_n(chunk.data() + total.consumed, rest, carry_.data());
    carried_ = rest;
    total.consumed = chunk.size();
  }
  return total;
}

Result StreamDecoder::finish(std::span<char> out) noexcept {
  Result r;
  if (failed_) {
    r.status = Status::Error;
    r.error = error_;
    return r;
  }
  if (carried_) {
    const std::size_t n = carried_;
    carried_ = 0;
    r = decode_at({carry_.data(), n}, out, true);
  }
  r.consumed = 0;
  return r;
}

}  // namespace pgcodec
