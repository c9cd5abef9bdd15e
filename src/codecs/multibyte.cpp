// The multibyte encodings (EUC_*, SJIS, SHIFT_JIS_2004, BIG5, GBK, UHC,
// GB18030, JOHAB, and MULE_INTERNAL through its member encodings), driven by
// the structural rules and the generated run tables.
//
// The order of checks follows PostgreSQL's LocalToUtf()/UtfToLocal()
// (src/backend/utils/mb/conv.c) character by character, including how the
// combined-character lookahead of EUC_JIS_2004 and SHIFT_JIS_2004 reports
// errors in the character after the current one.
//
// Lookups are constant time, in the generated dense tables (tables/dense.hpp,
// constant data): rows indexed by the bytes of a code (decoding), two-level
// pages indexed by code point (encoding), GB18030's four-byte ranges by
// arithmetic on a rank index. Only the 25 combined pairs keep a binary search.
#include <array>
#include <cstring>

#include "codec_table.hpp"
#include "codecs/ascii_copy.hpp"
#include "codecs/codec_ops.hpp"
#include "codecs/sinks.hpp"
#include "rules/grammar.hpp"
#include "rules/utf8.hpp"
#include "tables/dense.hpp"
#include "tables/table.hpp"

namespace pgcodec::detail {
namespace {

// Output cursor with capacity checks.
struct Out {
  std::span<char> buf;
  std::size_t w = 0;
  bool fits(std::size_t n) const { return buf.size() - w >= n; }
  void put(const void* p, std::size_t n) {
    copy_bytes(buf.data() + w, p, n);
    w += n;
  }
  void utf8(std::uint32_t cp) { w += write_utf8(buf.data() + w, cp); }
  void code(std::uint32_t c) { w += write_code(buf.data() + w, c); }
  // Copies the ASCII run at in[i] (all encodings pass it through) as far as
  // it fits; false when the output filled up first.
  bool ascii(const kernels::Kernel& k, const unsigned char* in, std::size_t n, std::size_t& i) {
    const std::size_t run = k.ascii_run(in + i, n - i);
    const std::size_t take = fits(run) ? run : buf.size() - w;
    put(in + i, take);
    i += take;
    return take == run;
  }
};

// Sets what a conversion returns. `r` is the function's own return value
// (named return value: built in place, never copied; a copy of a Result
// whose fields were just stored one by one stalls on store forwarding, 20
// ns of an 8-byte call).
void finish(Result& r, std::size_t i, const Out& o) {
  r.consumed = i;
  r.written = o.w;
}

// One decoder for every output: UTF-8 (decode) and each code unit form
// (decode_units), through the sink S (codecs/sinks.hpp).
template <class S>
Result decode_to(const CodecRow& row, std::string_view in, S sink, typename S::Unit* const ob,
                 const std::size_t cap, ErrorMode mode, bool final, const kernels::Kernel& k) noexcept {
  const MultibyteDense& d = *row.tables.multibyte;
  const Encoding enc = row.encoding;
  const bool fast = k.table_shortcuts;
  const char32_t limit = sink.limit();
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = 0, w = 0;
  Result r;
  // Stores the code points of one character (cp2 == 0: one), or says why
  // not: Status::Wider or Status::OutputFull.
  auto put = [&](std::uint32_t cp1, std::uint32_t cp2) -> bool {
    if (cp1 > limit || cp2 > limit) {
      r.status = Status::Wider;
      return false;
    }
    if (cap - w < S::units(cp1) + (cp2 ? S::units(cp2) : 0)) {
      r.status = Status::OutputFull;
      return false;
    }
    w += S::store(ob + w, cp1);
    if (cp2) w += S::store(ob + w, cp2);
    return true;
  };
  auto fail = [&](ErrorKind kind, std::size_t skip) -> bool {
    if (mode == ErrorMode::Strict) {
      r.status = Status::Error;
      r.error = make_error(kind, enc, Encoding::UTF8, in, i, skip);
      return true;
    }
    if (!put(0xFFFD, 0)) return true;
    i += skip;
    return false;
  };
  while (i < n) {
    if (fast) {
      // The common case in a loop of its own, over locals only (a store
      // through char* may alias anything, so the tables' members and the
      // variables the lambdas above capture would be reloaded after every
      // store): ASCII, and two-byte codes with an entry, which by
      // construction of the tables are well-formed characters of exactly two
      // bytes (the generator records only sequences the structural rules
      // accept as one character), so they need no further checks. Anything
      // else goes to the general step below, one character, and back here.
      const TwoByteRows two{d.two, d.values};
      const std::uint16_t* const one = d.one;
      // Three-byte codes (EUC_JP's JIS X 0212, 8F xx xx; EUC_TW's, EUC_JIS_
      // 2004's), where no two-byte code matched: an entry is a whole
      // character too (Dense.ThreeByteEntriesAreWholeCharacters checks
      // every one against the grammar).
      const ThreeByteCodes three(d);
      const bool has_linear = d.decode_linear.run_count != 0;
      std::size_t fi = i, fw = w;
      while (fi < n) {
        const unsigned b = p[fi];
        if (b - 1u < 0x7Fu) {
          if (!copy_ascii_units(k, p, n, fi, ob, cap, fw)) break;
          continue;
        }
        if (b == 0) break;
        // A high byte that is a character on its own (SJIS's half-width
        // katakana A1..DF): the table has it only where the structural
        // rules make it one.
        if (const std::uint16_t v1 = one[b & 0x7Fu];
            v1 != 0 && !(v1 >= kWideFirst && v1 < kWideEnd) && v1 <= limit && cap - fw >= 4) {
          fw += S::store(ob + fw, v1);
          ++fi;
          continue;
        }
        if (n - fi < 2) break;
        const std::uint16_t v = two(b, p[fi + 1]);
        if (!v && has_linear && n - fi >= 4) {
          // GB18030's four-byte codes, computed from ranges (as PostgreSQL
          // does): the grammar is the byte ranges checked here, and every
          // four-byte code of GB18030 is in a run or has no equivalent.
          const unsigned b2 = p[fi + 1], b3 = p[fi + 2], b4 = p[fi + 3];
          if (b - 0x81u > 0x7Du || b2 - 0x30u > 9u || b3 - 0x81u > 0x7Du || b4 - 0x30u > 9u) break;
          std::uint32_t cp;
          if (!dense_decode_linear(d, (std::uint32_t{b} << 24) | (b2 << 16) | (b3 << 8) | b4, cp) || cp > limit ||
              cap - fw < 4)
            break;
          fw += S::store(ob + fw, cp);
          fi += 4;
          continue;
        }
        if (!v && n - fi >= 3) {
          const std::uint16_t v3 = three(b, p[fi + 1], p[fi + 2]);
          if (!v3 || (v3 >= kWideFirst && v3 < kWideEnd) || cap - fw < 4 || v3 > limit) break;
          fw += S::store(ob + fw, v3);
          fi += 3;
          continue;
        }
        if (!v || (v >= kWideFirst && v < kWideEnd) || cap - fw < 4 || v > limit) break;
        fw += S::store(ob + fw, v);  // SHIFT_JIS_2004's 81 5F and 81 B0 decode to ASCII
        fi += 2;
      }
      i = fi;
      w = fw;
      if (i == n) break;
    }
    if (p[i] - 1u < 0x7Fu) {  // an ASCII run
      if (copy_ascii_units(k, p, n, i, ob, cap, w)) continue;
      r.status = Status::OutputFull;
      break;
    }
    if (p[i] == 0) {
      if (fail(ErrorKind::InvalidByteSequence, 1)) break;
      continue;
    }
    const int l = verify_char(enc, p + i, n - i);
    if (l < 0) {
      if (!final && cut_off_by_end(enc, p + i, n - i)) break;
      if (fail(ErrorKind::InvalidByteSequence, 1)) break;
      continue;
    }
    const auto len = static_cast<std::size_t>(l);
    std::uint32_t cp1 = 0, cp2 = 0;
    if (!dense_decode(d, p + i, len, cp1, cp2)) {
      if (fail(ErrorKind::NoEquivalent, len)) break;
      continue;
    }
    if (!put(cp1, cp2)) break;
    i += len;
  }
  r.consumed = i;
  r.written = w;
  return r;
}

Result decode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              bool final, const kernels::Kernel& k) noexcept {
  return decode_to(row, in, Utf8Sink{}, out.data(), out.size(), mode, final, k);
}

Result decode_units(const CodecRow& row, std::string_view in, const UnitBuffer& out, ErrorMode mode,
                    bool final, const kernels::Kernel& k) noexcept {
  return with_unit_sink(out, [&](auto sink, auto* ob, std::size_t cap) {
    return decode_to(row, in, sink, ob, cap, mode, final, k);
  });
}

Result encode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              const kernels::Kernel& k) noexcept {
  const MultibyteDense& d = *row.tables.multibyte;
  const Encoding enc = row.encoding;
  const bool fast = k.table_shortcuts;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  const bool combined = d.pair_count != 0;
  Out o{out};
  std::size_t i = 0;
  Result r;
  // Reports an error at `at`, or in Replace mode writes '?' and moves past it.
  auto fail = [&](ErrorKind kind, std::size_t at, std::size_t skip, std::size_t quote_avail) -> bool {
    if (mode == ErrorMode::Strict) {
      r.status = Status::Error;
      r.error = make_error(kind, Encoding::UTF8, enc, in.substr(0, at + quote_avail), at, skip);
      i = at;
      return true;
    }
    if (!o.fits(1)) {
      r.status = Status::OutputFull;
      return true;
    }
    o.put("?", 1);
    i = at + skip;
    return false;
  };
  while (i < n) {
    if (fast) {
      // The common case in a loop of its own, over locals only (see decode):
      // ASCII, and (in an encoding without combined characters) three-byte
      // UTF-8 characters, all of CJK, whose code point has a two-byte code
      // (a page entry >= 0x8000: two bytes with a high lead). ASCII is never
      // part of a combined character, so the encodings that have them take
      // ASCII here too.
      const CodePages pages{d.page_of, d.page_count, d.pages};
      char* const ob = o.buf.data();
      const std::size_t cap = o.buf.size();
      std::size_t fi = i, fw = o.w;
      while (fi < n) {
        const unsigned c0 = p[fi];
        if (c0 - 1u < 0x7Fu) {
          if (!copy_ascii(k, p, n, fi, ob, cap, fw)) break;
          continue;
        }
        if (combined || (c0 & 0xF0u) != 0xE0u || n - fi < 3 || cap - fw < 2) break;
        const unsigned c1 = p[fi + 1], c2 = p[fi + 2];
        const bool ok = (c1 & 0xC0u) == 0x80u && (c2 & 0xC0u) == 0x80u &&
                        (c0 != 0xE0 || c1 >= 0xA0) && (c0 != 0xED || c1 < 0xA0);
        if (!ok) break;
        const std::uint32_t cp = ((c0 & 0x0Fu) << 12) | ((c1 & 0x3Fu) << 6) | (c2 & 0x3Fu);
        const std::uint32_t code = pages(cp);
        if (code < 0x8000u) break;  // none, one byte, or a longer code
        ob[fw] = static_cast<char>(code >> 8);
        ob[fw + 1] = static_cast<char>(code & 0xFF);
        fw += 2;
        fi += 3;
      }
      i = fi;
      o.w = fw;
      if (i == n) break;
    }
    if (p[i] - 1u < 0x7Fu) {  // an ASCII run
      if (o.ascii(k, p, n, i)) continue;
      r.status = Status::OutputFull;
      break;
    }
    const std::size_t l = p[i] ? utf8_multibyte_length(p + i, n - i) : 0;
    if (!l) {
      if (fail(ErrorKind::InvalidByteSequence, i, 1, n - i)) break;
      continue;
    }
    const std::uint32_t cp = utf8_decode_multibyte(p + i, l);
    std::uint32_t code = 0;
    if (combined && n - i > l) {
      // UtfToLocal looks at the next character before converting this one.
      const std::size_t j = i + l;
      const auto l2 = static_cast<std::size_t>(char_length(Encoding::UTF8, p + j, n - j));
      if (n - j < l2) {
        // The next character is cut off: PostgreSQL reports *this* one as
        // invalid, quoting its bytes up to what is left after it. Replace
        // mode converts this one on its own and replaces the next
        // (docs/semantics.md: only what is malformed or unmappable is
        // replaced).
        if (mode == ErrorMode::Strict) {
          fail(ErrorKind::InvalidByteSequence, i, 1, n - j);
          break;
        }
      } else if (!utf8_legal(p + j, l2, n - j)) {
        if (mode == ErrorMode::Strict) {
          r.status = Status::Error;
          r.error = make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8, enc, in, j, 1);
          break;
        }
        // Replace mode: convert this character normally; the next round
        // replaces the bad one.
      } else if (l2 > 1 &&
                 dense_encode_pair(d, cp, utf8_decode_multibyte(p + j, l2), code)) {
        if (!o.fits(code_length(code))) {
          r.status = Status::OutputFull;
          break;
        }
        o.code(code);
        i = j + l2;
        continue;
      }
    }
    if (!dense_encode(d, cp, code)) {
      if (fail(ErrorKind::NoEquivalent, i, l, n - i)) break;
      continue;
    }
    if (!o.fits(code_length(code))) {
      r.status = Status::OutputFull;
      break;
    }
    o.code(code);
    i += l;
  }
  finish(r, i, o);
  return r;
}

