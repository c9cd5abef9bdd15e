// The 27 single-byte encodings (LATIN1..10, ISO_8859_5..8, WIN866, WIN874,
// WIN1250..1258, KOI8R, KOI8U): table-driven both ways, ASCII runs copied
// wholesale. The tables are constant data (tables/dense.hpp, generated).
#include <algorithm>
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

// decode_to's rounds through code units into UTF-8 (see there): a round's
// bytes at most (the UCS-2 buffer on the stack), and the bytes after a stop
// that go byte by byte before the next round (a round costs the kernel's
// set-up, about 20 ns: Replace mode on text dense with unmapped bytes would
// pay it for every one).
constexpr std::size_t kUnitsChunk = 512, kUnitsRetry = 16, kUnitsLeast = 128;
// The fewest bytes decode_to hands the units kernel when decoding to code units.
constexpr std::size_t kUnitsKernelLeast = 24;

// One round: m bytes at most (m <= kUnitsChunk, and room for 3 * m bytes
// at o + w) to UCS-2 on the stack, those to UTF-8 at o + w; returns the
// bytes converted (fewer than m: a NUL or unmapped byte follows) and adds
// what it stored to w. Out of line, so that decode_to's byte loop keeps
// its frame without the 1 KiB buffer.
[[gnu::noinline]] std::size_t units_round(kernels::SingleByteUnitsFn units, kernels::Units16ToUtf8Fn units_to_utf8,
                                          const char16_t* code_point, const unsigned char* p, std::size_t m,
                                          char* o, std::size_t& w) noexcept {
  char16_t u[kUnitsChunk];
  const std::size_t got = units(code_point, p, m, u, 2, 0xFFFF);
  std::size_t made = 0;
  std::size_t j = units_to_utf8(u, got, o + w, made);
  w += made;
  for (; j < got; ++j) w += write_utf8(o + w, u[j]);  // the last few (fewer than a block of 8)
  return got;
}

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
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = 0, w = 0;
  Result r;
  // Reports byte i (NUL, or no mapping) in Strict mode; false: replace it.
  auto bad = [&](unsigned b) {
    if (mode != ErrorMode::Strict) return false;
    r.status = Status::Error;
    r.error = make_error(b == 0 ? ErrorKind::InvalidByteSequence : ErrorKind::NoEquivalent, row.encoding,
                         Encoding::UTF8, in, i, 1);
    return true;
  };
  if constexpr (S::kUtf8) {
    // UTF-8: each mapped byte's UTF-8 copied from the table; 64-byte blocks
    // through the kernel while it takes them (a block it hands back goes
    // byte by byte), ASCII runs through copy_ascii.
    const kernels::SingleByteDecodeFn blocks = k.single_byte_decode;
    // Without those blocks (no AVX-512 VBMI: AVX2), where the kernel has
    // both: the bytes to UCS-2 on the stack (single_byte_units), those to
    // UTF-8 (units16_to_utf8), kUnitsChunk bytes a round (units_round);
    // three-byte characters (Thai, the euro sign, typographic quotes)
    // included. A NUL or unmapped byte stops a round, and the loop below
    // takes it and the kUnitsRetry bytes after it.
    const kernels::SingleByteUnitsFn units = blocks ? nullptr : k.single_byte_units;
    const kernels::Units16ToUtf8Fn units_to_utf8 = k.units16_to_utf8;
    const bool shortcuts = k.table_shortcuts;
    // Where the next block or round may start: never again once too few
    // bytes or too little room are left (both only shrink). One comparison
    // a byte in the loop below (a second, for the rounds, cost 40 bytes of
    // WIN1252 12 ns more).
    constexpr std::size_t kNever = SIZE_MAX;
    std::size_t next_fast = (blocks && n >= 64) || (units && units_to_utf8 && n >= kUnitsLeast) ? 0 : kNever;
    while (i < n) {
      if (i >= next_fast) {
        if (blocks ? n - i < 64 || cap - w < 128 : n - i < kUnitsLeast || (cap - w) / 3 < kUnitsLeast) {
          next_fast = kNever;
          continue;
        }
        if (blocks) {
          std::size_t made = 0;
          i += blocks(*s.planes, p + i, n - i, o + w, cap - w, made);
          w += made;
          next_fast = i + 64;  // a block handed back goes byte by byte
          continue;
        }
        // ASCII first: the kernel's run copy, not a round through units
        // (English text at 0.8 ns a byte that way).
        if (ascii32(p + i)) {
          if (!copy_ascii_units(k, p, n, i, o, cap, w)) break;  // output full
          continue;
        }
        const std::size_t m = std::min({n - i, kUnitsChunk, (cap - w) / 3});
        const std::size_t got = units_round(units, units_to_utf8, s.code_point, p + i, m, o, w);
        i += got;
        next_fast = got < m ? i + kUnitsRetry : i;
        continue;
      }
      if (shortcuts && cap - w >= 3) {
        // Up to the next block or round (or the end), as far as the room
        // surely holds, 32 bytes a group: 32 ASCII bytes copied at once;
        // otherwise each byte's UTF-8 and its length as one word (ASCII
        // computed, the rest from the table), stored whole into a buffer on
        // the stack, advanced by the length, the group's UTF-8 then copied
        // (nothing is stored past what is written). Only a length of 0 (NUL,
        // no mapping) leaves it. A test on each byte sent text that mixes
        // ASCII with the script the wrong way at every switch: 100 bytes of
        // WIN1252 prose took 312 ns, KOI8R 428 (ICU 357, 490).
        const std::size_t end = i + std::min({n - i, (cap - w) / 3, next_fast - i});
        std::size_t fi = i, fw = w;
        bool stopped = false;
        while (fi < end && !stopped) {
          const std::size_t group = std::min<std::size_t>(end - fi, 32);
          if (group == 32 && ascii32(p + fi)) {
            std::memcpy(o + fw, p + fi, 32);
            fi += 32;
            fw += 32;
            continue;
          }
          char utf8[32 * 3 + 1];
          std::size_t made = 0;
          for (const std::size_t stop = fi + group; fi < stop; ++fi) {
            const unsigned b = p[fi];
            std::uint32_t high;
            std::memcpy(&high, dec[(b - 0x80u) & 0x7Fu], 4);
            // Selected with masks: GCC 12 made a ternary here two branches.
            const std::uint32_t is_high = 0u - (b >> 7), ascii = b | ((b + 0xFFu) >> 8) << 24;
            const std::uint32_t word = (high & is_high) | (ascii & ~is_high);
            if (!(word >> 24)) {
              stopped = true;
              break;
            }
            std::memcpy(utf8 + made, &word, 4);  // (its fourth byte: overwritten next, or not copied)
            made += word >> 24;
          }
          std::memcpy(o + fw, utf8, made);
          fw += made;
        }
        i = fi;
        w = fw;
        if (i == n) break;
        if (i == end) continue;
      }
      const unsigned b = p[i];
      if (b - 1u < 0x7Fu) {  // an ASCII run
        if (!copy_ascii_units(k, p, n, i, o, cap, w)) break;  // output full
        continue;
      }
      const auto& d = dec[(b - 0x80u) & 0x7Fu];
      const auto len = static_cast<std::size_t>(d[3]);
      if (b == 0 || !len) {
        if (bad(b)) break;
        if (cap - w < 3) break;
        w += S::store(o + w, 0xFFFD);
        ++i;
        continue;
      }
      if (cap - w < len) break;
      // Only the character's own bytes are stored (2 or 3: every mapped
      // high byte is at least U+0080).
      std::memcpy(o + w, d, 2);
      if (len == 3) o[w + 2] = d[2];
      w += len;
      ++i;
    }
  } else {
    // Code units: one loop over the bytes, each stored as its code point
    // (ASCII 8 bytes at a time with table shortcuts), read off the table's
    // UTF-8; a code point above the sink's limit stops it (Status::Wider).
    const char32_t limit = sink.limit();
    const bool shortcuts = k.table_shortcuts;
    // With table shortcuts, the table's code points (dense.hpp: 0 for NUL
    // and unmapped bytes) run the common case without a data-dependent branch:
    // text that mixes ASCII and letters of the encoding's script would
    // mispredict an ASCII test on most letters. NUL, an unmapped byte and
    // anything above the limit leave it for the loop below.
    // LATIN1 is the identity on 01..FF: into a form that holds U+00FF, a
    // copy up to the next NUL (widened for 2- and 4-byte units).
    const bool identity = shortcuts && row.encoding == Encoding::LATIN1 && limit >= 0xFF;
    const bool table = shortcuts && !identity && limit > 0x7F;  // (into ASCII: the kernel's runs below)
    const char16_t* const table_cp = s.code_point;
    const kernels::SingleByteUnitsFn units_kernel = k.single_byte_units;
    while (i < n) {
      if (identity) {
        const std::size_t m = std::min(n - i, cap - w);
        std::size_t run;
        if constexpr (sizeof(typename S::Unit) == 1) {
          run = copy_until_nul(k, p + i, o + w, m);
        } else {
          const void* nul = std::memchr(p + i, 0, m);
          run = nul ? static_cast<std::size_t>(static_cast<const unsigned char*>(nul) - (p + i)) : m;
          for (std::size_t j = 0; j < run; ++j) o[w + j] = static_cast<typename S::Unit>(p[i + j]);
        }
        i += run;
        w += run;
        if (i == n || w == cap) {
          if (i < n) break;
          continue;
        }
      }
      if (table) {
        // Every code point here is one unit in any form (all are <= U+FFFF).
        const std::size_t m = std::min(n - i, cap - w);
        // The kernel stops where the loop below would, which then stops too.
        // (Below kUnitsKernelLeast bytes the loop alone: the kernel's set-up
        // of its tables is about 20 ns, the loop's byte about 1.)
        std::size_t j = units_kernel && m >= kUnitsKernelLeast
                            ? units_kernel(table_cp, p + i, m, o + w, sizeof(typename S::Unit), limit)
                            : 0;
        for (; j < m; ++j) {
          const std::uint32_t cp = table_cp[p[i + j]];
          if (cp - 1u >= limit) break;  // NUL, unmapped (0), or above the limit
          o[w + j] = static_cast<typename S::Unit>(cp);
        }
        i += j;
        w += j;
        if (i == n || w == cap) {
          if (i < n) break;
          continue;
        }
      }
      if (shortcuts && p[i] - 1u < 0x7Fu) {  // an ASCII run
        if (!copy_ascii_units(k, p, n, i, o, cap, w)) break;  // output full
        continue;
      }
      const unsigned b = p[i];
      std::uint32_t cp = table_cp[b];
      if (cp == 0) {  // NUL, or no mapping
        if (bad(b)) break;
        cp = 0xFFFD;
      }
      if (cp > limit) {
        r.status = Status::Wider;
        break;
      }
      if (cap - w < S::units(cp)) break;
      w += S::store(o + w, cp);
      ++i;
    }
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

// encode_units' fast path (and encode()'s rounds): what encode() does for a character,
// read from code units: ASCII other than NUL as itself, any other code
// point by its byte in the table. NUL, what has no byte (surrogates
// included: no table maps them) and a full buffer stop it, for the block
// path to report or replace.
//
// No branch depends on the text: the page is chosen by a select (a page
// that is not there reads as a page of zeros), ASCII by another, and only
// a byte of 0 (NUL, no mapping) leaves the loop. With a branch on ASCII,
// text that mixes a script with spaces and punctuation mispredicted it
// every few characters: 1.9 ns a character on Cyrillic prose, 1.0 when the
// branch predictor had learnt the text by heart (perf, bench/python).
template <class Unit>
std::size_t encode_prefix(const SingleByteDense& s, const Unit* u, std::size_t i, std::size_t n, char* o,
                          std::size_t cap, std::size_t& w) noexcept {
  static constexpr std::uint8_t kNoPage[256] = {};
  const std::uint8_t* const page_of = s.page_of;
  const std::uint8_t(*const pages)[256] = s.pages;
  std::size_t fw = w;
  const std::size_t stop = i + std::min(n - i, cap - fw);
  for (; i < stop; ++i) {
    const std::uint32_t cp = u[i];
    if constexpr (sizeof(Unit) == 4) {
      if (cp >= 0x10000) break;  // beyond the BMP: no single-byte encoding has it
    }
    const std::uint8_t page = page_of[cp >> 8];
    const std::uint8_t* const bytes = page ? pages[page - 1u] : kNoPage;
    const std::uint8_t mapped = bytes[cp & 0xFF];
    const std::uint8_t byte = cp < 0x80 ? static_cast<std::uint8_t>(cp) : mapped;
    if (!byte) break;
    o[fw++] = static_cast<char>(byte);
  }
  w = fw;
  return i;
}

// encode()'s rounds: where the kernel has the UTF-8 codec's blocks
// (Kernel::utf8_to_units16) and no block encoder of its own, up to this many
// bytes of UTF-8 at a time are decoded into 16-bit units on the stack by the
// UTF8 family's fast loop (utf8_to_ucs2_prefix: ASCII runs, the AVX2 blocks)
// and the units turned into bytes by encode_prefix's branch-free table
// loop. Character by character, on text that the branch predictor cannot
// learn (words drawn at random), every switch between ASCII and a letter
// of the script was mispredicted: 16 KiB of Central European prose took
// 52.7 us (ICU 39.2).
constexpr std::size_t kEncodeRound = 512;

// The UTF-8 length of the first n units (code points U+0001..U+FFFF that
// are not surrogates, as utf8_to_ucs2_prefix writes them).
std::size_t utf8_length(const char16_t* u, std::size_t n) noexcept {
  std::size_t bytes = 0;
  for (std::size_t j = 0; j < n; ++j) bytes += utf8_encoded_length(u[j]);
  return bytes;
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
  const bool rounds = !blocks && k.table_shortcuts && k.utf8_to_units16;
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
    // (A round that would start on 32 ASCII bytes leaves them to the ASCII
    // run below: through 16-bit units, English took 0.55 GB/s, 26 as a run.)
    if (rounds && i >= bytewise_until && n - i >= 64 && !ascii32(p + i)) {
      const std::size_t from = i, end = i + std::min(n - i, kEncodeRound);
      char16_t units[kEncodeRound];
      std::size_t got = 0;
      const std::size_t next = utf8_to_ucs2_prefix(k, p, i, end, units, kEncodeRound, got);
      const std::size_t took = encode_prefix(s, units, 0, got, o, cap, w);
      i = took == got ? next : i + utf8_length(units, took);
      // Stopped before the round's end (a character without a byte, NUL, a
      // four-byte or invalid sequence, a full output, the round's last one
      // or two bytes): that character goes through the loop below. Rounds
      // that take little (text full of such characters) wait 64 bytes.
      if (i < end) bytewise_until = i - from < 32 ? i + 64 : i + 1;
      if (i == n) break;
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

std::size_t encode_units_prefix(const CodecRow& row, const UnitText& in, std::size_t i, std::span<char> out,
                                std::size_t& w, bool, const kernels::Kernel& k) noexcept {
  if (!k.table_shortcuts) return i;
  if (row.encoding == Encoding::LATIN1 && in.form == UnitForm::Latin1) {
    // LATIN1 from Latin-1 units: a copy up to the next NUL.
    const auto* u = static_cast<const unsigned char*>(in.data) + i;
    const std::size_t m = std::min(in.length - i, out.size() - w);
    const std::size_t run = copy_until_nul(k, u, reinterpret_cast<unsigned char*>(out.data() + w), m);
    w += run;
    return i + run;
  }
  const SingleByteDense& s = *row.tables.single_byte;
  return with_units(in, [&](const auto* u) { return encode_prefix(s, u, i, in.length, out.data(), out.size(), w); });
}

}  // namespace

// Every byte decodes to at most three UTF-8 bytes (U+FFFD included); every
// UTF-8 character encodes to at most one byte.
const CodecOps single_byte_ops = {&decode, &encode, &decode_units, 3, 1, &encode_units_prefix};

}  // namespace pgcodec::detail
