// Error's SQLSTATE and PostgreSQL's message wording, and make_error(), which
// every codec family builds its errors with.
#include "pgcodec/result.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "codecs/codec_ops.hpp"
#include "rules/grammar.hpp"

namespace pgcodec::detail {

Error make_error(ErrorKind kind, Encoding bytes_enc, Encoding target, std::string_view in,
                 std::size_t at, std::size_t skip) noexcept {
  Error e;
  e.kind = kind;
  e.encoding = bytes_enc;
  e.target = target;
  e.offset = at;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data()) + at;
  const std::size_t left = in.size() - at;
  const auto mb = static_cast<std::size_t>(std::max(1, char_length(bytes_enc, p, left)));
  e.length = static_cast<std::uint8_t>(std::min({mb, left, std::size_t{8}}));
  std::copy(p, p + e.length, e.bytes.begin());
  e.skip = static_cast<std::uint8_t>(std::max<std::size_t>(1, std::min(skip, left)));
  return e;
}

}  // namespace pgcodec::detail

namespace pgcodec {
namespace {

// snprintf-style appending: keeps the first cap - 1 bytes, counts them all.
class MessageWriter {
 public:
  MessageWriter(char* buf, std::size_t cap) noexcept : buf_(buf), cap_(buf ? cap : 0) {}
  void put(std::string_view s) noexcept {
    if (cap_ && len_ < cap_ - 1) {
      const std::size_t n = std::min(s.size(), cap_ - 1 - len_);
      std::memcpy(buf_ + len_, s.data(), n);
    }
    len_ += s.size();
  }
  void hex_list(const unsigned char* bytes, std::size_t n) noexcept {
    static constexpr char digits[] = "0123456789abcdef";
    for (std::size_t i = 0; i < n; ++i) {
      if (i) put(" ");
      const char h[4] = {'0', 'x', digits[bytes[i] >> 4], digits[bytes[i] & 15]};
      put({h, sizeof h});
    }
  }
  std::size_t finish() noexcept {
    if (cap_) buf_[std::min(len_, cap_ - 1)] = '\0';
    return len_;
  }

 private:
  char* buf_;
  std::size_t cap_;
  std::size_t len_ = 0;
};

}  // namespace

const char* Error::sqlstate() const noexcept {
  return kind == ErrorKind::InvalidByteSequence ? "22021" : "22P05";
}

std::size_t Error::format(char* buf, std::size_t cap) const noexcept {
  MessageWriter w(buf, cap);
  const std::size_t n = std::min<std::size_t>(length, bytes.size());
  if (kind == ErrorKind::InvalidByteSequence) {
    w.put("invalid byte sequence for encoding \"");
    w.put(info(encoding).name);
    w.put("\": ");
    w.hex_list(bytes.data(), n);
  } else {
    w.put("character with byte sequence ");
    w.hex_list(bytes.data(), n);
    w.put(" in encoding \"");
    w.put(info(encoding).name);
    w.put("\" has no equivalent in encoding \"");
    w.put(info(target).name);
    w.put("\"");
  }
  return w.finish();
}

std::string Error::message() const {
  std::string s(format(nullptr, 0), '\0');
  format(s.data(), s.size() + 1);  // writes the terminating NUL into s's own spare byte
  return s;
}

}  // namespace pgcodec
