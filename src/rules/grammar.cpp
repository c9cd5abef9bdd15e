// Structural validity rules for PostgreSQL's encodings (see rules/grammar.hpp).
//
// The rules mirror PostgreSQL 15 (15.11 and later, which added the BIG5/GBK/
// UHC rejection of the byte pair 0x8D 0x20).  They are expressed here per
// grammar (each encoding's is in its codec_table row), dispatched by a
// switch instead of PostgreSQL's function-pointer table.
#include "rules/grammar.hpp"

#include "codec_table.hpp"
#include "rules/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace pgcodec::detail {
namespace {

Grammar grammar_of(Encoding enc) noexcept { return codec_row(enc).grammar; }

constexpr unsigned char kSingleShift2 = 0x8E;
constexpr unsigned char kSingleShift3 = 0x8F;

constexpr bool has_high_bit(unsigned char c) noexcept { return (c & 0x80U) != 0; }

constexpr bool between(unsigned char c, unsigned lo, unsigned hi) noexcept {
  return c >= lo && c <= hi;
}

// The "GR" byte range every EUC-style trailing byte must fall in.
constexpr bool is_gr_byte(unsigned char c) noexcept { return between(c, 0xA1, 0xFE); }

// MULE_INTERNAL leading-byte classes.
constexpr bool mule_official_1byte_set(unsigned char c) noexcept { return between(c, 0x81, 0x8D); }
constexpr bool mule_official_2byte_set(unsigned char c) noexcept { return between(c, 0x90, 0x99); }
constexpr bool mule_private_1byte_set(unsigned char c) noexcept { return c == 0x9A || c == 0x9B; }
constexpr bool mule_private_2byte_set(unsigned char c) noexcept { return c == 0x9C || c == 0x9D; }

int mule_length(unsigned char lead) noexcept {
  if (mule_official_1byte_set(lead)) return 2;
  if (mule_private_1byte_set(lead)) return 3;
  if (mule_official_2byte_set(lead)) return 3;
  if (mule_private_2byte_set(lead)) return 4;
  return 1;  // ASCII, and also every other byte (even with the high bit set)
}

// Length implied by a lead byte in the generic EUC scheme (used for EUC_JP,
// EUC_JIS_2004, EUC_KR and JOHAB): SS2 introduces 2 bytes, SS3 3 bytes, any
// other high-bit byte 2 bytes.
int euc_length(unsigned char lead) noexcept {
  if (lead == kSingleShift2) return 2;
  if (lead == kSingleShift3) return 3;
  return has_high_bit(lead) ? 2 : 1;
}

// --- per-grammar checks for a character whose lead byte has the high bit
// --- set.  `len` >= 1 is the number of readable bytes at s.

// UTF-8's rules are the toolkit's (rules/utf8.hpp).
int check_utf8(const unsigned char* s, std::size_t len) noexcept {
  const std::size_t n = utf8_multibyte_length(s, len);
  return n ? static_cast<int>(n) : -1;
}

int check_euc_jp(const unsigned char* s, std::size_t len) noexcept {
  const unsigned char lead = s[0];
  if (lead == kSingleShift2) {
    // Half-width katakana (JIS X 0201): SS2 followed by 0xA1..0xDF.
    if (len < 2 || !between(s[1], 0xA1, 0xDF)) return -1;
    return 2;
  }
  if (lead == kSingleShift3) {
    // JIS X 0212 (or plane 2 of JIS X 0213): SS3 followed by two GR bytes.
    if (len < 3 || !is_gr_byte(s[1]) || !is_gr_byte(s[2])) return -1;
    return 3;
  }
  if (len < 2 || !is_gr_byte(lead) || !is_gr_byte(s[1])) return -1;
  return 2;
}

// EUC_KR and EUC_CN: only two-byte GR pairs; SS2/SS3 are not accepted.
int check_euc_kr_cn(const unsigned char* s, std::size_t len) noexcept {
  if (len < 2 || !is_gr_byte(s[0]) || !is_gr_byte(s[1])) return -1;
  return 2;
}

int check_euc_tw(const unsigned char* s, std::size_t len) noexcept {
  const unsigned char lead = s[0];
  if (lead == kSingleShift2) {
    // CNS 11643 planes 1-7: SS2, plane byte 0xA1..0xA7, then two GR bytes.
    if (len < 4 || !between(s[1], 0xA1, 0xA7) || !is_gr_byte(s[2]) || !is_gr_byte(s[3])) {
      return -1;
    }
    return 4;
  }
  if (lead == kSingleShift3) return -1;  // never valid in EUC_TW
  // Plane 1 pair.  PostgreSQL does not range-check this lead byte at all:
  // any high-bit byte other than SS2/SS3 is accepted as a lead.
  if (len < 2 || !is_gr_byte(s[1])) return -1;
  return 2;
}

// JOHAB: PostgreSQL reuses the EUC length rule and requires every trailing
// byte to be a GR byte; the lead byte itself is not range-checked.
int check_johab(const unsigned char* s, std::size_t len) noexcept {
  const int need = euc_length(s[0]);
  if (static_cast<std::size_t>(need) > len) return -1;
  for (int i = 1; i < need; ++i) {
    if (!is_gr_byte(s[i])) return -1;
  }
  return need;
}

// MULE_INTERNAL: the lead byte decides the length; all following bytes of
// the character merely need the high bit set.
int check_mule(const unsigned char* s, std::size_t len) noexcept {
  const int need = mule_length(s[0]);
  if (static_cast<std::size_t>(need) > len) return -1;
  for (int i = 1; i < need; ++i) {
    if (!has_high_bit(s[i])) return -1;
  }
  return need;
}

int check_sjis(const unsigned char* s, std::size_t len) noexcept {
  const unsigned char lead = s[0];
  if (between(lead, 0xA1, 0xDF)) return 1;  // single-byte half-width katakana
  if (len < 2) return -1;
  const bool lead_ok = between(lead, 0x81, 0x9F) || between(lead, 0xE0, 0xFC);
  const unsigned char trail = s[1];
  const bool trail_ok = between(trail, 0x40, 0x7E) || between(trail, 0x80, 0xFC);
  return (lead_ok && trail_ok) ? 2 : -1;
}

// BIG5, GBK, UHC: any high-bit lead starts a two-byte character whose
// trailing byte may be anything except NUL.  Since PostgreSQL 15.11 the one
// pair 0x8D 0x20 is also refused (it is PostgreSQL's designated "known
// invalid" sequence for non-UTF-8 multibyte encodings).
int check_big5_like(const unsigned char* s, std::size_t len) noexcept {
  if (len < 2 || s[1] == 0x00) return -1;
  if (s[0] == 0x8D && s[1] == 0x20) return -1;
  return 2;
}

int check_gb18030(const unsigned char* s, std::size_t len) noexcept {
  const unsigned char lead = s[0];
  // Four-byte form is only considered when four bytes are available; with
  // fewer, a digit second byte falls through to the two-byte rule (and fails
  // there, since digits are not valid two-byte trails).
  if (len >= 4 && between(s[1], 0x30, 0x39)) {
    const bool ok = between(lead, 0x81, 0xFE) && between(s[2], 0x81, 0xFE) &&
                    between(s[3], 0x30, 0x39);
    return ok ? 4 : -1;
  }
  if (len >= 2 && between(lead, 0x81, 0xFE)) {
    const unsigned char trail = s[1];
    return (between(trail, 0x40, 0x7E) || between(trail, 0x80, 0xFE)) ? 2 : -1;
  }
  return -1;
}

// Dispatch for a high-bit lead byte in a multibyte grammar.
int check_multibyte(Grammar g, const unsigned char* s, std::size_t len) noexcept {
  switch (g) {
    case Grammar::utf8: return check_utf8(s, len);
    case Grammar::euc_jp: return check_euc_jp(s, len);
    case Grammar::euc_cn:
    case Grammar::euc_kr: return check_euc_kr_cn(s, len);
    case Grammar::euc_tw: return check_euc_tw(s, len);
    case Grammar::mule: return check_mule(s, len);
    case Grammar::sjis: return check_sjis(s, len);
    case Grammar::big5_like: return check_big5_like(s, len);
    case Grammar::gb18030: return check_gb18030(s, len);
    case Grammar::johab: return check_johab(s, len);
    case Grammar::single_byte: return 1;
  }
  return -1;
}

// True when the 8 bytes at p are all in 0x01..0x7F.
bool is_plain_ascii_word(const unsigned char* p) noexcept {
  constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;
  constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  if ((word & kHighBits) != 0) return false;
  // Every byte is <= 0x7F, so adding 0x7F cannot carry between bytes, and
  // the sum's high bit is set exactly for the non-zero bytes.
  return ((word + kLow7) & kHighBits) == kHighBits;
}

}  // namespace

