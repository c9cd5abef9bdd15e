// Building str objects from what the library decoded, measured choice by
// choice (bench/python/str_paths.py): ASCII is one memcpy into a compact
// ASCII str; other short UTF-8 is written into a UCS1/UCS2/UCS4 str by the
// module from the already-validated bytes, longer UTF-8 goes to
// PyUnicode_DecodeUTF8 (as fast there, or faster); single-byte encodings
// skip UTF-8 and fill the str from a per-codec table.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "pgcodec_py.hpp"

namespace pgcodec::python {
namespace {

constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
// Up to this many bytes of non-ASCII UTF-8 the module fills the str itself.
constexpr std::size_t kFillMax = 512;

}  // namespace

bool all_ascii(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  std::uint64_t acc = 0;
  for (; i + 32 <= n; i += 32) {
    std::uint64_t w[4];
    std::memcpy(w, p + i, sizeof w);
    acc |= w[0] | w[1] | w[2] | w[3];
    if (acc & kHigh) return false;  // text that is not ASCII is told early
  }
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, sizeof w);
    acc |= w;
  }
  unsigned char tail = 0;
  for (; i < n; ++i) tail = static_cast<unsigned char>(tail | p[i]);
  return (acc & kHigh) == 0 && (tail & 0x80) == 0;
}

namespace {

template <class Char>
void fill(Char* out, const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = p[i];
    if (c < 0x80) {
      *out++ = static_cast<Char>(c);
      i += 1;
    } else if (c < 0xE0) {
      *out++ = static_cast<Char>(((c & 0x1Fu) << 6) | (p[i + 1] & 0x3Fu));
      i += 2;
    } else if (c < 0xF0) {
      *out++ = static_cast<Char>(((c & 0x0Fu) << 12) | ((p[i + 1] & 0x3Fu) << 6) | (p[i + 2] & 0x3Fu));
      i += 3;
    } else {
      *out++ = static_cast<Char>(((c & 0x07u) << 18) | ((p[i + 1] & 0x3Fu) << 12) |
                                 ((p[i + 2] & 0x3Fu) << 6) | (p[i + 3] & 0x3Fu));
      i += 4;
    }
  }
}

// UTF-8 that is not all ASCII (a str of only ASCII must be made as ASCII,
// the callers' job), filled into a str of the smallest kind.
PyObject* fill_non_ascii(const unsigned char* p, std::size_t n) {
  // The kind follows from the bytes alone (continuation bytes are 80..BF):
  // a byte >= F0 leads U+10000 and up, a byte >= C4 leads U+0100..U+FFFF,
  // else every lead is C2..C3 (U+0080..U+00FF). One branch-free pass finds
  // both and counts the continuation bytes (10xxxxxx), 8 bytes at a time.
  constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  std::size_t cont = 0, i = 0;
  std::uint64_t ge_c4 = 0, ge_f0 = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, sizeof w);
    const std::uint64_t low = w & kLow7;
    ge_c4 |= w & (low + 0x3C3C3C3C3C3C3C3CULL);  // bit 7 and low 7 bits >= 0x44
    ge_f0 |= w & (low + 0x1010101010101010ULL);  // bit 7 and low 7 bits >= 0x70
    cont += static_cast<std::size_t>(__builtin_popcountll(w & ~(w << 1) & kHigh));
  }
  unsigned max_tail = 0;
  for (; i < n; ++i) {
    cont += (p[i] & 0xC0) == 0x80;
    max_tail = std::max<unsigned>(max_tail, p[i]);
  }
  const std::size_t count = n - cont;
  const Py_UCS4 maxchar = ((ge_f0 & kHigh) || max_tail >= 0xF0)   ? 0x10FFFF
                          : ((ge_c4 & kHigh) || max_tail >= 0xC4) ? 0xFFFF
                                                                  : 0xFF;
  PyObject* str = PyUnicode_New(static_cast<Py_ssize_t>(count), maxchar);
  if (!str) return nullptr;
  void* data = PyUnicode_DATA(str);
  switch (PyUnicode_KIND(str)) {
    case PyUnicode_1BYTE_KIND:
      fill(static_cast<Py_UCS1*>(data), p, n);
      break;
    case PyUnicode_2BYTE_KIND:
      fill(static_cast<Py_UCS2*>(data), p, n);
      break;
    default:
      fill(static_cast<Py_UCS4*>(data), p, n);
      break;
  }
  return str;
}

}  // namespace

