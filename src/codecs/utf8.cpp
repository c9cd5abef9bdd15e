// UTF8 and SQL_ASCII. In a UTF8 database PostgreSQL validates what a
// SQL_ASCII client sends as UTF8 (pg_any_to_server: "no conversion is needed,
// but we must still validate the data") and sends it text unconverted, so
// both codecs are validating copies, and errors name "UTF8".
#include <cstring>
#include <type_traits>

#include "codec_table.hpp"
#include "codecs/ascii_copy.hpp"
#include "codecs/codec_ops.hpp"
#include "codecs/sinks.hpp"
#include "rules/utf8.hpp"
#include "rules/grammar.hpp"

namespace pgcodec::detail {
namespace {

Result validate_copy(Encoding target, std::string_view in, std::span<char> out, ErrorMode mode,
                     bool final, bool decoding, const kernels::Kernel& k) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = 0, w = 0;
  Result r;
  while (i < n) {
    // Validate the longest span that fits the output, then copy it at once.
    const std::size_t limit = n - i < out.size() - w ? n : i + (out.size() - w);
    std::size_t run;
    if (k.table_shortcuts && limit - i <= 16) {
      // A short string (a column value, a name): ASCII is checked inline,
      // copied without a library call; only what is left goes to the kernel,
      // whose vector set-up costs more than the check itself here.
      run = 0;
      if (limit - i >= 8) run = ascii_prefix8(p + i);
      while (run < limit - i && p[i + run] - 1u < 0x7Fu) ++run;
      if (run < limit - i) run += k.utf8_valid_run(p + i + run, limit - i - run);
      copy_short(out.data() + w, p + i, run);
    } else {
      run = k.utf8_valid_run(p + i, limit - i);
      copy_bytes(out.data() + w, p + i, run);
    }
    i += run;
    w += run;
    if (i == n) break;
    // Stopped short: a character that does not fit, or bad input.
    const int l = verify_char(Encoding::UTF8, p + i, n - i);
    if (l > 0) {
      r.status = Status::OutputFull;
      break;
    }
    if (!final && cut_off_by_end(Encoding::UTF8, p + i, n - i))
      break;  // the caller carries it over
    if (mode == ErrorMode::Strict) {
      r.status = Status::Error;
      r.error = make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8,
                           decoding ? Encoding::UTF8 : target, in, i, 1);
      break;
    }
    const std::string_view replacement = decoding ? kUtf8Replacement : "?";
    if (out.size() - w < replacement.size()) {
      r.status = Status::OutputFull;
      break;
    }
    std::memcpy(out.data() + w, replacement.data(), replacement.size());
    w += replacement.size();
    i += 1;
  }
  r.consumed = i;
  r.written = w;
  return r;
}

// Decoding into code units (decode_units): the same validation, character
// by character, ASCII runs widened wholesale.
//
// The fast loop, for a kernel with table shortcuts and an output with a unit
// for every input byte left (a UTF-8 character is never more units than
// bytes: no room check per character): ASCII and 2- and 3-byte characters
// inline, each advancing by a branch, not by a length computed from the
// data (a predicted branch lets the next character's loads start early; a
// computed length would chain every character's loads to the last's), and
// 4-byte characters too. It returns at anything else (NUL, an invalid byte,
// fewer than 3 bytes left, a code point above the limit), which the
// character-by-character loop then takes. It is the only inline path. An
// output with less room than the input has bytes gets it on a cut of the
// input as long as it has kFastRoom units of room (see decode_to); it went
// character by character, 4-8 times slower, for a host that sized its
// buffer exactly.
//
// Into 16-bit units with the whole BMP allowed, a multibyte character also
// hands the kernel's block decoder (Kernel::utf8_to_units16) what its
// validator (Kernel::utf8_valid_run) accepts of the next kBlockSpan bytes.
// Where the blocks took little (a four-byte character, an invalid byte or
// NUL close ahead), the loop waits kBlockRetry bytes before it asks again,
// so a failed try costs little.
// What the validator accepted stays known (`valid_end`: a suffix of valid
// UTF-8 from a character boundary is valid), so a block that stops early
// (UTF-16 output stops at each four-byte character) costs no second
// validation of the same bytes. Into UTF-32 with every code point allowed,
// any multibyte character does the same with Kernel::utf8_to_units32,
// which takes four-byte characters too.
constexpr std::size_t kBlockSpan = 4096, kBlockRetry = 64;
// The least room (in units) for which decode_to runs the fast loop on a cut
// of the input when the output has less room than the input has bytes.
constexpr std::size_t kFastRoom = 64;