int char_length(Encoding enc, const unsigned char* s, std::size_t avail) noexcept {
  if (avail == 0) return 0;
  const unsigned char lead = s[0];
  switch (grammar_of(enc)) {
    case Grammar::single_byte:
      return 1;
    case Grammar::utf8:
      return static_cast<int>(utf8_lead_length(lead));
    case Grammar::euc_jp:
    case Grammar::euc_kr:
    case Grammar::johab:
      return euc_length(lead);
    case Grammar::euc_cn:
      // Current PostgreSQL 15 minors (verified on 15.18) size SS2/SS3 as
      // 3-byte sequences here; older minors said 2.  The verifier rejects
      // both leads either way.
      if (lead == kSingleShift2 || lead == kSingleShift3) return 3;
      return has_high_bit(lead) ? 2 : 1;
    case Grammar::big5_like:
      return has_high_bit(lead) ? 2 : 1;
    case Grammar::euc_tw:
      if (lead == kSingleShift2) return 4;
      if (lead == kSingleShift3) return 3;
      return has_high_bit(lead) ? 2 : 1;
    case Grammar::mule:
      return mule_length(lead);
    case Grammar::sjis:
      if (between(lead, 0xA1, 0xDF)) return 1;
      return has_high_bit(lead) ? 2 : 1;
    case Grammar::gb18030: {
      if (!has_high_bit(lead)) return 1;
      // A missing second byte is read as the NUL terminator PostgreSQL
      // would normally find there.
      const unsigned char second = avail >= 2 ? s[1] : 0x00;
      return between(second, 0x30, 0x39) ? 4 : 2;
    }
  }
  return 1;
}

