// Where the families' decoders write: one decoder per family, written once
// as a template over its sink, serves UTF-8 output (decode) and every code
// unit form (decode_units). A sink knows how many units a code point takes
// and how to store it; its `limit` is the widest code point it may store
// (UnitBuffer::limit), a constant for UTF-8, so the check compiles away
// there.
//
// The families' loops keep the buffer pointer, capacity and write position
// in locals (see multibyte.cpp: a store through char* may alias anything);
// a sink is the type of those locals plus static functions over them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "codecs/ascii_copy.hpp"
#include "pgcodec/codec.hpp"
#include "rules/utf8.hpp"

namespace pgcodec::detail {

struct Utf8Sink {
  using Unit = char;
  static constexpr bool kUtf8 = true;
  static constexpr char32_t limit() noexcept { return 0x10FFFF; }
  static std::size_t units(std::uint32_t cp) noexcept { return utf8_encoded_length(cp); }
  static std::size_t store(Unit* o, std::uint32_t cp) noexcept { return write_utf8(o, cp); }
};

// Fixed-width units of type U (uint8_t, char16_t, char32_t); Pairs: UTF-16,
// a code point above U+FFFF is stored as two surrogates.
template <class U, bool Pairs>
struct UnitSink {
  using Unit = U;
  static constexpr bool kUtf8 = false;
  char32_t limit_;
  char32_t limit() const noexcept { return limit_; }
  static std::size_t units(std::uint32_t cp) noexcept { return Pairs && cp > 0xFFFF ? 2 : 1; }
  static std::size_t store(Unit* o, std::uint32_t cp) noexcept {
    if (Pairs && cp > 0xFFFF) {
      o[0] = static_cast<Unit>(0xD7C0u + (cp >> 10));
      o[1] = static_cast<Unit>(0xDC00u | (cp & 0x3FFu));
      return 2;
    }
    o[0] = static_cast<Unit>(cp);
    return 1;
  }
};

using Latin1Sink = UnitSink<std::uint8_t, false>;
using Ucs2Sink = UnitSink<char16_t, false>;
using Utf16Sink = UnitSink<char16_t, true>;
using Utf32Sink = UnitSink<char32_t, false>;

// The ASCII run at in[i] (bytes 0x01..0x7F, at least one) copied to out[w]
// as units, as far as it fits in cap; false when the output filled up first.
// UTF-8 output is copy_ascii itself.
template <class U>
inline bool copy_ascii_units(const kernels::Kernel& k, const unsigned char* in, std::size_t n,
                             std::size_t& i, U* out, std::size_t cap, std::size_t& w) noexcept {
  if constexpr (sizeof(U) == 1) {
    return copy_ascii(k, in, n, i, reinterpret_cast<char*>(out), cap, w);
  } else {
    std::size_t run;
    if (k.table_shortcuts && n - i >= 8) {
      run = ascii_prefix8(in + i);
      if (run == 8 && n - i > 8) run += k.ascii_run(in + i + 8, n - i - 8);
    } else {
      run = k.ascii_run(in + i, n - i);
    }
    const std::size_t take = run < cap - w ? run : cap - w;
    const unsigned char* s = in + i;
    U* d = out + w;
    for (std::size_t j = 0; j < take; ++j) d[j] = static_cast<U>(s[j]);  // widened, vectorized
    i += take;
    w += take;
    return take == run;
  }
}

// The replacement character's units (U+FFFD), in any sink.
template <class S>
inline std::size_t store_replacement(typename S::Unit* o) noexcept {
  return S::store(o, 0xFFFD);
}

// Calls fn(sink, out, capacity) with the sink for `buf`'s form: the code
// unit entry points of the families (decode_units).
template <class Fn>
inline Result with_unit_sink(const UnitBuffer& buf, Fn&& fn) noexcept {
  switch (buf.form) {
    case UnitForm::Latin1:
      return fn(Latin1Sink{buf.limit}, static_cast<std::uint8_t*>(buf.data), buf.capacity);
    case UnitForm::Ucs2:
      return fn(Ucs2Sink{buf.limit}, static_cast<char16_t*>(buf.data), buf.capacity);
    case UnitForm::Utf16:
      return fn(Utf16Sink{buf.limit}, static_cast<char16_t*>(buf.data), buf.capacity);
    case UnitForm::Utf32:
      break;
  }
  return fn(Utf32Sink{buf.limit}, static_cast<char32_t*>(buf.data), buf.capacity);
}

// Calls fn(units) with `text`'s units as a pointer of their type (uint8_t,
// char16_t or char32_t): the encoding side of with_unit_sink, for the
// families' encode_units_prefix and the block path's transcoding.
template <class Fn>
inline auto with_units(const UnitText& text, Fn&& fn) noexcept {
  switch (text.form) {
    case UnitForm::Latin1: return fn(static_cast<const std::uint8_t*>(text.data));
    case UnitForm::Ucs2:
    case UnitForm::Utf16: return fn(static_cast<const char16_t*>(text.data));
    case UnitForm::Utf32: break;
  }
  return fn(static_cast<const char32_t*>(text.data));
}

}  // namespace pgcodec::detail