template <class S>
std::size_t decode_fast(const kernels::Kernel& k, const unsigned char* p, std::size_t i, std::size_t n,
                        typename S::Unit* o, std::size_t cap, std::size_t& w, char32_t limit) noexcept {
  using U = typename S::Unit;
  std::size_t fw = w;
  // The kernel's block decoder for these units, where they may hold every
  // code point it writes (none into Latin-1 units).
  using BlockUnit = std::conditional_t<sizeof(U) == 2, char16_t, char32_t>;
  [[maybe_unused]] const auto blocks = [&] {
    if constexpr (sizeof(U) == 2) {
      return limit >= 0xFFFFu ? k.utf8_to_units16 : kernels::Utf8To16Fn{};
    } else if constexpr (sizeof(U) == 4) {
      return limit >= 0x10FFFFu ? k.utf8_to_units32 : kernels::Utf8To32Fn{};
    } else {
      return nullptr;
    }
  }();
  std::size_t blocks_from = i, valid_end = i;
  // Hands a block decoder (16- or 32-bit units) what the validator accepts
  // of the next kBlockSpan bytes; true when it took any.
  const auto take_blocks = [&](auto decode_blocks, auto* units_out) {
    if (valid_end <= i) valid_end = i + k.utf8_valid_run(p + i, n - i < kBlockSpan ? n - i : kBlockSpan);
    std::size_t units = 0;
    const std::size_t took = decode_blocks(p + i, valid_end - i, units_out, units);
    i += took;
    fw += units;
    if (took < kBlockRetry) blocks_from = i + kBlockRetry;
    return took != 0;
  };
  while (n - i >= 3) {
    const unsigned c0 = p[i];
    if (c0 < 0x80u) {
      if (c0 == 0) break;
      if (n - i >= 8 && ascii_prefix8(p + i) == 8) {  // a run of 8 or more: the kernel's
        copy_ascii_units(k, p, n, i, o, cap, fw);
        continue;
      }
      o[fw++] = static_cast<U>(c0);
      i += 1;
      continue;
    }
    // Any multibyte character hands the kernel's blocks what the validator
    // accepts (room: the output holds a unit for every byte left, as the
    // blocks need).
    if constexpr (sizeof(U) > 1) {
      if (blocks && i >= blocks_from && n - i >= 80 && take_blocks(blocks, reinterpret_cast<BlockUnit*>(o + fw)))
        continue;
    }
    const unsigned c1 = p[i + 1];
    if ((c0 & 0xF0u) == 0xE0u) {
      const unsigned c2 = p[i + 2];
      const std::uint32_t cp = ((c0 & 0x0Fu) << 12) | ((c1 & 0x3Fu) << 6) | (c2 & 0x3Fu);
      // Not short-circuited: one branch for the lot. The overlong forms
      // (E0 80..9F) are below U+0800, the surrogates (ED A0..BF) in D800..DFFF.
      const bool ok = ((c1 & 0xC0u) == 0x80u) & ((c2 & 0xC0u) == 0x80u) & (cp >= 0x800u) &
                      (cp - 0xD800u >= 0x800u) & (cp <= limit);
      if (!ok) break;
      o[fw++] = static_cast<U>(cp);
      i += 3;
      continue;
    }
    if (c0 >= 0xF0u) {
      // Four bytes (emoji in chat text): into UTF-32, or a UTF-16 pair.
      if (n - i < 4) break;
      const unsigned c2 = p[i + 2], c3 = p[i + 3];
      const std::uint32_t cp =
          ((c0 & 0x07u) << 18) | ((c1 & 0x3Fu) << 12) | ((c2 & 0x3Fu) << 6) | (c3 & 0x3Fu);
      const bool ok = (c0 <= 0xF4u) & ((c1 & 0xC0u) == 0x80u) & ((c2 & 0xC0u) == 0x80u) &
                      ((c3 & 0xC0u) == 0x80u) & (cp >= 0x10000u) & (cp <= 0x10FFFFu) & (cp <= limit);
      if (!ok) break;
      fw += S::store(o + fw, cp);
      i += 4;
      continue;
    }
    const std::uint32_t cp = ((c0 & 0x1Fu) << 6) | (c1 & 0x3Fu);
    const bool ok = ((c0 & 0xE0u) == 0xC0u) & ((c1 & 0xC0u) == 0x80u) & (cp >= 0x80u) & (cp <= limit);
    if (!ok) break;
    o[fw++] = static_cast<U>(cp);
    i += 2;
  }
  w = fw;
  return i;
}