int verify_char(Encoding enc, const unsigned char* s, std::size_t len) noexcept {
  if (len == 0) return -1;
  const unsigned char lead = s[0];
  if (lead == 0x00) return -1;
  if (!has_high_bit(lead)) return 1;  // ASCII is a 1-byte character everywhere
  return check_multibyte(grammar_of(enc), s, len);
}

std::size_t verify_prefix(Encoding enc, const unsigned char* s, std::size_t len) noexcept {
  if (len == 0) return 0;
  const Grammar g = grammar_of(enc);

  if (g == Grammar::single_byte) {
    const void* nul = std::memchr(s, 0, len);
    return nul == nullptr ? len : static_cast<std::size_t>(static_cast<const unsigned char*>(nul) - s);
  }

  std::size_t pos = 0;
  while (pos < len) {
    while (len - pos >= 8 && is_plain_ascii_word(s + pos)) pos += 8;
    if (pos == len) break;

    const unsigned char c = s[pos];
    if (!has_high_bit(c)) {
      if (c == 0x00) break;
      ++pos;
      continue;
    }
    const int n = check_multibyte(g, s + pos, len - pos);
    if (n < 0) break;
    pos += static_cast<std::size_t>(n);
  }
  return pos;
}

int max_char_length(Encoding enc) noexcept {
  const auto i = static_cast<std::size_t>(enc);
  return i < static_cast<std::size_t>(encoding_count) ? info(enc).max_char_length : 1;
}

}  // namespace pgcodec::detail
