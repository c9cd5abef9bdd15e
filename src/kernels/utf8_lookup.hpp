// The tables of the lookup UTF-8 validation (Keiser and Lemire, "Validating
// UTF-8 In Less Than One Instruction Per Byte", 2021), derived here from
// PostgreSQL's rules (rules/utf8.hpp): shortest form only, no surrogates,
// nothing above U+10FFFF.
//
// Every pair of adjacent bytes (b1, b2) is classified by three 16-entry
// lookups, on b1's high nibble, b1's low nibble and b2's high nibble. Each
// bit below is one way a pair can be wrong; an entry holds the bits its
// nibble allows, so the AND of the three lookups is the set of errors the
// pair has. kTwoConts (two continuation bytes in a row) is an error unless
// the byte two or three back is a lead of a 3- or 4-byte character
// ("must be a 2nd/3rd continuation"), which the kernels check by XOR.
#pragma once

#include <array>
#include <cstdint>

namespace pgcodec::kernels::utf8_lookup {

enum : std::uint8_t {
  kTooShort = 1 << 0,    // a lead (0xC0..0xFF) not followed by a continuation
  kTooLong = 1 << 1,     // ASCII followed by a continuation
  kOverlong3 = 1 << 2,   // E0 80..9F
  kTooLarge = 1 << 3,    // F4 90..BF, F5..FF 90..BF
  kSurrogate = 1 << 4,   // ED A0..BF
  kOverlong2 = 1 << 5,   // C0, C1 and a continuation
  kTooLarge1000 = 1 << 6,  // F5..FF 80..8F
  kOverlong4 = 1 << 6,   // F0 80..8F: same b2 range as kTooLarge1000, disjoint b1
  kTwoConts = 1 << 7,    // the bit the "must be a continuation" check flips
};

using Table = std::array<std::uint8_t, 16>;

// b1's high nibble: 0..7 ASCII, 8..B continuation, C/D 2-byte, E 3-byte,
// F 4-byte (and F5..FF, never valid).
inline constexpr Table kByte1High = {
    kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong,
    kTwoConts, kTwoConts, kTwoConts, kTwoConts,
    kTooShort | kOverlong2,
    kTooShort,
    kTooShort | kOverlong3 | kSurrogate,
    kTooShort | kTooLarge | kTooLarge1000 | kOverlong4,
};

// b1's low nibble: the errors that hold whatever it is, plus those of the
// particular lead bytes above (C0/C1, E0, ED, F0, F4, F5..FF).
constexpr std::uint8_t kAnyLow = kTooShort | kTooLong | kTwoConts;
inline constexpr Table kByte1Low = {
    kAnyLow | kOverlong2 | kOverlong3 | kOverlong4,
    kAnyLow | kOverlong2,
    kAnyLow,
    kAnyLow,
    kAnyLow | kTooLarge,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000 | kSurrogate,
    kAnyLow | kTooLarge | kTooLarge1000,
    kAnyLow | kTooLarge | kTooLarge1000,
};

// b2's high nibble: a continuation (8..B) or not.
constexpr std::uint8_t kAnyCont = kTooLong | kOverlong2 | kTwoConts;
inline constexpr Table kByte2High = {
    kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort,
    kAnyCont | kOverlong3 | kTooLarge1000 | kOverlong4,  // 80..8F
    kAnyCont | kOverlong3 | kTooLarge,                   // 90..9F
    kAnyCont | kSurrogate | kTooLarge,                   // A0..AF
    kAnyCont | kSurrogate | kTooLarge,                   // B0..BF
    kTooShort, kTooShort, kTooShort, kTooShort,
};

}  // namespace pgcodec::kernels::utf8_lookup
