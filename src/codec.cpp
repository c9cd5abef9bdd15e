#include "pgcodec/codec.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <limits>

#include "codec_table.hpp"
#include "codecs/codec_ops.hpp"
#include "kernels/kernels.hpp"
#include "rules/grammar.hpp"
#include "rules/utf8.hpp"
#include "tables/dense.hpp"

namespace pgcodec {

namespace {

// n * factor, if it is at most SIZE_MAX - 16 (room for a caller's terminator
// and slack). A multiplication with an overflow check, not a division: the
// bound is asked before every encode in the Python module, and a 64-bit
// division was 5 % of an 8-byte encode there (perf).
std::optional<std::size_t> times(std::size_t n, std::size_t factor) {
  std::size_t product;
  if (__builtin_mul_overflow(n, factor, &product) || product > std::numeric_limits<std::size_t>::max() - 16)
    return std::nullopt;
  return product;
}

}  // namespace

Result Codec::decode(std::string_view in, std::span<char> out, ErrorMode mode) const noexcept {
  return row_->ops->decode(*row_, in, out, mode, true, kernels::active());
}

Result Codec::decode_partial(std::string_view in, std::span<char> out, ErrorMode mode) const noexcept {
  return row_->ops->decode(*row_, in, out, mode, false, kernels::active());
}

Result Codec::encode(std::string_view utf8, std::span<char> out, ErrorMode mode) const noexcept {
  return row_->ops->encode(*row_, utf8, out, mode, kernels::active());
}

namespace {

// The pairs of code points `row`'s encoder combines into one code, sorted by
// (cp1, cp2); empty for every other encoding.
std::span<const detail::Pair> combined_pairs(const detail::CodecRow& row) noexcept {
  const detail::MultibyteDense* d = row.tables.multibyte;
  return d ? std::span<const detail::Pair>(d->pairs, d->pair_count) : std::span<const detail::Pair>();
}

// Where encode_partial stops in `s`: before a character the end may cut
// off, i.e. a lead byte among the last 3 that claims more bytes than are
// left (even if the bytes after it are already bad: the error is then
// reported once all the bytes it quotes are there).
std::size_t whole_prefix(const unsigned char* p, std::size_t n) noexcept {
  std::size_t end = n;
  for (std::size_t k = 1; k <= 3 && k <= n; ++k)
    if (detail::utf8_lead_length(p[n - k]) > k) end = n - k;
  return end;
}

// With combined pairs, UtfToLocal's decision for a character can depend on
// the next one: it combines x y when (x, y) is a pair, and it reports x as
// invalid when y is cut off by the very end, or fails at y (leaving x
// unconverted) when y is invalid. So a chunk may end after x only when the
// chunk holds the whole of y too, y is valid, and the parse does not take
// x y as a pair (x is invalid, (x, y) is no pair, or x was itself the second
// of a pair); the chunk may end after an invalid unit too. The characters
// are the encoder's: a valid UTF-8 character, else one byte.
//
// Parsing starts 32 bytes before the end, at the first byte that is not a
// continuation byte, which is a boundary of the characters (a valid
// character never holds a non-continuation byte past its lead) but maybe not
// of the pairs: the parse is known from the first two characters that make
// no pair, and before that only a cut between such two counts. If no cut is
// found there, the search starts again from the start of the chunk, a
// boundary of the parse. So the cut is the last one the whole parse allows,
// wherever the chunk starts, as long as it starts at a boundary: a run of
// tone letters (each the first of a pair) keeps only its last letter open.
std::size_t pair_safe_end(std::span<const detail::Pair> pairs, const unsigned char* p,
                          std::size_t end, ErrorMode mode) noexcept {
  // Replace mode converts a valid character before a cut-off one on its own
  // (as before an invalid one), so only Strict mode needs the lead rules.
  const bool strict = mode == ErrorMode::Strict;
  struct Unit {
    std::size_t start;
    std::uint32_t cp;  // 0xFFFFFFFF: invalid byte
  };
  auto search = [&](std::size_t from, std::size_t& cut) {
    // The last units of p[from, end) in a small ring: a cut looks at the
    // unit after it and at most four before.
    Unit ring[5]{};
    std::size_t count = 0;
    bool found = false;
    bool known = from == 0;  // the parse's boundaries are known here
    bool taken = false;      // back(0) was the second of a pair (when known)
    auto back = [&](std::size_t k) -> const Unit& { return ring[(count - 1 - k) % 5]; };
    for (std::size_t i = from; i < end;) {
      std::size_t len = 1;
      std::uint32_t cp = p[i] ? p[i] : 0xFFFFFFFFu;  // NUL is an invalid byte sequence
      if (p[i] >= 0x80) {
        len = detail::utf8_multibyte_length(p + i, end - i);
        if (len) {
          cp = detail::utf8_decode_multibyte(p + i, len);
        } else {
          len = 1;
          cp = 0xFFFFFFFFu;
        }
      }
      ring[count % 5] = {i, cp};
      ++count;
      if (count >= 2) {
        const Unit& y = back(0);
        const Unit& x = back(1);
        const bool x_valid = x.cp != 0xFFFFFFFFu, y_valid = y.cp != 0xFFFFFFFFu;
        const bool pair = x_valid && y_valid && detail::is_pair(pairs, x.cp, y.cp);
        // Where the parse is known, x taken as the second of a pair looks at
        // nothing; elsewhere a pair may be the parse's.
        const bool combined = pair && !(known && taken);
        taken = known && combined;
        known = known || !pair;
        bool safe = !x_valid || (y_valid ? !combined : !strict);
        // The text before the cut must also not end in what the encoder
        // would take for a cut-off character right after a valid one: an
        // invalid lead claiming past the cut, whose valid predecessor would
        // then be reported as invalid (UtfToLocal's rule at the very end).
        if (const std::size_t lead = whole_prefix(p, y.start); strict && safe && lead < y.start) {
          for (std::size_t k = 1; k < count && k <= 4; ++k) {
            if (back(k).start > lead) continue;
            // back(k) starts at the claiming lead; its predecessor decides.
            safe = k + 1 >= count || back(k + 1).cp == 0xFFFFFFFFu;
            break;
          }
        }
        if (safe) {
          cut = y.start;
          found = true;
        }
      }
      i += len;
    }
    // After an invalid unit the end itself is a cut: nothing looks ahead
    // from it, and the character before it (whose lookahead it fails) has
    // all it needs, unless a unit whose lead claims past the end follows a
    // valid character (which would then be reported for it).
    if (count && back(0).cp == 0xFFFFFFFFu) {
      bool safe = true;
      for (std::size_t k = 0; k < count && k < 4; ++k)
        if (strict && back(k).start + detail::utf8_lead_length(p[back(k).start]) > end)
          safe = safe && (k + 1 >= count || back(k + 1).cp == 0xFFFFFFFFu);
      if (safe) {
        cut = end;
        found = true;
      }
    }
    return found;
  };
  std::size_t cut = 0;
  std::size_t from = end > 32 ? end - 32 : 0;
  while (from > 0 && from < end && detail::utf8_continuation(p[from])) ++from;
  if (search(from, cut)) return cut;
  if (from > 0 && search(0, cut)) return cut;
  return 0;
}

// Whether an error that encoding utf8[at..] reported as if the text ended
// there is PostgreSQL's answer for every text that continues utf8: all the
// bytes it quotes are in utf8 (its lead's claim), it is not the report of a
// legal character whose successor the end cut off (UtfToLocal's rule at
// the very end, in the encodings with combined characters), and a character
// with no equivalent is not the last one where a pair could still take it.
bool certain_encode_error(std::string_view utf8, const Error& e, bool combines) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const std::size_t at = e.offset, n = utf8.size();
  if (at + detail::utf8_lead_length(p[at]) > n) return false;
  const std::size_t legal = p[at] >= 0x80 ? detail::utf8_multibyte_length(p + at, n - at) : p[at] ? 1 : 0;
  if (e.kind == ErrorKind::InvalidByteSequence) return legal == 0 || !combines;
  return !combines || at + legal < n;
}

}  // namespace