template <class S>
Result decode_to(std::string_view in, S sink, typename S::Unit* const o, const std::size_t cap,
                 ErrorMode mode, bool final, const kernels::Kernel& k) noexcept {
  const char32_t limit = sink.limit();
  // In a local: a store of a 1-byte unit may alias anything, so a member
  // read in the loop would be reloaded after every character.
  const bool shortcuts = k.table_shortcuts;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  const std::size_t n = in.size();
  std::size_t i = 0, w = 0;
  Result r;
  while (i < n) {
    if constexpr (!S::kUtf8) {
      if (shortcuts && cap - w >= n - i) {
        i = decode_fast<S>(k, p, i, n, o, cap, w, limit);
        if (i == n) break;
      } else if (shortcuts && cap - w >= kFastRoom) {
        // Less room than bytes left, as a host that sized the output
        // exactly has (a UTF-16 length counted first): the fast loop on as
        // many bytes as there are units of room, which it cannot overrun
        // (a byte is at most a unit); a character that the cut splits is
        // the loop's below, and the next round cuts again. Each round fills
        // at least a quarter of the room left.
        i = decode_fast<S>(k, p, i, i + (cap - w), o, cap, w, limit);
      }
    }
    if (p[i] - 1u < 0x7Fu) {  // an ASCII run
      if (copy_ascii_units(k, p, n, i, o, cap, w)) continue;
      r.status = Status::OutputFull;
      break;
    }
    const int l = verify_char(Encoding::UTF8, p + i, n - i);
    std::uint32_t cp = 0xFFFD;
    if (l > 0) {
      cp = utf8_decode_multibyte(p + i, static_cast<std::size_t>(l));
    } else {
      if (!final && cut_off_by_end(Encoding::UTF8, p + i, n - i)) break;  // carried over
      if (mode == ErrorMode::Strict) {
        r.status = Status::Error;
        r.error = make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8, Encoding::UTF8, in, i, 1);
        break;
      }
    }
    if (cp > limit) {
      r.status = Status::Wider;
      break;
    }
    if (cap - w < S::units(cp)) {
      r.status = Status::OutputFull;
      break;
    }
    w += S::store(o + w, cp);
    i += l > 0 ? static_cast<std::size_t>(l) : 1;
  }
  r.consumed = i;
  r.written = w;
  return r;
}

Result decode_units(const CodecRow&, std::string_view in, const UnitBuffer& out, ErrorMode mode,
                    bool final, const kernels::Kernel& k) noexcept {
  return with_unit_sink(out, [&](auto sink, auto* o, std::size_t cap) {
    return decode_to(in, sink, o, cap, mode, final, k);
  });
}

Result decode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              bool final, const kernels::Kernel& k) noexcept {
  return validate_copy(row.encoding, in, out, mode, final, true, k);
}

Result encode(const CodecRow& row, std::string_view in, std::span<char> out, ErrorMode mode,
              const kernels::Kernel& k) noexcept {
  return validate_copy(row.encoding, in, out, mode, true, false, k);
}

