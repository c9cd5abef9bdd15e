// Text as code units (UnitForm): Codec::decode_units and Codec::encode_units.
//
// Decoding is each family's own decoder writing through a sink of the
// requested form (codecs/sinks.hpp): one decoder, no UTF-8 in between.
//
// Encoding reads the units in blocks of up to kBlock bytes of UTF-8,
// transcoded into a buffer on the stack, and hands each block to the
// family's encoder: the characters, errors and replacements are the UTF-8
// encoder's by construction, and only positions are translated back to
// units. A block ends where the encoder's decision cannot depend on what
// follows (see safe_cut): anywhere in most encodings, and in EUC_JIS_2004 /
// SHIFT_JIS_2004, whose encoder looks one character ahead, at a boundary of
// its parse whose next character is valid.
//
// What is not a character (a lone surrogate, a unit above U+10FFFF) is, in
// Strict mode, written into the block as the bytes PostgreSQL would receive
// for it (the generalized UTF-8 of the value; 0xFF above U+1FFFFF), so the
// encoder reports it as it would report those bytes, lookahead included. In
// Replace mode it ends the block and is replaced by one '?'.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "codec_table.hpp"
#include "codecs/ascii_copy.hpp"
#include "codecs/codec_ops.hpp"
#include "codecs/sinks.hpp"
#include "kernels/kernels.hpp"
#include "pgcodec/codec.hpp"
#include "rules/utf8.hpp"
#include "units.hpp"

namespace pgcodec {

namespace {

constexpr std::size_t kBlock = 4096;

char32_t form_max(UnitForm f) noexcept {
  switch (f) {
    case UnitForm::Latin1: return 0xFF;
    case UnitForm::Ucs2: return 0xFFFF;
    case UnitForm::Utf16:
    case UnitForm::Utf32: break;
  }
  return 0x10FFFF;
}

// Reads code points out of a UnitText. A value that is no character (a
// surrogate not in a UTF-16 pair, anything above U+10FFFF) comes back with
// valid == false.
struct Reader {
  const void* data;
  std::size_t n;
  UnitForm form;