// What encode_partial holds back (the rule the property
// check_streaming_encode states): at most the bytes from a lead byte whose
// claim reaches past the end (a character the end may have cut off, up to 3
// bytes), and, in EUC_JIS_2004 / SHIFT_JIS_2004, the characters before it
// that the combining rule keeps open. An error that no continuation can
// change is reported by the call that sees it, as decode_partial does.
Result Codec::encode_partial(std::string_view utf8, std::span<char> out,
                             ErrorMode mode) const noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const std::span<const detail::Pair> pairs = combined_pairs(*row_);
  std::size_t end = whole_prefix(p, utf8.size());
  if (!pairs.empty()) end = pair_safe_end(pairs, p, end, mode);
  Result r = row_->ops->encode(*row_, utf8.substr(0, end), out, mode, kernels::active());
  // An error whose quoted bytes (as many as its lead byte claims) reach the
  // cut may read differently once the next chunk is there: it is held back
  // with the rest.
  if (r.status == Status::Error &&
      r.error.offset + detail::utf8_lead_length(static_cast<unsigned char>(utf8[r.error.offset])) > end) {
    r.status = Status::Ok;
    r.error = Error{};
  }
  if (mode != ErrorMode::Strict || r.status != Status::Ok || r.consumed == utf8.size()) return r;
  // Held back: the cut is a conservative guess, and what lies past it may
  // already hold an error that the rest of the text cannot change (c3 f2:
  // the cut falls before f2, yet c3 f2 is invalid whatever follows).
  // Encoding from r.consumed, a boundary the encoder reached, is encoding
  // the rest as if the text went on from there; the held-back bytes are few,
  // so their output fits a small scratch buffer (if not, they stay held).
  std::array<char, 128> scratch;
  const std::string_view tail = utf8.substr(r.consumed);
  Result t = row_->ops->encode(*row_, tail, scratch, ErrorMode::Strict, kernels::active());
  if (t.status != Status::Error || !certain_encode_error(tail, t.error, !pairs.empty())) return r;
  if (out.size() - r.written < t.written) {
    r.status = Status::OutputFull;
    return r;
  }
  detail::copy_bytes(out.data() + r.written, scratch.data(), t.written);
  t.consumed += r.consumed;
  t.written += r.written;
  t.error.offset += r.consumed;
  return t;
}

