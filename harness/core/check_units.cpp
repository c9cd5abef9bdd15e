// check_units: the code-unit paths (Codec::decode_units, encode_units, and
// the C API's twins) against the UTF-8 path, which the rest of the harness
// judges against PostgreSQL's rules. See checks.hpp.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/checks.hpp"
#include "core/page_end.hpp"
#include "core/text.hpp"
#include "pgcodec/pgcodec.h"
#include "rules/utf8.hpp"
#include "units.hpp"

namespace pgcodec::harness {
namespace {

std::string failure(int line, const char* what, const std::string& detail = {}) {
  std::string s = "harness/core/check_units.cpp:" + std::to_string(line) + ": " + what;
  if (!detail.empty()) s += " (" + detail + ")";
  return s;
}

#define UNITS_EXPECT(cond, ...)                                                  \
  do {                                                                           \
    if (!(cond)) return failure(__LINE__, #cond __VA_OPT__(, ) __VA_ARGS__);     \
  } while (0)

const char* form_name(UnitForm f) {
  switch (f) {
    case UnitForm::Latin1: return "Latin1";
    case UnitForm::Ucs2: return "Ucs2";
    case UnitForm::Utf16: return "Utf16";
    case UnitForm::Utf32: break;
  }
  return "Utf32";
}
std::size_t unit_size(UnitForm f) {
  return f == UnitForm::Latin1 ? 1 : f == UnitForm::Utf32 ? 4 : 2;
}
char32_t form_max(UnitForm f) {
  return f == UnitForm::Latin1 ? 0xFF : f == UnitForm::Ucs2 ? 0xFFFF : 0x10FFFF;
}

// Code points of well-formed UTF-8 (the library's decode output).
std::vector<char32_t> code_points(std::string_view utf8) {
  std::vector<char32_t> cps;
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  for (std::size_t i = 0; i < utf8.size();) {
    const std::size_t l = p[i] < 0x80 ? 1 : detail::utf8_multibyte_length(p + i, utf8.size() - i);
    cps.push_back(l == 1 ? p[i] : detail::utf8_decode_multibyte(p + i, l));
    i += std::max<std::size_t>(l, 1);
  }
  return cps;
}

// Code points as units of a form (UTF-16: pairs above U+FFFF).
std::vector<char32_t> as_units(const std::vector<char32_t>& cps, UnitForm f) {
  std::vector<char32_t> u;
  for (const char32_t cp : cps) {
    if (f == UnitForm::Utf16 && cp > 0xFFFF) {
      u.push_back(0xD7C0 + (cp >> 10));
      u.push_back(0xDC00 | (cp & 0x3FF));
    } else {
      u.push_back(cp);
    }
  }
  return u;
}

// A buffer of units of any form, with a guard band after `cap` units.
struct Units {
  UnitForm form;
  std::size_t cap;
  std::vector<unsigned char> bytes;
  static constexpr std::size_t kGuard = 16;
  Units(UnitForm f, std::size_t c, unsigned char fill)
      : form(f), cap(c), bytes((c + kGuard) * unit_size(f) + 4, fill) {}
  void* data() {  // aligned for every unit size
    auto a = reinterpret_cast<std::uintptr_t>(bytes.data());
    return bytes.data() + ((4 - a % 4) % 4);
  }
  char32_t at(std::size_t i) {
    const unsigned char* p = static_cast<unsigned char*>(data());
    switch (unit_size(form)) {
      case 1: return p[i];
      case 2: return reinterpret_cast<const char16_t*>(p)[i];
      default: return reinterpret_cast<const char32_t*>(p)[i];
    }
  }
  bool guard_intact(unsigned char fill) {
    const unsigned char* p = static_cast<unsigned char*>(data());
    for (std::size_t i = cap * unit_size(form); i < (cap + kGuard) * unit_size(form); ++i)
      if (p[i] != fill) return false;
    return true;
  }
};

std::string describe_result(const Result& r) {
  std::string s = "status " + std::to_string(static_cast<int>(r.status)) + " consumed " +
                  std::to_string(r.consumed) + " written " + std::to_string(r.written);
  if (r.status == Status::Error)
    s += " error@" + std::to_string(r.error.offset) + " skip " + std::to_string(r.error.skip) + ": " +
         r.error.message();
  return s;
}

bool same_error(const Error& a, const Error& b) {
  return a.kind == b.kind && a.encoding == b.encoding && a.target == b.target && a.length == b.length &&
         a.bytes == b.bytes && a.message() == b.message();
}

CheckResult check_decode_units(const Codec& c, ErrorMode mode, std::string_view bytes, std::size_t small) {
  const PageEnd at_end(bytes);  // a read past the input faults
  const std::string_view in = at_end.view();
  for (const bool final : {true, false}) {
    std::vector<char> big(*c.max_decoded_size(in.size()) + 1);
    const Result r8 = final ? c.decode(in, big, mode) : c.decode_partial(in, big, mode);
    const std::vector<char32_t> cps = code_points(std::string_view(big.data(), r8.written));
    for (const UnitForm f : {UnitForm::Utf16, UnitForm::Utf32, UnitForm::Ucs2, UnitForm::Latin1}) {
      const std::vector<char32_t> want = as_units(cps, f);
      // Whole, into max_decoded_units: the UTF-8 result, unless a code
      // point is too wide for the form (then Wider, before the first such).
      for (const char32_t limit : {form_max(f), char32_t{0x7F}}) {
        const std::string where = std::string(form_name(f)) + " limit " + std::to_string(limit) +
                                  (final ? "" : " partial");
        Units buf(f, Codec::max_decoded_units(in.size()), 0xA5);
        const Result r = c.decode_units(in, {buf.data(), buf.cap, f, limit}, mode, final);
        UNITS_EXPECT(buf.guard_intact(0xA5), where);
        UNITS_EXPECT(r.written <= buf.cap, where);
        std::size_t wide = 0;  // units before the first code point above limit
        while (wide < want.size() && want[wide] <= limit) ++wide;
        if (wide == want.size()) {
          UNITS_EXPECT(r.status == r8.status && r.consumed == r8.consumed && r.written == want.size(),
                       where + ": " + describe_result(r8) + " vs " + describe_result(r));
          if (r.status == Status::Error) {
            UNITS_EXPECT(same_error(r.error, r8.error) && r.error.offset == r8.error.offset &&
                             r.error.skip == r8.error.skip,
                         where + ": " + describe_result(r8) + " vs " + describe_result(r));
          }
        } else {
          // A character of two code points (EUC_JIS_2004's and
          // SHIFT_JIS_2004's pairs: æ̀ is U+00E6 U+0300) is stored whole or
          // not at all: where only its second is too wide, the stop comes
          // before its first. Taken so only where the character at the stop
          // decodes to exactly those two code points.
          if (wide > 0 && r.status == Status::Wider && r.written + 1 == wide && r.consumed < in.size()) {
            const std::size_t len = c.char_length(in, r.consumed);
            std::vector<char> one(c.max_decoded_size(len).value_or(64));
            const Result r1 = len ? c.decode(in.substr(r.consumed, len), one, mode) : Result{};
            const std::vector<char32_t> pair = code_points(std::string_view(one.data(), r1.written));
            if (r1.ok() && pair.size() == 2 && pair[0] == want[wide - 1] && pair[1] == want[wide]) wide -= 1;
          }
          UNITS_EXPECT(r.status == Status::Wider && r.written == wide,
                       where + ": want Wider after " + std::to_string(wide) + ", " + describe_result(r));
          // The rest, from where it stopped, in UTF-32: the remaining units.
          Units rest(UnitForm::Utf32, Codec::max_decoded_units(in.size()), 0);
          const Result r2 = c.decode_units(in.substr(r.consumed),
                                           {rest.data(), rest.cap, UnitForm::Utf32, 0x10FFFF}, mode, final);
          // The code points before the stop: those `wide` units of this form.
          std::size_t cps_before = 0;
          for (std::size_t u = 0; u < wide; ++cps_before) u += as_units({cps[cps_before]}, f).size();
          UNITS_EXPECT(r2.status == r8.status && r.consumed + r2.consumed == r8.consumed &&
                           r2.written == cps.size() - cps_before,
                       where + ": continued " + describe_result(r2) + " vs " + describe_result(r8));
          for (std::size_t i = 0; i < r2.written; ++i)
            UNITS_EXPECT(rest.at(i) == cps[cps_before + i], where + ": continued unit " + std::to_string(i));
          if (r2.status == Status::Error)
            UNITS_EXPECT(same_error(r2.error, r8.error) && r.consumed + r2.error.offset == r8.error.offset,
                         where);
        }
        for (std::size_t i = 0; i < std::min(r.written, want.size()); ++i)
          UNITS_EXPECT(buf.at(i) == want[i], where + ": unit " + std::to_string(i));
      }
      // A small buffer: a prefix, OutputFull when smaller than the whole,
      // nothing stored past it, and the rest continues from `consumed`. In
      // UCS-2 and Latin-1 where every code point fits the form (else Wider
      // comes first, checked above).
      if (f == UnitForm::Utf16 || f == UnitForm::Utf32 ||
          std::all_of(want.begin(), want.end(), [&](char32_t u) { return u <= form_max(f); })) {
        const std::size_t room = small % (want.size() + 1);
        for (const unsigned char fill : {std::uint8_t{0xA5}, std::uint8_t{0x5A}}) {
          Units buf(f, room, fill);
          const Result r = c.decode_units(in, {buf.data(), room, f, form_max(f)}, mode, final);
          UNITS_EXPECT(buf.guard_intact(fill), std::string(form_name(f)) + " small");
          UNITS_EXPECT(r.written <= room);
          for (std::size_t i = 0; i < r.written; ++i) UNITS_EXPECT(buf.at(i) == want[i], "small prefix");
          if (room < want.size()) {
            UNITS_EXPECT(r.status == Status::OutputFull || (r.status == r8.status && r.status == Status::Error),
                         describe_result(r));
            if (r.status == Status::OutputFull) {
              Units rest(f, Codec::max_decoded_units(in.size()), 0);
              const Result r2 = c.decode_units(in.substr(r.consumed), {rest.data(), rest.cap, f, form_max(f)},
                                               mode, final);
              UNITS_EXPECT(r2.status == r8.status && r.consumed + r2.consumed == r8.consumed &&
                               r.written + r2.written == want.size(),
                           "continued after OutputFull: " + describe_result(r2));
              for (std::size_t i = 0; i < r2.written; ++i)
                UNITS_EXPECT(rest.at(i) == want[r.written + i], "continued after OutputFull");
            }
          }
        }
      }
    }
    // The C API: the same fields.
    {
      std::vector<char16_t> u16(Codec::max_decoded_units(in.size()) + 1);
      const pgcodec_result cr =
          pgcodec_decode_units(pgcodec_by_id(to_int(c.encoding())), in.data(), in.size(), u16.data(),
                               u16.size(), PGCODEC_UTF16, 0x10FFFF, mode == ErrorMode::Strict ? 0 : 1, final);
      const Result r = c.decode_units(in, {u16.data(), u16.size(), UnitForm::Utf16, 0x10FFFF}, mode, final);
      UNITS_EXPECT(cr.status == static_cast<int>(r.status) && cr.consumed == r.consumed && cr.written == r.written &&
                   (r.status != Status::Error ||
                    (cr.error_offset == r.error.offset && cr.error_skip == r.error.skip &&
                     cr.error_length == r.error.length)));
    }
  }
  return std::nullopt;
}

// The units a UTF-8 input stands for: its characters, and each byte that
// is no part of one as a lone surrogate: U+DC80 + byte below C0 (as
// Python's surrogateescape), U+D800 + byte from C0 (high surrogates, which a
// following low one would join in UTF-16). `ref` is the UTF-8 the library must see for them
// (Strict mode): each unit's generalized UTF-8 (ED B2 80 for U+DC80).
struct Text {
  std::vector<char32_t> cps;
  std::vector<bool> valid;
};
Text text_of(std::string_view in) {
  Text t;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  for (std::size_t i = 0; i < in.size();) {
    std::size_t l = p[i] < 0x80 ? 1 : detail::utf8_multibyte_length(p + i, in.size() - i);
    if (l == 0) {
      t.cps.push_back((p[i] >= 0xC0 ? 0xD800u : 0xDC00u) + p[i]);
      t.valid.push_back(false);
      ++i;
      continue;
    }
    t.cps.push_back(l == 1 ? p[i] : detail::utf8_decode_multibyte(p + i, l));
    t.valid.push_back(true);
    i += l;
  }
  return t;
}
std::string generalized(char32_t v) {
  std::string s;
  if (v < 0x80) {
    s += static_cast<char>(v);
  } else if (v < 0x800) {
    s += static_cast<char>(0xC0 | (v >> 6));
    s += static_cast<char>(0x80 | (v & 0x3F));
  } else if (v < 0x10000) {
    s += static_cast<char>(0xE0 | (v >> 12));
    s += static_cast<char>(0x80 | ((v >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (v & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (v >> 18));
    s += static_cast<char>(0x80 | ((v >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((v >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (v & 0x3F));
  }
  return s;
}

// What encode_units must give for the units of `t` in `mode`, from the
// UTF-8 path: Strict, the encode of the generalized UTF-8 with its
// positions as units; Replace, the valid stretches each encoded in Replace
// mode and one '?' per unit that is no character.
struct Want {
  Result r;  // positions in code points
  std::string out;
};
Want expected_encode(const Codec& c, const Text& t, ErrorMode mode) {
  Want w;
  if (mode == ErrorMode::Strict) {
    std::string bytes;
    std::vector<std::size_t> start;  // byte offset of each code point
    for (const char32_t cp : t.cps) {
      start.push_back(bytes.size());
      bytes += generalized(cp);
    }
    std::vector<char> out(*c.max_encoded_size(bytes.size()) + 1);
    w.r = c.encode(bytes, out, mode);
    w.out.assign(out.data(), w.r.written);
    auto index = [&](std::size_t at) {
      return static_cast<std::size_t>(std::lower_bound(start.begin(), start.end(), at) - start.begin());
    };
    w.r.consumed = index(w.r.consumed);
    if (w.r.status == Status::Error) {
      w.r.error.offset = index(w.r.error.offset);
      w.r.error.skip = 1;
    }
    return w;
  }
  std::string piece;
  auto flush = [&] {
    std::vector<char> out(*c.max_encoded_size(piece.size()) + 1);
    const Result r = c.encode(piece, out, mode);
    w.out.append(out.data(), r.written);
    piece.clear();
  };
  for (std::size_t k = 0; k < t.cps.size(); ++k) {
    if (t.valid[k]) {
      piece += generalized(t.cps[k]);
    } else {
      flush();
      w.out += '?';
    }
  }
  flush();
  w.r.consumed = t.cps.size();
  w.r.written = w.out.size();
  return w;
}

CheckResult check_encode_units(const Codec& c, ErrorMode mode, std::string_view in, std::size_t small) {
  const Text t = text_of(in);
  const Want want = expected_encode(c, t, mode);
  const char32_t widest = t.cps.empty() ? 0 : *std::max_element(t.cps.begin(), t.cps.end());
  for (const UnitForm f : {UnitForm::Utf16, UnitForm::Utf32, UnitForm::Ucs2, UnitForm::Latin1}) {
    if (widest > form_max(f)) continue;
    // The text in this form; index[k] = the unit of code point k.
    std::vector<unsigned char> data;
    std::vector<std::size_t> index;
    std::size_t n = 0;
    auto push = [&](char32_t u) {
      const std::size_t z = unit_size(f);
      for (std::size_t b = 0; b < z; ++b) data.push_back(static_cast<unsigned char>(u >> (8 * b)));
      ++n;
    };
    for (const char32_t cp : t.cps) {
      index.push_back(n);
      if (f == UnitForm::Utf16 && cp > 0xFFFF) {
        push(0xD7C0 + (cp >> 10));
        push(0xDC00 | (cp & 0x3FF));
      } else {
        push(cp);
      }
    }
    index.push_back(n);
    // A lone high surrogate followed by a low one would be a pair in UTF-16:
    // such inputs (two escaped bytes ED B0..) are not this text in UTF-16.
    if (f == UnitForm::Utf16) {
      bool joined = false;
      for (std::size_t k = 0; k + 1 < t.cps.size(); ++k)
        joined |= t.cps[k] - 0xD800 < 0x400 && t.cps[k + 1] - 0xDC00 < 0x400;
      if (joined) continue;
    }
    // At a page end (aligned for any unit: the page is): a read past the
    // units faults.
    const PageEnd aligned(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
    const UnitText text{aligned.data(), n, f};
    const std::string where = form_name(f);
    // Exactly the bound the library promises (max_encoded_units_size):
    // a status other than the UTF-8 path's says it did not suffice.
    std::vector<char> out(*c.max_encoded_units_size(n, f));
    const Result r = c.encode_units(text, out, mode);
    const std::string got(out.data(), std::min(r.written, out.size()));
    UNITS_EXPECT(got == want.out, where + ": " + hex_bytes(want.out) + " vs " + hex_bytes(got));
    UNITS_EXPECT(r.status == want.r.status && r.consumed == index[want.r.consumed],
                 where + ": " + describe_result(want.r) + " vs " + describe_result(r));
    if (r.status == Status::Error) {
      UNITS_EXPECT(same_error(r.error, want.r.error) && r.error.offset == index[want.r.error.offset],
                   where + ": " + describe_result(want.r) + " vs " + describe_result(r));
      const std::size_t k = want.r.error.offset;
      const std::size_t units = index[k + 1] - index[k];
      UNITS_EXPECT(r.error.skip == (r.error.kind == ErrorKind::NoEquivalent ? units : 1), describe_result(r));
    }
    // Blocks of a few bytes (the library uses 4 KiB): the same result, so
    // every block end is exercised, whatever lies across it.
    {
      const std::size_t block = small % 13 + 1;
      std::vector<char> bout(out.size());
      const Result b = detail::encode_units_in_blocks(c, text, bout, mode, true, block);
      UNITS_EXPECT(b.status == r.status && b.consumed == r.consumed &&
                       std::string_view(bout.data(), b.written) == got &&
                       (r.status != Status::Error || (same_error(b.error, r.error) && b.error.offset == r.error.offset &&
                                                      b.error.skip == r.error.skip)),
                   where + " in blocks of " + std::to_string(block) + ": " + describe_result(r) + " " + hex_bytes(got) +
                       " vs " + describe_result(b) + " " + hex_bytes(std::string(bout.data(), b.written)));
    }
    // A small buffer gives a prefix and continues.
    const std::size_t room = small % (got.size() + 1);
    std::vector<char> sbuf(room + 16, '\x5A');
    const Result s = c.encode_units(text, std::span<char>(sbuf.data(), room), mode);
    UNITS_EXPECT(s.written <= room);
    for (std::size_t i = room; i < sbuf.size(); ++i) UNITS_EXPECT(sbuf[i] == '\x5A', "wrote past the buffer");
    UNITS_EXPECT(std::string_view(sbuf.data(), s.written) == std::string_view(got).substr(0, s.written));
    if (s.status == Status::OutputFull) {
      UNITS_EXPECT(room < got.size() || r.status == Status::Error);
      const UnitText rest{static_cast<const unsigned char*>(text.data) + s.consumed * unit_size(f), n - s.consumed, f};
      std::vector<char> out2(*c.max_encoded_size(n * 4) + 1);
      const Result s2 = c.encode_units(rest, out2, mode);
      UNITS_EXPECT(s.written + s2.written == got.size() && s.consumed + s2.consumed == r.consumed &&
                       s2.status == r.status,
                   "continued: " + describe_result(s2));
      UNITS_EXPECT(std::string_view(out2.data(), s2.written) == std::string_view(got).substr(s.written));
    } else {
      UNITS_EXPECT(s.status == r.status && s.written == r.written && s.consumed == r.consumed,
                   describe_result(s) + " vs " + describe_result(r));
    }
    // Two chunks, the first with final == false: what it holds back and
    // the rest give the one-shot result.
    const std::size_t split = small % (n + 1);
    const UnitText head{text.data, split, f};
    const Result h = c.encode_units(head, out, mode, false);
    // What the chunk holds back is what encode_partial holds back of the
    // same characters' UTF-8 (a split at a character, all of them valid).
    const auto kk = static_cast<std::size_t>(std::find(index.begin(), index.end(), split) - index.begin());
    if (h.status == Status::Ok && kk < index.size() &&
        std::all_of(t.valid.begin(), t.valid.begin() + static_cast<std::ptrdiff_t>(kk), [](bool v) { return v; })) {
      std::string u8;
      std::vector<std::size_t> off;  // off[k]: the byte offset of code point k
      for (std::size_t k = 0; k < kk; ++k) {
        off.push_back(u8.size());
        u8 += generalized(t.cps[k]);
      }
      off.push_back(u8.size());
      std::vector<char> big(*c.max_encoded_size(u8.size()) + 1);
      const Result p8 = c.encode_partial(u8, big, mode);
      if (p8.status == Status::Ok) {
        const auto at = std::find(off.begin(), off.end(), p8.consumed);
        UNITS_EXPECT(at != off.end() && index[static_cast<std::size_t>(at - off.begin())] == h.consumed,
                     where + " chunk of " + std::to_string(split) + " units holds back what encode_partial does: " +
                         describe_result(h) + " vs " + describe_result(p8));
      }
    }
    if (h.status == Status::Ok) {
      UNITS_EXPECT(h.consumed <= split);
      std::string joined(out.data(), h.written);
      const UnitText rest{static_cast<const unsigned char*>(text.data) + h.consumed * unit_size(f), n - h.consumed, f};
      const Result t2 = c.encode_units(rest, out, mode);
      joined.append(out.data(), t2.written);
      UNITS_EXPECT(joined == got && t2.status == r.status && h.consumed + t2.consumed == r.consumed,
                   where + " split at " + std::to_string(split) + ": " + hex_bytes(joined) + " vs " + hex_bytes(got));
    } else {
      UNITS_EXPECT(h.status == Status::Error && r.status == Status::Error && h.error.offset == r.error.offset,
                   where + " split at " + std::to_string(split) + ": " + describe_result(h));
    }
    // The C API.
    const pgcodec_result cr = pgcodec_encode_units(pgcodec_by_id(to_int(c.encoding())), text.data, n,
                                                   static_cast<int>(f), out.data(), out.size(),
                                                   mode == ErrorMode::Strict ? 0 : 1, 1);
    UNITS_EXPECT(cr.status == static_cast<int>(r.status) && cr.consumed == r.consumed && cr.written == r.written);
    std::size_t c_bound = 0;
    UNITS_EXPECT(pgcodec_max_encoded_units_size(pgcodec_by_id(to_int(c.encoding())), n, static_cast<int>(f),
                                                &c_bound) == 0 &&
                     c_bound == out.size(),
                 where + ": pgcodec_max_encoded_units_size");
  }
  return std::nullopt;
}

}  // namespace

CheckResult check_units(const Codec& c, bool decoding, ErrorMode mode, std::string_view in, std::size_t small) {
  // The input, and the input with a NUL at a drawn byte (every encoding
  // rejects NUL, and the fast paths' runs must stop at it: a copy up to the
  // next NUL is easy to get wrong and rare in generated text).
  std::string with_nul(in);
  with_nul.insert(small % (in.size() + 1), 1, '\0');
  if (decoding) {
    if (auto r = check_decode_units(c, mode, in, small)) return r;
    if (auto r = check_decode_units(c, mode, with_nul, small)) return r;
    // The input between ASCII (up to 7 bytes before, 8 after): the loops
    // that read 8 bytes at a time (utf8.cpp's decode_fast) then see every
    // character of it, not only those of inputs longer than 8 bytes.
    std::string padded(small % 8, 'a');
    padded.append(in);
    padded.append("abcdefgh");
    return check_decode_units(c, mode, padded, small);
  }
  if (auto r = check_encode_units(c, mode, in, small)) return r;
  if (auto r = check_encode_units(c, mode, with_nul, small)) return r;
  // encode_units works in blocks of 4 KiB of UTF-8 (src/units.cpp): the
  // input repeated past a few block ends, shifted by up to 63 bytes of
  // ASCII, puts its characters (pairs, lone surrogates) across them.
  if (in.empty()) return std::nullopt;
  std::string longer(small % 64, 'a');
  while (longer.size() < 3 * 4096 + 64) longer += in;
  return check_encode_units(c, mode, longer, small);
}

}  // namespace pgcodec::harness
