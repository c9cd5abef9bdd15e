// The two-byte kernels: text of a multibyte encoding whose characters are
// ASCII, single high bytes (SJIS's half-width katakana) and two-byte codes,
// decoded 64 bytes at a time to UTF-8 or code units, and encoded from code
// units 32 at a time. The family's loops (codecs/multibyte.cpp) do
// everything else (three- and four-byte codes, NUL, errors, wide entries,
// pairs) one character at a time and call back in.
//
// On text that changes between ASCII and two-byte characters every few
// characters (words and spaces, Chinese with ASCII punctuation), a loop that
// takes one character a step mispredicts the branch on the character's kind
// at every change. The block forms find the characters first, from bit
// masks (lead_bytes below; a code's length), and then convert them all alike.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pgcodec::kernels {

// A multibyte encoding's decode tables (tables/dense.hpp's MultibyteDense),
// as the kernel reads them. one[b & 0x7F]: the code point of high byte b as
// a character on its own (0: none); those bytes are exactly single_lo ..
// single_hi (single_lo > single_hi: none). A lead byte's row (DecodeRow)
// has a base and the bytes lo and hi: the two bytes b t are a code when
// lo <= t <= hi, and values[base + t] is then its value: 0 none, D800..DFFF
// an index into the wide entries (not for the kernel), any other the code
// point. row_bytes holds the rows of the 128 high bytes as four planes of
// 128 bytes by b & 0x7F, which the kernel looks up in registers: lo, hi,
// and the low and high byte of base mod 2^16 (every values[base + t] of a
// row is below values[65536], so base + t mod 2^16 is the index; the
// family gives the kernel only such tables). An empty row has lo 1, hi 0.
// lead_ok[b & 0x7F] (128 bytes, 0 or 1): high byte b has a row that is not
// empty; trail_ok[t] (256 bytes): t is in some row. A character whose bytes
// fail these is stopped before without a look at the rows (GB18030's
// four-byte codes). ss3_rows, for EUC_JP and EUC_JIS_2004 (else null):
// their three-byte codes 8F b1 b2, a byte that is never anything but such
// a lead in valid text; ss3_rows[b1] is the index of a row (8 bytes: a
// uint32 base, then lo and hi) in rows3 (row 0 empty), and b2 in that
// row's lo..hi gives values[base + b2]. pair_values[(b & 0x7F) << 8 | t]
// (32768 entries, or null): the value of the two bytes b t, values[base + t]
// of b's row when t is in it, else 0, for a kernel that reads one entry a
// character where the row and then the value are two dependent reads; with
// ss3_rows, pair_values[32768 + ((b1 & 0x7F) << 8 | b2)] likewise for the
// three-byte code 8F b1 b2 (b1 from 0x80; 0 where it is no code).
struct TwoByteTables {
  const std::uint16_t* one;
  const std::uint8_t* row_bytes;
  const std::uint16_t* values;
  unsigned single_lo, single_hi;
  const std::uint8_t* lead_ok;
  const std::uint8_t* trail_ok;
  const std::uint16_t* ss3_rows;
  const void* rows3;
  const std::uint16_t* pair_values;
};

// The lead bytes among the 64 bytes whose bit is set in h (the high bytes
// that are not singles), the first of them starting a character: in each
// run of such bytes (trail bytes below 0x80 end one) the first, third, ...
// are lead bytes, as a parse from the first byte pairs them. Adding a run's
// first bit carries through the run and clears it: that finds the runs
// starting at an even position, whose even bytes are the leads; in the
// other runs, the odd ones.
constexpr std::uint64_t lead_bytes(std::uint64_t h) noexcept {
  constexpr std::uint64_t kEven = 0x5555555555555555ull;
  const std::uint64_t starts = h & ~(h << 1);
  const std::uint64_t even_runs = h & ~(h + (starts & kEven));
  return (even_runs & kEven) | (h & ~even_runs & ~kEven);
}

// Decodes whole characters of in[0, n) while each is ASCII (not NUL), a
// single with a code point or a two-byte code (or an SS3 three-byte one)
// whose value is a code point,
// each code point at most `limit`, into out: UTF-8 bytes when unit is 0,
// else units of `unit` bytes (1, 2 or 4), while the output fits in cap
// (bytes or units). Reads at most in[0, n). Returns the bytes consumed,
// always at the start of a character (stopping before the first character
// it does not take, or where fewer than 66 bytes are left); `written` is
// set to what it stored. Nothing is stored past out + written.
using TwoByteDecodeFn = std::size_t (*)(const TwoByteTables& t, const unsigned char* in, std::size_t n,
                                        void* out, std::size_t cap, unsigned unit, char32_t limit,
                                        std::size_t& written) noexcept;

