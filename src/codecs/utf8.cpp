// UTF8 and SQL_ASCII. In a UTF8 database PostgreSQL validates what a
// SQL_ASCII client sends as UTF8 (pg_any_to_server: "no conversion is needed,
// but we must still validate the data") and sends it text unconverted, so
// both codecs are validating copies, and errors name "UTF8".
#include <cstring>

#include "detail/codec_ops.hpp"
#include "detail/verify.hpp"

namespace pgcodec::detail {
namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

Result validate_copy(Encoding target, std::string_view in, std::span<char> out, ErrorMode mode,
                     bool final, bool decoding) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = 0, w = 0;
  Result r;
  auto full = [&] {
    r.status = Status::OutputFull;
    r.consumed = i;
    r.written = w;
    return r;
  };
  while (i < n) {
    const std::size_t run = ascii_run(p + i, n - i);
    if (run) {
      if (out.size() - w < run) {
        std::memcpy(out.data() + w, p + i, out.size() - w);
        i += out.size() - w;
        w = out.size();
        return full();
      }
      std::memcpy(out.data() + w, p + i, run);
      i += run;
      w += run;
      if (i == n) break;
    }
    const int l = verify_char(Encoding::UTF8, p + i, n - i);
    if (l > 0) {
      const auto len = static_cast<std::size_t>(l);
      if (out.size() - w < len) return full();
      std::memcpy(out.data() + w, p + i, len);
      i += len;
      w += len;
      continue;
    }
    if (!final && n - i < static_cast<std::size_t>(char_length(Encoding::UTF8, p + i, n - i)))
      break;  // cut off by the end of a chunk: the caller carries it over
    if (mode == ErrorMode::Strict) {
      r.status = Status::Error;
      r.error = make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8,
                           decoding ? Encoding::UTF8 : target, in, i, 1);
      r.consumed = i;
      r.written = w;
      return r;
    }
    const std::size_t rlen = decoding ? 3 : 1;
    if (out.size() - w < rlen) return full();
    std::memcpy(out.data() + w, decoding ? kReplacement : "?", rlen);
    w += rlen;
    i += 1;
  }
  r.consumed = i;
  r.written = w;
  return r;
}

Result decode(const void*, Encoding enc, std::string_view in, std::span<char> out, ErrorMode mode,
              bool final) noexcept {
  return validate_copy(enc, in, out, mode, final, true);
}

Result encode(const void*, Encoding enc, std::string_view in, std::span<char> out, ErrorMode mode,
              bool final) noexcept {
  return validate_copy(enc, in, out, mode, final, false);
}

}  // namespace

// Decoding can turn each invalid byte into the three bytes of U+FFFD.
const CodecOps utf8_ops = {&decode, &encode, 3, 1, true};

}  // namespace pgcodec::detail