// The distinct second code points of an encoding's pairs (U+0300, U+0301,
// U+02E5, U+02E9, U+309A in both encodings that have pairs) and a mask of
// their low 6 bits, worked out once per encoding: doing it on every call was
// most of an 8-byte encode's time (perf).
struct Seconds {
  std::uint32_t cp[32];
  std::size_t count = 0;
  std::uint64_t bits = 0;
  bool fits = true;  // false: more than 32, which encode_prefix is not for
};

const Seconds& seconds_of(Encoding e) noexcept {
  static const auto all = [] {
    std::array<Seconds, encoding_count> a{};
    for (int k = 0; k < encoding_count; ++k) {
      const MultibyteDense* d = codec_row(static_cast<Encoding>(k)).tables.multibyte;
      if (!d) continue;
      Seconds& s = a[static_cast<std::size_t>(k)];
      for (std::uint32_t p = 0; p < d->pair_count && s.fits; ++p) {
        const std::uint32_t cp2 = d->pairs[p].cp2;
        if (std::find(s.cp, s.cp + s.count, cp2) != s.cp + s.count) continue;
        if (s.count == std::size(s.cp)) {
          s.fits = false;
          break;
        }
        s.cp[s.count++] = cp2;
        s.bits |= std::uint64_t{1} << (cp2 & 63u);
      }
    }
    return a;
  }();
  return all[static_cast<std::size_t>(to_int(e))];
}

