// The 27 single-byte encodings (LATIN1..10, ISO_8859_5..8, WIN866, WIN874,
// WIN1250..1258, KOI8R, KOI8U): table-driven both ways, ASCII runs copied
// wholesale. The tables are constant data (tables/dense.hpp, generated).
#include <cstring>

#include "codec_table.hpp"
#include "codecs/codec_ops.hpp"
#include "rules/grammar.hpp"
#include "rules/utf8.hpp"
#include "tables/dense.hpp"

namespace pgcodec::detail {

namespace {

Result decode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              bool, const kernels::Kernel& k) noexcept {
  const SingleByteDense& s = *row.tables.single_byte;
  const Encoding enc = row.encoding;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  char* o = out.data();
  const std::size_t cap = out.size();
  std::size_t i = 0, w = 0;
  Result r;
  while (i < n) {
    if (p[i] - 1u < 0x7Fu) {  // an ASCII run: copy it wholesale
      const std::size_t run = k.ascii_run(p + i, n - i);
      const std::size_t take = run < cap - w ? run : cap - w;
      copy_bytes(o + w, p + i, take);
      i += take;
      w += take;
      if (take < run) break;  // output full
      continue;
    }
    const unsigned char b = p[i];
    if (b == 0 || !s.decode[b - 0x80][3]) {
      const bool nul = b == 0;
      if (mode == ErrorMode::Strict) {
        r.status = Status::Error;
        r.error = make_error(nul ? ErrorKind::InvalidByteSequence : ErrorKind::NoEquivalent, enc,
                             Encoding::UTF8, in, i, 1);
        break;
      }
      if (cap - w < kUtf8Replacement.size()) break;
      std::memcpy(o + w, kUtf8Replacement.data(), kUtf8Replacement.size());
      w += kUtf8Replacement.size();
      ++i;
      continue;
    }
    const char* d = s.decode[b - 0x80];
    const auto len = static_cast<std::size_t>(d[3]);
    if (cap - w < len) break;
    // Only the character's own bytes are stored (2 or 3: every mapped high
    // byte is at least U+0080).
    if (len >= 2) {
      std::memcpy(o + w, d, 2);
      if (len == 3) o[w + 2] = d[2];
    } else {
      o[w] = d[0];
    }
    w += len;
    ++i;
  }
  if (i < n && r.status != Status::Error) r.status = Status::OutputFull;
  r.consumed = i;
  r.written = w;
  return r;
}

Result encode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              const kernels::Kernel& k) noexcept {
  const SingleByteDense& s = *row.tables.single_byte;
  const Encoding enc = row.encoding;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = 0, w = 0;
  Result r;
  while (i < n) {
    const std::size_t run = k.ascii_run(p + i, n - i);
    if (run) {
      const std::size_t take = run < out.size() - w ? run : out.size() - w;
      copy_bytes(out.data() + w, p + i, take);
      i += take;
      w += take;
      if (take < run) break;
      if (i == n) break;
    }
    if (w == out.size()) break;
    // p[i] is a NUL or a multibyte lead; a NUL gives l == 0 here.
    const int l = p[i] ? static_cast<int>(utf8_multibyte_length(p + i, n - i)) : 0;
    unsigned char byte = 0;
    if (l > 0) {
      const std::uint32_t cp = utf8_decode_multibyte(p + i, static_cast<std::size_t>(l));
      byte = single_byte_encode(s, cp);
    }
    if (byte) {
      out[w++] = static_cast<char>(byte);
      i += static_cast<std::size_t>(l);
      continue;
    }
    if (mode == ErrorMode::Strict) {
      r.status = Status::Error;
      r.error = l > 0 ? make_error(ErrorKind::NoEquivalent, Encoding::UTF8, enc, in, i,
                                   static_cast<std::size_t>(l))
                      : make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8, enc, in, i, 1);
      break;
    }
    out[w++] = '?';
    i += l > 0 ? static_cast<std::size_t>(l) : 1;
  }
  if (i < n && r.status != Status::Error) {
    r.status = Status::OutputFull;  // stopped early: the output is full
  }
  r.consumed = i;
  r.written = w;
  return r;
}

}  // namespace

// Every byte decodes to at most three UTF-8 bytes (U+FFFD included); every
// UTF-8 character encodes to at most one byte.
const CodecOps single_byte_ops = {&decode, &encode, 3, 1};

}  // namespace pgcodec::detail
