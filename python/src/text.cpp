// Building str objects from what the library decoded. The library has
// already validated its UTF-8 output, so the characters are written into
// the str object directly: ASCII is one memcpy into a compact ASCII str;
// anything else is one pass to find the size and the smallest kind
// (UCS1/UCS2/UCS4) and one to write it. PyUnicode_DecodeUTF8 would validate
// the bytes a second time (bench/python/str_paths.py measures both).
#include <cstdint>
#include <cstring>

#include "pgcodec_py.hpp"

namespace pgcodec::python {
namespace {

constexpr std::uint64_t kHigh = 0x8080808080808080ULL;

bool all_ascii(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  std::uint64_t acc = 0;
  for (; i + 32 <= n; i += 32) {
    std::uint64_t w[4];
    std::memcpy(w, p + i, sizeof w);
    acc |= w[0] | w[1] | w[2] | w[3];
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

}  // namespace

Py_ssize_t count_code_points(const char* s, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) count += (p[i] & 0xC0) != 0x80;
  return static_cast<Py_ssize_t>(count);
}

PyObject* str_from_utf8(const char* s, std::size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  if (all_ascii(p, n)) {
    PyObject* str = PyUnicode_New(static_cast<Py_ssize_t>(n), 127);
    if (str) std::memcpy(PyUnicode_DATA(str), p, n);
    return str;
  }
  // The largest lead byte decides the kind exactly: C2..C3 lead U+0080..U+00FF,
  // C4..DF and E0..EF lead U+0100..U+FFFF, F0..F4 lead the rest.
  std::size_t count = 0;
  unsigned max_lead = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned c = p[i];
    if ((c & 0xC0) != 0x80) {
      ++count;
      if (c > max_lead) max_lead = c;
    }
  }
  const Py_UCS4 maxchar = max_lead >= 0xF0 ? 0x10FFFF : max_lead >= 0xC4 ? 0xFFFF : 0xFF;
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

PyObject* str_from_single_byte(const CodecObject* c, const unsigned char* p, std::size_t n) {
  if (c->identity) {
    // Every byte but NUL is its own code point (LATIN1).
    unsigned char any = 0;
    bool nul = false;
    for (std::size_t i = 0; i < n; ++i) {
      any = static_cast<unsigned char>(any | p[i]);
      nul |= p[i] == 0;
    }
    if (nul) return nullptr;
    PyObject* str = PyUnicode_New(static_cast<Py_ssize_t>(n), (any & 0x80) ? 0xFF : 0x7F);
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