  std::uint32_t unit(std::size_t i) const noexcept {
    switch (form) {
      case UnitForm::Latin1: return static_cast<const std::uint8_t*>(data)[i];
      case UnitForm::Ucs2:
      case UnitForm::Utf16: return static_cast<const char16_t*>(data)[i];
      case UnitForm::Utf32: break;
    }
    return static_cast<const char32_t*>(data)[i];
  }
  struct Char {
    std::uint32_t cp;
    std::uint8_t units;
    bool valid;
  };
  Char at(std::size_t i) const noexcept {
    const std::uint32_t u = unit(i);
    if (u - 0xD800u < 0x800u) {
      if (form == UnitForm::Utf16 && u < 0xDC00u && i + 1 < n) {
        const std::uint32_t lo = unit(i + 1);
        if (lo - 0xDC00u < 0x400u) return {0x10000u + ((u - 0xD800u) << 10) + (lo - 0xDC00u), 2, true};
      }
      return {u, 1, false};
    }
    return {u, 1, u <= 0x10FFFFu};
  }
};

// The bytes PostgreSQL would receive for value v: its UTF-8, or for a
// surrogate or a value up to U+1FFFFF the same bit pattern (ED A0 80 for
// U+D800), which is invalid UTF-8; 0xFF above. Returns how many (1..4).
std::size_t bytes_for(char* o, std::uint32_t v) noexcept {
  if (v < 0x80) {
    o[0] = static_cast<char>(v);
    return 1;
  }
  if (v < 0x800) {
    o[0] = static_cast<char>(0xC0 | (v >> 6));
    o[1] = static_cast<char>(0x80 | (v & 0x3F));
    return 2;
  }
  if (v < 0x10000) {
    o[0] = static_cast<char>(0xE0 | (v >> 12));
    o[1] = static_cast<char>(0x80 | ((v >> 6) & 0x3F));
    o[2] = static_cast<char>(0x80 | (v & 0x3F));
    return 3;
  }
  if (v < 0x200000) {
    o[0] = static_cast<char>(0xF0 | (v >> 18));
    o[1] = static_cast<char>(0x80 | ((v >> 12) & 0x3F));
    o[2] = static_cast<char>(0x80 | ((v >> 6) & 0x3F));
    o[3] = static_cast<char>(0x80 | (v & 0x3F));
    return 4;
  }
  o[0] = static_cast<char>(0xFF);
  return 1;
}

std::size_t byte_count(std::uint32_t v) noexcept {
  return v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : v < 0x200000 ? 4 : 1;
}

// Where a block of units [from, end) may end (end < the text's end) so that
// encoding it alone converts its characters exactly as encoding the whole
// text does: the last unit boundary at or before `end` (never inside a UTF-16
// pair) and, with combined pairs, one that the encoder's parse reaches
// whose next character is valid (UtfToLocal checks the next character
// before it looks the pair up). `from` if there is none.
std::size_t safe_cut(const Reader& rd, std::span<const detail::Pair> pairs, std::size_t from,
                     std::size_t end) noexcept {
  if (pairs.empty()) return end;  // the block never splits a UTF-16 pair
  // The parse reaches k, wherever it started, when units k - 1 and k make
  // no pair (no code point above U+FFFF is in one: the low half of a UTF-16
  // pair reads as no character here, which is right for this test).
  for (std::size_t k = end; k > from && end - k < 64; --k) {
    const Reader::Char prev = rd.at(k - 1), next = rd.at(k);
    if (prev.units == 2) continue;  // k is inside a UTF-16 pair
    if (next.valid && !(prev.valid && is_pair(pairs, prev.cp, next.cp))) return k;
  }
  // A long run in which each character pairs with the next (alternating
  // tone letters): the encoder's parse from `from`, a boundary, pair by pair.
  std::size_t best = from;
  for (std::size_t k = from; k < end;) {
    const Reader::Char x = rd.at(k);
    std::size_t step = x.units;
    if (x.valid && k + step < rd.n) {
      const Reader::Char y = rd.at(k + step);
      if (y.valid && is_pair(pairs, x.cp, y.cp)) step += y.units;
    }
    if (k + step > end) break;
    k += step;
    if (k < rd.n && rd.at(k).valid) best = k;
  }
  return best;
}

// Transcodes units [j, ...) of one form into UTF-8 at buf + len until len
// reaches `target` (each character whole: up to 3 bytes past it), the end,
// or, in Replace mode, a unit that is no character (bad = true, j on it).
// Returns the new j. ASCII runs, then 2- and 3-byte characters, inline;
// surrogates and values above U+FFFF through Reader::at (UTF-16 pairs,
// PostgreSQL's bytes for what is no character).
template <class Unit>
std::size_t transcode(const Reader& rd, const Unit* p, std::size_t j, char* buf, std::size_t& len,
                      std::size_t target, bool strict, bool& bad) noexcept {
  const std::size_t n = rd.n;
  while (j < n && len < target) {
    std::uint32_t u = p[j];
    if (u < 0x80) {
      const std::size_t stop = std::min(n, j + (target - len));
      do {
        buf[len++] = static_cast<char>(u);
        if (++j == stop) break;
        u = p[j];
      } while (u < 0x80);
      continue;
    }
    if (u < 0x800) {
      buf[len] = static_cast<char>(0xC0 | (u >> 6));
      buf[len + 1] = static_cast<char>(0x80 | (u & 0x3F));
      len += 2;
      ++j;
      continue;
    }
    if (u < 0x10000 && u - 0xD800u >= 0x800u) {
      buf[len] = static_cast<char>(0xE0 | (u >> 12));
      buf[len + 1] = static_cast<char>(0x80 | ((u >> 6) & 0x3F));
      buf[len + 2] = static_cast<char>(0x80 | (u & 0x3F));
      len += 3;
      ++j;
      continue;
    }
    const Reader::Char c = rd.at(j);
    if (!c.valid && !strict) {
      bad = true;
      break;
    }
    len += bytes_for(buf + len, c.cp);
    j += c.units;
  }
  return j;
}

std::size_t transcode(const Reader& rd, std::size_t j, char* buf, std::size_t& len, std::size_t target,
                      bool strict, bool& bad) noexcept {
  return detail::with_units(UnitText{rd.data, rd.n, rd.form},
                            [&](const auto* u) { return transcode(rd, u, j, buf, len, target, strict, bad); });
}

// The unit index of byte offset `at` of the UTF-8 a block [from, ...)
// was transcoded into.
std::size_t unit_of(const Reader& rd, std::size_t from, std::size_t at) noexcept {
  std::size_t i = from, b = 0;
  while (b < at) {
    const Reader::Char c = rd.at(i);
    b += byte_count(c.cp);
    i += c.units;
  }
  return i;
}

}  // namespace

Result Codec::decode_units(std::string_view in, const UnitBuffer& out, ErrorMode mode,
                           bool final) const noexcept {
  const kernels::Kernel& k = kernels::active();
  if (encoding_ == Encoding::LATIN1 && out.form == UnitForm::Latin1 && out.limit >= 0xFF &&
      out.capacity >= in.size() && !in.empty()) {
    // LATIN1's bytes are their own code points (a NUL is an error): into
    // Latin-1 units with room for all, decoding is a copy up to the first
    // NUL, taken here before the family's dispatch. Through the
    // single-byte decoder (its set-up, the sink's switch, then the same
    // copy) Python's 1 KB LATIN1 decode took 144 ns, 127 from here
    // (CPython's latin-1: 120). A NUL stops the copy: the family decodes
    // from the start and reports it (or replaces it) as ever.
    const std::size_t run = detail::copy_until_nul(k, reinterpret_cast<const unsigned char*>(in.data()),
                                                   static_cast<unsigned char*>(out.data), in.size());
    if (run == in.size()) return Result{run, run};
  }
  // Field by field (see the declaration).
  const UnitBuffer o{out.data, out.capacity, out.form, std::clamp<char32_t>(out.limit, 0x7F, form_max(out.form))};
  return row_->ops->decode_units(*row_, in, o, mode, final, k);
}

Result Codec::encode_units(const UnitText& in, std::span<char> out, ErrorMode mode,
                           bool final) const noexcept {
  // The family's fast path first, alone: it takes most texts whole (short
  // ones nearly always), and then the block loop's set-up is not needed
  // (half the instructions of an 8-unit encode in the library, callgrind).
  // Where it stops, the block loop goes on from there. No fast path takes a
  // surrogate, so a chunk's trailing half of a UTF-16 pair reaches the block
  // loop, which holds it back.
  if (row_->ops->encode_units_prefix) {
    std::size_t w = 0;
    const std::size_t i = row_->ops->encode_units_prefix(*row_, in, 0, out, w, final, kernels::active());
    if (i == in.length) return Result{i, w};
    return detail::encode_units_in_blocks(*this, in, out, mode, final, kBlock, i, w);
  }
  return detail::encode_units_in_blocks(*this, in, out, mode, final, kBlock);
}

namespace detail {

Result encode_units_in_blocks(const Codec& codec, const UnitText& text, std::span<char> out, ErrorMode mode,
                              bool final, std::size_t block_size, std::size_t start, std::size_t written) noexcept {
  UnitText in{text.data, text.length, text.form};  // field by field (see Codec::encode_units)
  const CodecRow& row = codec_row(codec.encoding());
  block_size = std::clamp<std::size_t>(block_size, 1, kBlock);
  Reader rd{in.data, in.length, in.form};
  // A chunk of a longer text may end in the first half of a UTF-16 pair:
  // it is held back with what encode_partial holds back.
  if (!final && rd.n && in.form == UnitForm::Utf16 && rd.unit(rd.n - 1) - 0xD800u < 0x400u) --rd.n;
  const MultibyteDense* md = row.tables.multibyte;
  const std::span<const Pair> pairs =
      md ? std::span<const Pair>(md->pairs, md->pair_count) : std::span<const Pair>();
  const bool strict = mode == ErrorMode::Strict;
  std::array<char, kBlock + 8> buf;
  Result r;
  std::size_t i = start, w = written;
  bool prefix_works = start != 0;
  while (i < rd.n) {
    // The family's own fast path first, straight from the units.
    if (row.ops->encode_units_prefix) {
      const std::size_t n_all = in.length, from = i;
      in.length = rd.n;  // what is held back is not the prefix's
      i = row.ops->encode_units_prefix(row, in, i, out, w, final, kernels::active());
      in.length = n_all;
      if (i == rd.n) break;
      prefix_works |= i != from;
    }
    // Transcode [i, j) into buf, up to block_size bytes, the end of the
    // text, or (Replace mode) a unit that is no character; then end the
    // block at a safe cut (a block with none grows, up to kBlock).
    // Where the fast path works, the block only carries what stopped it
    // (a one-byte code, an error) and the fast path takes over again soon.
    std::size_t j = i, len = 0, target = prefix_works ? std::min<std::size_t>(block_size, 32) : block_size;
    bool bad_next = false;
    for (;;) {
      j = transcode(rd, j, buf.data(), len, target, strict, bad_next);
      if (j == rd.n || bad_next) break;
      const std::size_t cut = safe_cut(rd, pairs, i, j);
      if (cut > i) {
        // Drop the units past the cut from the block.
        for (std::size_t k = cut; k < j;) {
          const Reader::Char c = rd.at(k);
          len -= byte_count(c.cp);
          k += c.units;
        }
        j = cut;
        break;
      }
      // No cut in a full block: 1024 units or more, each pairing with the
      // next or followed by no character. Only Strict mode puts units that
      // are no character in a block, and the encoder stops at the first of
      // them, inside the block, so ending the block anywhere after it is as
      // good as a cut. (A run of tone letters always has a cut.)
      if (target >= kBlock) break;
      target = std::min(kBlock, target + block_size);
    }
    const std::string_view block(buf.data(), len);
    const std::span<char> room(out.data() + w, out.size() - w);
    const bool partial = !final && j == rd.n;
    Result b = partial ? codec.encode_partial(block, room, mode)
                       : row.ops->encode(row, block, room, mode, kernels::active());
    w += b.written;
    if (b.consumed < len || b.status != Status::Ok) {
      r.status = b.status;
      r.consumed = unit_of(rd, i, b.consumed);
      if (b.status == Status::Error) {
        r.error = b.error;
        r.error.offset = unit_of(rd, i, b.error.offset);
        const Reader::Char c = rd.at(r.error.offset);
        r.error.skip = static_cast<std::uint8_t>(
            r.error.kind == ErrorKind::NoEquivalent && c.valid ? c.units : 1);
      }
      r.written = w;
      return r;
    }
    i = j;
    if (bad_next) {  // Replace mode: one '?' for the unit that is no character
      if (w == out.size()) {
        r.status = Status::OutputFull;
        break;
      }
      out[w++] = '?';
      ++i;
    }
  }
  r.consumed = i;
  r.written = w;
  return r;
}

}  // namespace detail

}  // namespace pgcodec
