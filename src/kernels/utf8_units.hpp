// UTF-8 of the BMP (above all three-byte characters, U+0800..U+FFFF: CJK,
// kana, hangul, Thai, Indic) to and from 16-bit code units, a block at a time
// (Kernel::utf8_to_units16, Kernel::units16_to_utf8), and any UTF-8 to and
// from 32-bit units (Kernel::utf8_to_units32, Kernel::units32_to_utf8: text
// with emoji). The scalar kernel has
// neither: the codecs' character loops (codecs/utf8.cpp decode_fast,
// encode_prefix_loop) are the twin every entry must match.
#pragma once

#include <cstddef>

#include "kernels/target.hpp"

namespace pgcodec::kernels {

// Decodes a prefix of [p, p + n), UTF-8 that Kernel::utf8_valid_run
// accepted whole (complete characters PostgreSQL accepts, no NUL), into
// 16-bit units at o; returns the bytes decoded and sets `written` to their
// units. It stops before a four-byte character and where too few bytes are
// left for a block (the caller's character loop goes on from there). It may
// store past the units it reports: o must have room for n units.
using Utf8To16Fn = std::size_t (*)(const unsigned char* p, std::size_t n, char16_t* o,
                                   std::size_t& written) noexcept;

// As Utf8To16Fn, into 32-bit units (UTF-32), four-byte characters
// included: it stops only where too few bytes are left for a block.
using Utf8To32Fn = std::size_t (*)(const unsigned char* p, std::size_t n, char32_t* o,
                                   std::size_t& written) noexcept;

// Encodes a prefix of [u, u + n), code points U+0001..U+FFFF that are not
// surrogates, into UTF-8 at o; returns the units encoded and sets `written`
// to their bytes. It stops before a unit that is none of those (NUL, a
// surrogate: the caller's loop decides) and where too few units are left
// for a block. Writes nothing past those bytes: o must have room for 3 * n.
using Units16ToUtf8Fn = std::size_t (*)(const char16_t* u, std::size_t n, char* o,
                                        std::size_t& written) noexcept;

// As Units16ToUtf8Fn, from 32-bit units (UTF-32), code points
// U+0001..U+10FFFF that are not surrogates: four-byte characters included.
// o must have room for 4 * n.
using Units32ToUtf8Fn = std::size_t (*)(const char32_t* u, std::size_t n, char* o, std::size_t& written) noexcept;

#if defined(PGCODEC_KERNELS_X86)
// AVX2: UTF-8 to 16-bit units, any mix of one-, two- and three-byte
// characters, 32 bytes a block (every position's code point computed as if
// a character started there, those that start one packed with a vpshufb per
// eight lanes); to 32-bit units likewise, four-byte characters too (vpermd
// per eight lanes). 16-bit units to UTF-8: runs of units U+0800..U+FFFF
// only (CJK without spaces), eight a block, with SSSE3 byte shuffles in
// 128-bit registers (VEX-encoded). Only for a CPU with AVX2 (kernels.cpp
// checks).
std::size_t utf8_to_units16_avx2(const unsigned char* p, std::size_t n, char16_t* o,
                                 std::size_t& written) noexcept;
std::size_t units16_to_utf8_avx2(const char16_t* u, std::size_t n, char* o, std::size_t& written) noexcept;
std::size_t utf8_to_units32_avx2(const unsigned char* p, std::size_t n, char32_t* o,
                                 std::size_t& written) noexcept;
std::size_t units32_to_utf8_avx2(const char32_t* u, std::size_t n, char* o, std::size_t& written) noexcept;
// AVX-512 with VBMI2: any mix of one-, two- and three-byte characters
// (text with spaces and punctuation between the words), 64 bytes (resp. 32
// units) a block: every position's code point computed as if a character
// started there, those that start one kept with vpcompressw (resp. the
// bytes that are not zero with vpcompressb).
std::size_t utf8_to_units16_avx512(const unsigned char* p, std::size_t n, char16_t* o,
                                   std::size_t& written) noexcept;
std::size_t units16_to_utf8_avx512(const char16_t* u, std::size_t n, char* o, std::size_t& written) noexcept;
// AVX-512F and BW: any mix of one- to four-byte characters, 64 bytes a
// block, 16 positions at a time in 32-bit lanes (vpcompressd).
std::size_t utf8_to_units32_avx512(const unsigned char* p, std::size_t n, char32_t* o,
                                   std::size_t& written) noexcept;
// AVX-512 with VBMI2: 16 units a block, each unit's UTF-8 in its 32-bit
// lane, the bytes that are not zero kept with vpcompressb.
std::size_t units32_to_utf8_avx512(const char32_t* u, std::size_t n, char* o, std::size_t& written) noexcept;
#endif

}  // namespace pgcodec::kernels