// A multibyte encoding's encode tables (tables/dense.hpp's MultibyteDense),
// as the encode kernel reads them: page_of[cp >> 8] (page_count entries)
// is a page number + 1 (0: none), pages[(page - 1) * 256 + (cp & 0xFF)] the
// entry: 0x8000 and up a two-byte code, high byte first; 1..0xFF a
// one-byte code; 0x100..0x7FFF an index from 0x100 into wide_codes, a code
// of up to four bytes (its bytes high first, as tables/table.hpp's
// write_code writes them); 0 none. seconds: the second code points of the
// encoding's pairs (EUC_JIS_2004 and SHIFT_JIS_2004: U+309A after か is
// one code), second_count of them, or null for an encoding without pairs;
// with pairs, a character followed by one of them, or by a unit that is no
// character, is left to the family's loop, which looks ahead. bmp (or
// null): the page entry of every code point below U+10000 (65536 entries,
// what page_of and pages give), for a kernel that reads one entry a
// character where page_of and pages are two dependent reads. GB18030's
// four-byte codes, which no page holds (for a kernel given bmp; else
// null): bmp_linear[cp] (65536 entries) is 1 + the linear index of the
// four-byte code of BMP code point cp (table.hpp's gb18030_code), 0 where
// it has none; U+10000 and up are one run from linear index
// supplementary_linear.
struct TwoByteEncodeTables {
  const std::uint16_t* page_of;
  std::uint32_t page_count;
  const std::uint16_t* pages;
  const std::uint32_t* wide_codes;
  const std::uint32_t* seconds;
  unsigned second_count;
  const std::uint16_t* bmp = nullptr;
  const std::uint16_t* bmp_linear = nullptr;
  std::uint32_t supplementary_linear = 0;
};

// Encodes whole characters of the n code units at `in` (unit: 2 or 4 bytes
// each) while each is ASCII (not NUL) or has a code in the pages, into out
// (cap bytes). Returns the units consumed (stopping before the first unit
// it does not take, or where fewer than 32 units, 33 with pairs, or 128
// bytes of room are left); `written` is set to the bytes it stored. Bytes
// past out + written may be written, never past out + cap.
using TwoByteEncodeFn = std::size_t (*)(const TwoByteEncodeTables& t, const void* in, std::size_t n,
                                        unsigned unit, char* out, std::size_t cap,
                                        std::size_t& written) noexcept;

// GB18030's four-byte codes as the run kernel reads them: one run of
// linear indices (tables/table.hpp's gb18030_linear_of), `linear` up to
// linear + length - 1, the code points from cp on (the supplementary
// planes); and, or null, low[x]: the code point of linear index x below
// 65536 (the BMP's four-byte codes; 0 where none), 128 KiB.
struct Gb18030Runs {
  std::uint32_t linear, cp, length;
  const std::uint16_t* low;
};

// GB18030 text of ASCII (not NUL) and four-byte codes in `runs` (text over
// the whole repertoire is mostly made of those of the supplementary planes,
// between spaces and punctuation). Decodes whole characters while each is
// such to 32-bit units in out (cap units); returns the bytes consumed,
// always at the start of a character, stopping before the first that is
// not such (a two-byte code, a four-byte code of no run given, NUL,
// anything malformed, a code cut off by the end) or where the room left is
// less than kGb18030RunRoom units and less than the bytes left. `written`
// is set to the units stored; nothing is stored past out + written. Reads
// at most in[0, n).
inline constexpr std::size_t kGb18030RunRoom = 64;
using Gb18030RunDecodeFn = std::size_t (*)(const Gb18030Runs& runs, const unsigned char* in, std::size_t n,
                                           char32_t* out, std::size_t cap, std::size_t& written) noexcept;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// 64 bytes at a time: the characters found from bit masks (a lead byte is
// the first, third, ... high byte), each position's four bytes in a 32-bit
// lane and their linear index by multiply-adds, a BMP code's code point
// from low with a gather, the characters' lanes moved to the front with
// vpermd.
std::size_t gb18030_run_decode_avx2(const Gb18030Runs& runs, const unsigned char* in, std::size_t n,
                                    char32_t* out, std::size_t cap, std::size_t& written) noexcept;
// AVX2: the characters' first and second bytes (a three-byte code's third
// too) squeezed together with vpshufb; two- and three-byte codes read from
// pair_values (which it needs), singles from one, a scalar load a lane,
// 8 characters a step.
std::size_t two_byte_decode_avx2(const TwoByteTables& t, const unsigned char* in, std::size_t n, void* out,
                                 std::size_t cap, unsigned unit, char32_t limit, std::size_t& written) noexcept;
// 8 units at a time: page entries (from bmp when given, a scalar load a
// lane; else from the pages) and wide codes read with gathers, the codes'
// bytes packed with vpshufb (as UTF-8 is, where a code has three or four
// bytes).
std::size_t two_byte_encode_avx2(const TwoByteEncodeTables& t, const void* in, std::size_t n, unsigned unit,
                                 char* out, std::size_t cap, std::size_t& written) noexcept;
// AVX-512 with VBMI2 (vpcompressb) and BMI2: the characters' first and
// second bytes compressed into lanes, the tables read with gathers.
std::size_t two_byte_decode_avx512(const TwoByteTables& t, const unsigned char* in, std::size_t n, void* out,
                                   std::size_t cap, unsigned unit, char32_t limit, std::size_t& written) noexcept;
// 32 units at a time: the page and the code read with gathers, the codes'
// bytes squeezed together with vpcompressb.
std::size_t two_byte_encode_avx512(const TwoByteEncodeTables& t, const void* in, std::size_t n, unsigned unit,
                                   char* out, std::size_t cap, std::size_t& written) noexcept;
#endif

}  // namespace pgcodec::kernels
