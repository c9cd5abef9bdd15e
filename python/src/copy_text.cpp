// COPY's text format in a client encoding, by character: PostgreSQL escapes
// (COPY TO, CopyAttributeOutText) and reads escapes (COPY FROM,
// CopyReadLineText) by character where an encoding's trail bytes may look
// like ASCII, which is in every client-only encoding (SJIS, BIG5, GBK, UHC,
// JOHAB, GB18030, SHIFT_JIS_2004: PG_ENCODING_IS_CLIENT_ONLY). A driver that
// escapes bytes doubles the trail byte 0x5C of 表 (SJIS 95 5C) and corrupts
// the row; these two methods are what a driver's COPY needs instead. The
// library's char_length (PostgreSQL's mblen) steps over each character, as
// the server does.
#include <algorithm>
#include <cstring>
#include <string>

#include "pgcodec_py.hpp"

namespace pgcodec::python {
namespace {

// The letter after the backslash for each byte COPY's text format escapes
// (psycopg's and PostgreSQL's set), 0 for the others.
char escape_letter(unsigned char b) {
  switch (b) {
    case '\b': return 'b';
    case '\t': return 't';
    case '\n': return 'n';
    case '\v': return 'v';
    case '\f': return 'f';
    case '\r': return 'r';
    case '\\': return '\\';
    default: return 0;
  }
}

char unescape_letter(unsigned char b) {
  switch (b) {
    case 'b': return '\b';
    case 't': return '\t';
    case 'n': return '\n';
    case 'v': return '\v';
    case 'f': return '\f';
    case 'r': return '\r';
    case '\\': return '\\';
    default: return 0;
  }
}

// The one positional argument (bytes-like data).
PyObject* one_arg(const char* func, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument (%zd given)", func, nargs);
    return nullptr;
  }
  return args[0];
}

// The input as the result: `obj` itself when it is exactly bytes.
PyObject* unchanged(PyObject* obj, std::string_view in) {
  if (PyBytes_CheckExact(obj)) {
    Py_INCREF(obj);
    return obj;
  }
  return PyBytes_FromStringAndSize(in.data(), static_cast<Py_ssize_t>(in.size()));
}

}  // namespace

PyObject* codec_copy_escape(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  PyObject* obj = one_arg("_copy_escape", args, nargs);
  if (!obj) return nullptr;
  Buffer buf;
  if (!buf.get_fast(obj)) return nullptr;
  const std::string_view in = buf.view();
  const Codec& c = *reinterpret_cast<CodecObject*>(self)->codec;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  std::size_t i = 0;
  while (i < in.size() && !escape_letter(p[i])) ++i;
  if (i == in.size()) return unchanged(obj, in);
  std::string out;
  out.reserve(in.size() + in.size() / 8 + 2);
  // From the start, character by character: the first escapable byte
  // found above may be a trail byte.
  for (i = 0; i < in.size();) {
    const unsigned char b = p[i];
    if (b < 0x80) {
      if (const char letter = escape_letter(b)) {
        out += '\\';
        out += letter;
      } else {
        out += static_cast<char>(b);
      }
      ++i;
      continue;
    }
    const std::size_t len = std::max<std::size_t>(c.char_length(in, i), 1);
    out.append(in.substr(i, len));
    i += len;
  }
  return PyBytes_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(out.size()));
}

PyObject* codec_copy_unescape(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  PyObject* obj = one_arg("_copy_unescape", args, nargs);
  if (!obj) return nullptr;
  Buffer buf;
  if (!buf.get_fast(obj)) return nullptr;
  const std::string_view in = buf.view();
  if (!std::memchr(in.data(), '\\', in.size())) return unchanged(obj, in);
  const Codec& c = *reinterpret_cast<CodecObject*>(self)->codec;
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  std::string out;
  out.reserve(in.size());
  for (std::size_t i = 0; i < in.size();) {
    const unsigned char b = p[i];
    if (b >= 0x80) {
      const std::size_t len = std::max<std::size_t>(c.char_length(in, i), 1);
      out.append(in.substr(i, len));
      i += len;
      continue;
    }
    if (b == '\\' && i + 1 < in.size()) {
      if (const char ch = unescape_letter(p[i + 1])) {
        out += ch;
        i += 2;
        continue;
      }
    }
    out += static_cast<char>(b);  // a backslash before anything else stays, as psycopg leaves it
    ++i;
  }
  return PyBytes_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(out.size()));
}

}  // namespace pgcodec::python