namespace {

// The length of the character a strict encode left unconverted because of
// what came after it, 0 if none: UtfToLocal's lookahead in EUC_JIS_2004 /
// SHIFT_JIS_2004 fails at an invalid next character (consumed stops before
// the current one), and reports the current, legal, character as an invalid
// byte sequence when the end of the input cuts the next one off.
std::size_t left_by_lookahead(std::string_view utf8, const Result& r) noexcept {
  if (r.consumed < r.error.offset) return r.error.offset - r.consumed;
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data()) + r.error.offset;
  if (r.error.kind != ErrorKind::InvalidByteSequence || p[0] < 0x80) return 0;
  return detail::utf8_multibyte_length(p, utf8.size() - r.error.offset);
}

}  // namespace

Codec::CheckResult Codec::check(std::string_view in, ErrorVisitor visit, void* context,
                                bool decoding, bool final) const noexcept {
  CheckResult c;
  char scratch[4096];  // output is thrown away; only errors matter
  const kernels::Kernel& k = kernels::active();
  std::size_t i = 0;
  while (i < in.size()) {
    const std::string_view rest = in.substr(i);
    const std::span<char> out(scratch);
    const Result r = decoding ? row_->ops->decode(*row_, rest, out, ErrorMode::Strict, final, k)
                              : row_->ops->encode(*row_, rest, out, ErrorMode::Strict, k);
    if (r.status == Status::Error) {
      if (const std::size_t own = decoding ? 0 : left_by_lookahead(rest, r)) {
        // The error is the next character's: this one converts on its own
        // first, as Replace mode converts it (docs/semantics.md).
        const Result x = row_->ops->encode(*row_, rest.substr(r.consumed, own), out, ErrorMode::Strict, k);
        if (x.status == Status::Error) {
          Error e = x.error;
          e.offset += i + r.consumed;
          ++c.errors;
          visit(e, context);
        }
        i += r.consumed + own;
        continue;
      }
      Error e = r.error;
      e.offset += i;
      ++c.errors;
      visit(e, context);
      i += r.error.offset + r.error.skip;
      continue;
    }
    i += r.consumed;
    if (r.status != Status::OutputFull) break;  // done, or a cut-off character
  }
  c.consumed = i;
  return c;
}