// encode_units' fast path: what encode() (above) does for a character,
// read from code units: ASCII other than NUL as itself, any other character
// by its table code (dense_encode: pages, wide codes, GB18030's four-byte
// runs). What is no character (NUL, a surrogate, a unit above U+10FFFF),
// has no code or finds no room stops it, for the block path to report or
// replace. With combined characters (EUC_JIS_2004, SHIFT_JIS_2004) encode()
// looks at the next character first: a character is taken here only when
// that look cannot matter, that is when a next character exists, is no
// second half of any pair (`seconds`: U+0300, U+0301, U+02E5, U+02E9,
// U+309A) and is a character (encode() reports a malformed next one before
// this one); the last unit is always left to the block path (which holds
// it back in a chunk of a longer text).
template <bool kCombined, class Unit>
std::size_t encode_prefix(const MultibyteDense& d, const Unit* u, std::size_t i, std::size_t n, char* ob,
                          std::size_t cap, std::size_t& w, bool final, const Seconds* sec) noexcept {
  const CodePages pages{d.page_of, d.page_count, d.pages};
  const std::uint64_t second_bits = kCombined ? sec->bits : 0;
  const std::uint32_t* const seconds = kCombined ? sec->cp : nullptr;
  const std::size_t second_count = kCombined ? sec->count : 0;
  std::size_t fw = w;
  while (i < n) {
    // The common case in a compact loop: ASCII, any code a page entry gives,
    // and GB18030's four-byte ranges, with room for four bytes a character
    // checked once per run. The general step below spreads over so many
    // branches that its taken jumps, not its loads, bounded it at about 2 ns
    // a character. No surrogate, NUL or unit above U+10FFFF has a page entry
    // or a range; they, and what has no code, go to the general step.
    // (Computing both cases and choosing without a branch was slower: each
    // store's position then waits for the previous character's two loads.)
    if (d.page_count) {
      const std::size_t stop = std::min(kCombined ? n - 1 : n, i + (cap - fw) / 4);
      const std::uint32_t last_page = d.page_count - 1;
      // Locals: a store through ob (a char) could alias d's members, and the
      // compiler would load them again after every character.
      const std::uint16_t* const page_of = d.page_of;
      const std::uint16_t* const page_data = d.pages;
      const std::uint32_t* const wide_codes = d.wide_codes;
      while (i < stop) {
        const std::uint32_t cp = u[i];
        if constexpr (kCombined) {
          // The next unit is a character and no second of a pair (see below).
          const std::uint32_t next = u[i + 1];
          if (!(next - 1u < 0xD7FFu || next - 0xE000u < 0x102000u) || ((second_bits >> (next & 63u)) & 1u)) break;
        }
        if (cp - 1u < 0x7Fu) {
          ob[fw++] = static_cast<char>(cp);
          ++i;
          continue;
        }
        const std::uint32_t pg = cp >> 8;
        const std::uint32_t e = pg <= last_page ? page_of[pg] : 0u;
        const std::uint32_t v = e ? page_data[(e - 1u) * 256u + (cp & 0xFFu)] : 0u;
        if (v >= 0x8000u) {  // two bytes, the common case
          ob[fw] = static_cast<char>(v >> 8);
          ob[fw + 1] = static_cast<char>(v & 0xFFu);
          fw += 2;
        } else if (v - 1u < 0xFFu) {  // a one-byte code (SJIS's half-width katakana)
          ob[fw++] = static_cast<char>(v);
        } else if (v >= kWideCodeFirst) {  // three or four bytes (JIS X 0212, GB18030)
          fw += write_code(ob + fw, wide_codes[v - kWideCodeFirst]);
        } else {
          // No page entry: GB18030's four-byte ranges, or no code. NUL, a
          // surrogate (a UTF-16 unit: its pair is the block path's) and a
          // unit above U+10FFFF go to the general step, which stops for them.
          // (dense_encode_entry says the same for all of these cases; called
          // here it made the loop four times slower on SJIS kana: perf.)
          std::uint32_t code;
          if (cp - 0x80u >= 0x10FF80u || cp - 0xD800u < 0x800u || !dense_encode_linear(d, cp, code)) break;
          ob[fw] = static_cast<char>(code >> 24);
          ob[fw + 1] = static_cast<char>(code >> 16);
          ob[fw + 2] = static_cast<char>(code >> 8);
          ob[fw + 3] = static_cast<char>(code);
          fw += 4;
        }
        ++i;
      }
      if (i == n) break;
    }
    const std::uint32_t cp = u[i];
    // With combined characters a chunk's last unit waits for the block path
    // (it is held back, ASCII included, as encode_partial holds it back);
    // the text's last combines with nothing after it.
    if (kCombined && i + 1 == n && !final) break;
    if (cp - 1u < 0x7Fu) {  // ASCII: never part of a combined character
      if (fw == cap) break;
      ob[fw++] = static_cast<char>(cp);
      ++i;
      continue;
    }
    if (cp == 0 || cp - 0xD800u < 0x800u || cp > 0x10FFFFu) break;
    if (kCombined && i + 1 < n) {
      const std::uint32_t next = u[i + 1];
      if (next == 0 || next - 0xD800u < 0x800u || next > 0x10FFFFu) break;
      // A mask of the seconds' low 6 bits turns most characters away
      // before the loop (kanji and kana are no second code point).
      if ((second_bits >> (next & 63u)) & 1u) {
        bool second = false;
        for (std::size_t s = 0; s < second_count; ++s) second |= next == seconds[s];
        if (second) break;
      }
    }
    std::uint32_t code = pages(cp);
    if (code >= 0x8000u) {  // two bytes, the common case
      if (cap - fw < 2) break;
      ob[fw] = static_cast<char>(code >> 8);
      ob[fw + 1] = static_cast<char>(code & 0xFF);
      fw += 2;
      ++i;
      continue;
    }
    // The page entry already read says the rest (a wide code, a one-byte
    // code, GB18030's four-byte runs, or no code).
    if (!dense_encode_entry(d, cp, static_cast<std::uint16_t>(code), code) || cap - fw < code_length(code)) break;
    fw += write_code(ob + fw, code);
    ++i;
  }
  w = fw;
  return i;
}

std::size_t encode_units_prefix(const CodecRow& row, const UnitText& in, std::size_t i, std::span<char> out,
                                std::size_t& w, bool final, const kernels::Kernel& k) noexcept {
  const MultibyteDense& d = *row.tables.multibyte;
  if (!k.table_shortcuts) return i;
  if (d.pair_count == 0) {
    return with_units(in, [&](const auto* u) {
      return encode_prefix<false>(d, u, i, in.length, out.data(), out.size(), w, final, nullptr);
    });
  }
  const Seconds& sec = seconds_of(row.encoding);
  if (!sec.fits) return i;  // more than this loop is for: the block path
  return with_units(in, [&](const auto* u) {
    return encode_prefix<true>(d, u, i, in.length, out.data(), out.size(), w, final, &sec);
  });
}

}  // namespace

// A byte may decode to U+FFFD (3 bytes), a two-byte character to two code
// points (6 bytes); a two-byte UTF-8 character may encode to four bytes
// (GB18030).
const CodecOps multibyte_ops = {&decode, &encode, &decode_units, 3, 2, &encode_units_prefix};

}  // namespace pgcodec::detail
