// The 27 single-byte encodings (LATIN1..10, ISO_8859_5..8, WIN866, WIN874,
// WIN1250..1258, KOI8R, KOI8U): table-driven both ways, ASCII runs copied
// wholesale. The tables are constant data (tables/dense.hpp, generated).
#include <cstring>

#include "codec_table.hpp"
#include "codecs/ascii_copy.hpp"
#include "codecs/codec_ops.hpp"
#include "rules/grammar.hpp"
#include "rules/utf8.hpp"
#include "tables/dense.hpp"

namespace pgcodec::detail {

namespace {

// Both loops keep everything they use in locals: a store through `char*`
// may alias anything, so a table reached through a member would be reloaded
// after every byte written.
Result decode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              bool, const kernels::Kernel& k) noexcept {
  const SingleByteDense& s = *row.tables.single_byte;
  const auto* dec = s.decode;
  const kernels::SingleByteDecodeFn blocks = k.single_byte_decode;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  char* const o = out.data();
  const std::size_t cap = out.size();
  std::size_t i = 0, w = 0, bytewise_until = 0;
  Result r;
  while (i < n) {
    // 64 bytes at a time while the block kernel takes them; a block it
    // hands back goes byte by byte below.
    if (blocks && i >= bytewise_until && n - i >= 64 && cap - w >= 128) {
      std::size_t made = 0;
      i += blocks(*s.planes, p + i, n - i, o + w, cap - w, made);
      w += made;
      bytewise_until = i + 64;
      continue;
    }
    const unsigned b = p[i];
    if (b - 1u < 0x7Fu) {  // an ASCII run
      if (!copy_ascii(k, p, n, i, o, cap, w)) break;  // output full
      continue;
    }
    const auto& d = dec[(b - 0x80u) & 0x7Fu];
    const auto len = static_cast<std::size_t>(d[3]);
    if (b == 0 || !len) {
      if (mode == ErrorMode::Strict) {
        r.status = Status::Error;
        r.error = make_error(b == 0 ? ErrorKind::InvalidByteSequence : ErrorKind::NoEquivalent,
                             row.encoding, Encoding::UTF8, in, i, 1);
        break;
      }
      if (cap - w < kUtf8Replacement.size()) break;
      std::memcpy(o + w, kUtf8Replacement.data(), kUtf8Replacement.size());
      w += kUtf8Replacement.size();
      ++i;
      continue;
    }
    if (cap - w < len) break;
    // Only the character's own bytes are stored (2 or 3: every mapped high
    // byte is at least U+0080).
    std::memcpy(o + w, d, 2);
    if (len == 3) o[w + 2] = d[2];
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
  const SingleBytePages to_byte{s.page_of, s.pages};
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  char* const o = out.data();
  const std::size_t cap = out.size();
  const kernels::SingleByteEncodeFn blocks = k.single_byte_encode;
  std::size_t i = 0, w = 0, bytewise_until = 0;
  Result r;
  while (i < n) {
    if (blocks && i >= bytewise_until && n - i >= 65 && cap - w >= 64) {  // as in decode
      std::size_t made = 0;
      i += blocks(*s.planes, p + i, n - i, o + w, cap - w, made);
      w += made;
      bytewise_until = i + 64;
      continue;
    }
    const unsigned c0 = p[i];
    if (c0 - 1u < 0x7Fu) {  // an ASCII run
      if (!copy_ascii(k, p, n, i, o, cap, w)) break;  // output full
      continue;
    }
    // A NUL or a multibyte lead. Two-byte characters (all of Latin,
    // Cyrillic, Greek, Hebrew, Arabic) decode inline.
    std::size_t l;
    std::uint32_t cp;
    if (c0 - 0xC2u < 0x1Eu && n - i >= 2 && utf8_continuation(p[i + 1])) {
      l = 2;
      cp = ((c0 & 0x1Fu) << 6) | (p[i + 1] & 0x3Fu);
    } else {
      l = c0 ? utf8_multibyte_length(p + i, n - i) : 0;
      cp = l ? utf8_decode_multibyte(p + i, l) : 0;
    }
    const unsigned char byte = l ? to_byte(cp) : 0;
    // A full buffer is checked only where output is stored: an error
    // needs no room (the contract in codecs/codec_ops.hpp).
    if (byte) {
      if (w == cap) break;
      o[w++] = static_cast<char>(byte);
      i += l;
      continue;
    }
    if (mode == ErrorMode::Strict) {
      r.status = Status::Error;
      r.error = l ? make_error(ErrorKind::NoEquivalent, Encoding::UTF8, row.encoding, in, i, l)
                  : make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8, row.encoding, in, i, 1);
      break;
    }
    if (w == cap) break;
    o[w++] = '?';
    i += l ? l : 1;
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