Codec::CheckResult Codec::check_decode(std::string_view in, ErrorVisitor visit, void* context,
                                       bool final) const noexcept {
  return check(in, visit, context, true, final);
}

Codec::CheckResult Codec::check_encode(std::string_view utf8, ErrorVisitor visit,
                                       void* context) const noexcept {
  return check(utf8, visit, context, false, true);
}

std::optional<std::size_t> Codec::max_decoded_size(std::size_t n) const noexcept {
  return times(n, row_->ops->decode_factor);
}

std::optional<std::size_t> Codec::max_encoded_size(std::size_t n) const noexcept {
  return times(n, row_->ops->encode_factor);
}

std::optional<std::size_t> Codec::max_encoded_units_size(std::size_t units, UnitForm form) const noexcept {
  const std::size_t utf8 = form == UnitForm::Latin1 ? 2 : form == UnitForm::Utf32 ? 4 : 3;
  const bool passes_utf8 = encoding_ == Encoding::UTF8 || encoding_ == Encoding::SQL_ASCII;
  const auto longest = static_cast<std::size_t>(info(encoding_).max_char_length);
  return times(units, passes_utf8 ? utf8 : std::max<std::size_t>(longest, 1));
}

std::size_t Codec::char_length(std::string_view s, std::size_t at) const noexcept {
  if (at >= s.size()) return 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + at;
  const int n = detail::char_length(encoding_, p, s.size() - at);
  return std::min<std::size_t>(static_cast<std::size_t>(std::max(n, 1)), s.size() - at);
}

namespace {
template <class Fn>
std::string convert_alloc(std::optional<std::size_t> cap, Fn fn) {
  if (!cap) throw std::length_error("pgcodec: input too large");
  std::string out(*cap, '\0');
  Result r = fn(std::span<char>(out.data(), out.size()));
  if (r.status == Status::Error) throw ConversionError(r.error);
  out.resize(r.written);
  return out;
}
}  // namespace

std::string Codec::decode(std::string_view in, ErrorMode mode) const {
  return convert_alloc(max_decoded_size(in.size()),
                       [&](std::span<char> o) { return decode(in, o, mode); });
}

std::string Codec::encode(std::string_view utf8, ErrorMode mode) const {
  return convert_alloc(max_encoded_size(utf8.size()),
                       [&](std::span<char> o) { return encode(utf8, o, mode); });
}

const Codec* find_codec(std::string_view name) noexcept {
  auto e = lookup(name);
  return e ? &codec(*e) : nullptr;
}

Result decode(std::string_view encoding_name, std::string_view in, std::span<char> out,
              ErrorMode mode) {
  const Codec* c = find_codec(encoding_name);
  if (!c) throw std::invalid_argument("pgcodec: unknown encoding \"" + std::string(encoding_name) + "\"");
  return c->decode(in, out, mode);
}

Result encode(std::string_view encoding_name, std::string_view utf8, std::span<char> out,
              ErrorMode mode) {
  const Codec* c = find_codec(encoding_name);
  if (!c) throw std::invalid_argument("pgcodec: unknown encoding \"" + std::string(encoding_name) + "\"");
  return c->encode(utf8, out, mode);
}

}  // namespace pgcodec
