// Structural validity of byte sequences in every PostgreSQL encoding.
//
// These functions answer "is this a well-formed character?" exactly the way
// PostgreSQL 15 does (src/common/wchar.c: the per-encoding mblen, verifychar
// and verifystr routines, and pg_verify_mbstr* in mbutils.c).  They say
// nothing about whether a well-formed character has a mapping in some other
// encoding; that is the conversion layer's business (SQLSTATE 22P05 versus
// 22021 for what is rejected here).
//
// None of these functions allocate, throw, or read outside the range they
// are given.  An Encoding value outside the enum's range is treated as
// SQL_ASCII, which is what PostgreSQL's lookup helpers do.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pgcodec/encoding.hpp"

namespace pgcodec::detail {

// Encodings grouped by identical byte grammar (each encoding's is in its
// codec_table row). Where PostgreSQL gives two encodings the same verifier
// but different mblen (EUC_CN vs EUC_KR differ for the SS2 lead), they get
// separate grammars so char_length stays exact.
enum class Grammar : std::uint8_t {
  single_byte,  // SQL_ASCII and every LATINn/WINnnn/KOI8x/ISO_8859_n
  utf8,
  euc_jp,       // EUC_JP and EUC_JIS_2004 (PostgreSQL treats them alike)
  euc_cn,
  euc_kr,
  euc_tw,
  mule,
  sjis,         // SJIS and SHIFT_JIS_2004
  big5_like,    // BIG5, GBK, UHC
  gb18030,
  johab,
};

// PostgreSQL's mblen: the byte length the encoding assigns to the character
// whose first byte is s[0].  The answer is computed from the lead byte alone
// (GB18030 also consults s[1]); it is NOT a validity check, and it may be
// larger than `avail` when the input is truncated or malformed.  Callers that
// need a bound should take std::min(char_length(...), avail).
//
// Never reads at or beyond s + avail:
//   * avail == 0 returns 0 (there is no lead byte to look at).
//   * GB18030 with a high-bit lead and avail == 1: PostgreSQL would read the
//     byte after the buffer.  We answer as PostgreSQL does for the usual case
//     of a NUL-terminated buffer, i.e. as if that byte were 0x00, giving 2.
//     (PostgreSQL's own verifier rejects such a lone lead byte, and its error
//     reporting clamps the length to what remains, so the exact value beyond
//     `avail` never matters for PostgreSQL-visible behaviour.)
int char_length(Encoding enc, const unsigned char* s, std::size_t avail) noexcept;

// PostgreSQL's pg_encoding_verifymbchar: if a validly encoded character
// starts at s, return its length in bytes, else -1.  Never reads at or
// beyond s + len.
//
// Unlike the raw PostgreSQL per-encoding verifychar routines (which are
// allowed to assume len > 0 and s[0] != 0 because their callers filter
// those cases out), this function is total: len == 0 yields -1, and a NUL
// lead byte yields -1 in every encoding, matching what pg_verify_mbstr and
// the verifystr routines decide for such input.  NUL is also rejected in
// any trailing byte position, as PostgreSQL does.
int verify_char(Encoding enc, const unsigned char* s, std::size_t len) noexcept;

// PostgreSQL's pg_encoding_verifymbstr: the length of the longest prefix of
// s[0, len) that consists entirely of valid characters.  Returns len when
// the whole input is valid; otherwise the offset of the first byte of the
// first invalid (or truncated, or NUL) character.  Equivalent to repeatedly
// applying verify_char and stopping at the first -1.
std::size_t verify_prefix(Encoding enc, const unsigned char* s, std::size_t len) noexcept;

// PostgreSQL's pg_encoding_max_length (the maxmblen column of
// pg_wchar_table), i.e. EncodingInfo::max_char_length; 1 for an out-of-range
// value.  This is the table's declared maximum: for EUC_KR it is 3 although
// the EUC_KR verifier never accepts a character longer than 2.
int max_char_length(Encoding enc) noexcept;

// The test for "a character cut off by the end of the chunk": the lead byte
// at s claims more bytes than the `avail` left. A non-final decode stops
// before such a character instead of reporting it.
inline bool cut_off_by_end(Encoding enc, const unsigned char* s, std::size_t avail) noexcept {
  return avail < static_cast<std::size_t>(char_length(enc, s, avail));
}

}  // namespace pgcodec::detail
