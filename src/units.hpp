// The code-unit encoder's block loop (units.cpp), with the block size as a
// parameter: Codec::encode_units uses 4 KiB; the harness (check_units) also
// runs it with blocks of a few bytes, so that every block end meets pairs,
// surrogates and errors, and compares the two.
#pragma once

#include <cstddef>
#include <span>

#include "pgcodec/codec.hpp"

namespace pgcodec::detail {

// Blocks of block_size bytes of UTF-8 (1..4096; a block holds at least one
// character, and grows where it has no safe cut). From unit `start` on,
// `written` bytes of out already written for the units before it (where
// the family's fast path stopped: Codec::encode_units).
Result encode_units_in_blocks(const Codec& codec, const UnitText& text, std::span<char> out, ErrorMode mode,
                              bool final, std::size_t block_size, std::size_t start = 0,
                              std::size_t written = 0) noexcept;

}  // namespace pgcodec::detail