Py_ssize_t count_code_points(const char* s, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) count += (p[i] & 0xC0) != 0x80;
  return static_cast<Py_ssize_t>(count);
}

PyObject* ascii_copy(const unsigned char* p, std::size_t n) {
  PyObject* str = PyUnicode_New(static_cast<Py_ssize_t>(n), 127);
  if (str) std::memcpy(PyUnicode_DATA(str), p, n);
  return str;
}

PyObject* str_from_utf8(const char* s, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  if (all_ascii(p, n)) return ascii_copy(p, n);
  // Short text: filling the str ourselves from the validated bytes measured
  // 10-30 % faster than PyUnicode_DecodeUTF8 (up to ~300 bytes); on longer
  // text CPython's decoder, second validation included, is as fast or
  // faster (1000 CJK characters: 4.2 vs 5.4 us).
  if (n <= kFillMax) return fill_non_ascii(p, n);
  return PyUnicode_DecodeUTF8(s, static_cast<Py_ssize_t>(n), "strict");
}

PyObject* str_from_utf8_filled(const char* s, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  return all_ascii(p, n) ? ascii_copy(p, n) : fill_non_ascii(p, n);
}

PyObject* str_from_single_byte(const CodecObject* c, const unsigned char* p, std::size_t n) {
  if (c->identity) {
    // Every byte but NUL is its own code point (LATIN1): a copy.
    if (std::memchr(p, 0, n)) return nullptr;
    if (all_ascii(p, n)) return ascii_copy(p, n);
    PyObject* str = PyUnicode_New(static_cast<Py_ssize_t>(n), 0xFF);
    if (str) std::memcpy(PyUnicode_DATA(str), p, n);
    return str;
  }
  Py_UCS4 max = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Py_UCS4 u = c->table[p[i]];
    if (u == kNoDirect) return nullptr;
    if (u > max) max = u;
  }
  PyObject* str = PyUnicode_New(static_cast<Py_ssize_t>(n), max);
  if (!str) return nullptr;
  void* data = PyUnicode_DATA(str);
  switch (PyUnicode_KIND(str)) {
    case PyUnicode_1BYTE_KIND: {
      auto* out = static_cast<Py_UCS1*>(data);
      for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<Py_UCS1>(c->table[p[i]]);
      break;
    }
    case PyUnicode_2BYTE_KIND: {
      auto* out = static_cast<Py_UCS2*>(data);
      for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<Py_UCS2>(c->table[p[i]]);
      break;
    }
    default: {
      auto* out = static_cast<Py_UCS4*>(data);
      for (std::size_t i = 0; i < n; ++i) out[i] = c->table[p[i]];
      break;
    }
  }
  return str;
}

bool parse_errors(PyObject* arg, ErrorMode* mode) {
  *mode = ErrorMode::Strict;
  if (!arg) return true;
  if (PyUnicode_Check(arg)) {
    if (PyUnicode_CompareWithASCIIString(arg, "strict") == 0) return true;
    if (PyUnicode_CompareWithASCIIString(arg, "replace") == 0) {
      *mode = ErrorMode::Replace;
      return true;
    }
    PyErr_Format(PyExc_ValueError,
                 "unsupported errors value %R: pgcodec supports 'strict' and 'replace'", arg);
    return false;
  }
  PyErr_Format(PyExc_TypeError, "errors must be a str ('strict' or 'replace'), not %.100s",
               Py_TYPE(arg)->tp_name);
  return false;
}

}  // namespace pgcodec::python
