// The single-byte decode kernels: bytes of one of the 27 single-byte
// encodings to UTF-8, 64 bytes at a time, for the stretches where every
// high byte maps to a two-byte UTF-8 character (all of Latin-1, Cyrillic,
// Greek, Hebrew and Arabic), and to code units, 32 bytes at a time. The
// family's loop (codecs/single_byte.cpp) does everything else one byte at a
// time and calls back in.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pgcodec::kernels {

// A single-byte encoding's mapping in the form the kernels look up 64 bytes
// at a time. Decoding: for byte 0x80 + k, lead[k] and trail[k] are the two
// bytes of its UTF-8 when two[k] is 1; any other byte (unmapped, or three
// bytes of UTF-8) has two[k] == 0. Encoding: from_two[l & 0x1F][t & 0x3F]
// is the byte of the two-byte UTF-8 character l t (l in C2..DF), 0 if the
// encoding has none.
struct SingleBytePlanes {
  std::uint8_t lead[128];
  std::uint8_t trail[128];
  std::uint8_t two[128];
  std::uint8_t from_two[32][64];
};

// Converts whole 64-byte blocks of in[0, n) while each block holds no NUL,
// only high bytes with two[] set, and its output fits in out[0, cap).
// Returns the bytes consumed (a multiple of 64, possibly 0); `written` is
// set to the bytes stored. Nothing is stored past out + written.
using SingleByteDecodeFn = std::size_t (*)(const SingleBytePlanes& t, const unsigned char* in,
                                           std::size_t n, char* out, std::size_t cap,
                                           std::size_t& written) noexcept;

// Converts blocks of 64 bytes of UTF-8 in in[0, n) (63 when the 64th is a
// lead byte) while each block holds only ASCII (no NUL) and two-byte
// characters the encoding has, and its output fits. Returns the bytes
// consumed, always at the end of a character; `written` as above.
using SingleByteEncodeFn = SingleByteDecodeFn;

// Bytes of a single-byte encoding to code units of `unit` bytes (1, 2 or
// 4): each byte b of in[0, n) becomes the unit code_point[b] (the 256-entry
// table of tables/dense.hpp: 0 for NUL and unmapped bytes; every entry is at
// most U+FFFF) while that is neither 0 nor above `limit`. Returns how many
// bytes it converted, one unit each, stopping before the first that is;
// out must have room for n units. Never reads past in + n nor writes past
// the units it returns.
using SingleByteUnitsFn = std::size_t (*)(const char16_t* code_point, const unsigned char* in, std::size_t n,
                                          void* out, unsigned unit, char32_t limit) noexcept;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// AVX2: 32 bytes at a time, the high ones looked up with vpshufb by
// nibble (kernels/single_byte_avx2.cpp).
std::size_t single_byte_units_avx2(const char16_t* code_point, const unsigned char* in, std::size_t n,
                                   void* out, unsigned unit, char32_t limit) noexcept;
// AVX-512F and BW: 32 bytes at a time, the last fewer under a mask.
std::size_t single_byte_units_avx512(const char16_t* code_point, const unsigned char* in, std::size_t n,
                                     void* out, unsigned unit, char32_t limit) noexcept;
// AVX-512 with VBMI (128-byte table lookups) and VBMI2 (byte compression).
std::size_t single_byte_decode_avx512(const SingleBytePlanes& t, const unsigned char* in,
                                      std::size_t n, char* out, std::size_t cap,
                                      std::size_t& written) noexcept;
std::size_t single_byte_encode_avx512(const SingleBytePlanes& t, const unsigned char* in,
                                      std::size_t n, char* out, std::size_t cap,
                                      std::size_t& written) noexcept;
#endif

}  // namespace pgcodec::kernels
