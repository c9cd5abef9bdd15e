// The 27 single-byte encodings (LATIN1..10, ISO_8859_5..8, WIN866, WIN874,
// WIN1250..1258, KOI8R, KOI8U): table-driven both ways, ASCII runs copied
// wholesale. The tables are constant data (tables/dense.hpp, generated).
#include <cstring>

#include "codec_table.hpp"
#include "codecs/ascii_copy.hpp"
#include "codecs/codec_ops.hpp"
#include "codecs/sinks.hpp"
#include "rules/grammar.hpp"
#include "rules/utf8.hpp"
#include "tables/dense.hpp"

namespace pgcodec::detail {

namespace {

// Both loops keep everything they use in locals: a store through `char*`
// may alias anything, so a table reached through a member would be reloaded
// after every byte written.
//
// One decoder for UTF-8 (decode) and code units (decode_units), through the
// sink S (codecs/sinks.hpp). UTF-8 output copies each mapped byte's UTF-8
// from the table and takes 64-byte blocks through the kernel; code units
// read the code point off that UTF-8.
template <class S>
Result decode_to(const CodecRow& row, std::string_view in, S sink, typename S::Unit* const o,
                 const std::size_t cap, ErrorMode mode, const kernels::Kernel& k) noexcept {
  const SingleByteDense& s = *row.tables.single_byte;
  const auto* dec = s.decode;
  const kernels::SingleByteDecodeFn blocks = S::kUtf8 ? k.single_byte_decode : nullptr;
  const char32_t limit = sink.limit();
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = 0, w = 0, bytewise_until = 0;
  Result r;
  while (i < n) {
    if constexpr (S::kUtf8) {
      // 64 bytes at a time while the block kernel takes them; a block it
      // hands back goes byte by byte below.
      if (blocks && i >= bytewise_until && n - i >= 64 && cap - w >= 128) {
        std::size_t made = 0;
        i += blocks(*s.planes, p + i, n - i, o + w, cap - w, made);
        w += made;
        bytewise_until = i + 64;
        continue;
      }
    }
    const unsigned b = p[i];
    if (b - 1u < 0x7Fu) {  // an ASCII run
      if (!copy_ascii_units(k, p, n, i, o, cap, w)) break;  // output full
      continue;
    }
    const auto& d = dec[(b - 0x80u) & 0x7Fu];
    const auto len = static_cast<std::size_t>(d[3]);
    std::uint32_t cp = 0xFFFD;
    if (b == 0 || !len) {
      if (mode == ErrorMode::Strict) {
        r.status = Status::Error;
        r.error = make_error(b == 0 ? ErrorKind::InvalidByteSequence : ErrorKind::NoEquivalent,
                             row.encoding, Encoding::UTF8, in, i, 1);
        break;
      }
    } else if constexpr (S::kUtf8) {
      if (cap - w < len) break;
      // Only the character's own bytes are stored (2 or 3: every mapped
      // high byte is at least U+0080).
      std::memcpy(o + w, d, 2);
      if (len == 3) o[w + 2] = d[2];
      w += len;
      ++i;
      continue;
    } else {
      const auto* u = reinterpret_cast<const unsigned char*>(d);
      cp = len == 2 ? ((u[0] & 0x1Fu) << 6) | (u[1] & 0x3Fu)
                    : ((u[0] & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu);
    }
    if (cp > limit) {
      r.status = Status::Wider;
      break;
    }
    if (cap - w < S::units(cp)) break;
    w += S::store(o + w, cp);
    ++i;
  }
  if (i < n && r.status == Status::Ok) r.status = Status::OutputFull;
  r.consumed = i;
  r.written = w;
  return r;
}

Result decode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              bool, const kernels::Kernel& k) noexcept {
  return decode_to(row, in, Utf8Sink{}, out.data(), out.size(), mode, k);
}

Result decode_units(const CodecRow& row, std::string_view in, const UnitBuffer& out, ErrorMode mode,
                    bool, const kernels::Kernel& k) noexcept {
  return with_unit_sink(out, [&](auto sink, auto* o, std::size_t cap) {
    return decode_to(row, in, sink, o, cap, mode, k);
  });
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
const CodecOps single_byte_ops = {&decode, &encode, &decode_units, 3, 1};

}  // namespace pgcodec::detail