// encode_units' fast path: encoding into UTF-8 (and SQL_ASCII, which
// passes UTF-8 through) from code units is writing each code point's UTF-8,
// which is what validate_copy passes. What is no character (NUL, a
// surrogate, UTF-16 pairs included, a unit above U+10FFFF) or finds no room
// stops it, for the block path.
//
// From 16- and 32-bit units, a unit above ASCII also tries the kernel's
// block encoder (Kernel::units16_to_utf8, Kernel::units32_to_utf8) on the
// units left that have room; where it took little, the loop waits
// kBlockRetry units before it asks again.
template <bool Checked, class Unit>
std::size_t encode_prefix_loop(const Unit* u, std::size_t i, std::size_t n, char* o, std::size_t cap,
                               std::size_t& w, kernels::Units16ToUtf8Fn blocks,
                               kernels::Units32ToUtf8Fn blocks32) noexcept {
  std::size_t fw = w;
  std::size_t blocks_from = i;
  // The kernel's block encoder for these units (none from Latin-1 units),
  // and the longest UTF-8 a unit of them takes.
  using BlockUnit = std::conditional_t<sizeof(Unit) == 2, char16_t, char32_t>;
  [[maybe_unused]] const auto block_fn = [&] {
    if constexpr (sizeof(Unit) == 2) {
      return blocks;
    } else {
      return blocks32;
    }
  }();
  constexpr std::size_t per = sizeof(Unit) == 2 ? 3 : 4;
  for (; i < n; ++i) {
    const std::uint32_t cp = u[i];
    // Any unit above ASCII tries the kernel's blocks on the units left that
    // have room.
    if constexpr (sizeof(Unit) > 1) {
      if (cp >= 0x80u && block_fn && i >= blocks_from && n - i >= 16) {
        const std::size_t room = Checked ? (cap - fw) / per : n - i;
        std::size_t bytes = 0;
        const std::size_t took =
            block_fn(reinterpret_cast<const BlockUnit*>(u + i), room < n - i ? room : n - i, o + fw, bytes);
        fw += bytes;
        if (took < kBlockRetry) blocks_from = i + took + kBlockRetry;
        if (took) {
          i += took - 1;  // the loop's ++i makes it took
          continue;
        }
      }
    }
    if (cp - 1u < 0x7Fu) {
      if (Checked && fw == cap) break;
      o[fw++] = static_cast<char>(cp);
    } else if (cp >= 0x80u && cp < 0x800u) {
      if (Checked && cap - fw < 2) break;
      o[fw] = static_cast<char>(0xC0u | (cp >> 6));
      o[fw + 1] = static_cast<char>(0x80u | (cp & 0x3Fu));
      fw += 2;
    } else if (cp >= 0x800u && cp < 0x10000u && cp - 0xD800u >= 0x800u) {
      if (Checked && cap - fw < 3) break;
      o[fw] = static_cast<char>(0xE0u | (cp >> 12));
      o[fw + 1] = static_cast<char>(0x80u | ((cp >> 6) & 0x3Fu));
      o[fw + 2] = static_cast<char>(0x80u | (cp & 0x3Fu));
      fw += 3;
    } else if (cp >= 0x10000u && cp <= 0x10FFFFu) {
      if (Checked && cap - fw < 4) break;
      o[fw] = static_cast<char>(0xF0u | (cp >> 18));
      o[fw + 1] = static_cast<char>(0x80u | ((cp >> 12) & 0x3Fu));
      o[fw + 2] = static_cast<char>(0x80u | ((cp >> 6) & 0x3Fu));
      o[fw + 3] = static_cast<char>(0x80u | (cp & 0x3Fu));
      fw += 4;
    } else {
      break;
    }
  }
  w = fw;
  return i;
}

// Where the output has room for the longest UTF-8 every unit left could
// take (a Latin-1 unit 2 bytes, a 16-bit unit 3, a 32-bit unit 4), the loop
// checks no room per character.
template <class Unit>
std::size_t encode_prefix(const Unit* u, std::size_t i, std::size_t n, char* o, std::size_t cap,
                          std::size_t& w, const kernels::Kernel& k) noexcept {
  constexpr std::size_t per = sizeof(Unit) == 1 ? 2 : sizeof(Unit) == 2 ? 3 : 4;
  if ((cap - w) / per >= n - i)
    return encode_prefix_loop<false>(u, i, n, o, cap, w, k.units16_to_utf8, k.units32_to_utf8);
  return encode_prefix_loop<true>(u, i, n, o, cap, w, k.units16_to_utf8, k.units32_to_utf8);
}

std::size_t encode_units_prefix(const CodecRow&, const UnitText& in, std::size_t i, std::span<char> out,
                                std::size_t& w, bool, const kernels::Kernel& k) noexcept {
  if (!k.table_shortcuts) return i;
  return with_units(in, [&](const auto* u) {
    return encode_prefix(u, i, in.length, out.data(), out.size(), w, k);
  });
}

}  // namespace

std::size_t utf8_to_ucs2_prefix(const kernels::Kernel& k, const unsigned char* p, std::size_t i, std::size_t n,
                                char16_t* o, std::size_t cap, std::size_t& w) noexcept {
  return decode_fast<Ucs2Sink>(k, p, i, n, o, cap, w, 0xFFFF);
}

// Decoding can turn each invalid byte into the three bytes of U+FFFD.
const CodecOps utf8_ops = {&decode, &encode, &decode_units, 3, 1, &encode_units_prefix};

}  // namespace pgcodec::detail
