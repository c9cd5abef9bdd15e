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

// The input as the result: `obj` itself when it is exactly bytes.
PyObject* unchanged(PyObject* obj, std::string_view in) {
  if (PyBytes_CheckExact(obj)) {
    Py_INCREF(obj);
    return obj;
  }
  return PyBytes_FromStringAndSize(in.data(), static_cast<Py_ssize_t>(in.size()));
}

// The one walk both directions take: `data`'s characters in order, a
// multibyte one copied whole (its length by the library's char_length, as
// the server's mblen), an ASCII byte handed to ascii(in, i, out), which
// appends what it makes of it and returns the bytes it took. Input that
// `untouched` says has nothing for ascii() to change is returned as it is.
template <class Untouched, class Ascii>
PyObject* by_character(const char* func, PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                       Untouched untouched, Ascii ascii) {
  if (nargs != 1) {
    PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument (%zd given)", func, nargs);
    return nullptr;
  }
  PyObject* obj = args[0];
  Buffer buf;
  if (!buf.get_fast(obj)) return nullptr;
  const std::string_view in = buf.view();
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  if (untouched(in)) return unchanged(obj, in);
  const Codec& c = *reinterpret_cast<CodecObject*>(self)->codec;
  std::string out;
  out.reserve(in.size() + in.size() / 8 + 2);
  for (std::size_t i = 0; i < in.size();) {
    if (p[i] < 0x80) {
      i += ascii(in, i, out);
      continue;
    }
    const std::size_t len = std::max<std::size_t>(c.char_length(in, i), 1);
    out.append(in.substr(i, len));
    i += len;
  }
  return PyBytes_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(out.size()));
}

}  // namespace

PyObject* codec_copy_escape(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  // The first escapable byte may be a trail byte: the walk starts at the
  // beginning whenever there is one.
  return by_character(
      "_copy_escape", self, args, nargs,
      [](std::string_view in) {
        return std::none_of(in.begin(), in.end(), [](char b) { return escape_letter(static_cast<unsigned char>(b)); });
      },
      [](std::string_view in, std::size_t i, std::string& out) -> std::size_t {
        if (const char letter = escape_letter(static_cast<unsigned char>(in[i]))) {
          out += '\\';
          out += letter;
        } else {
          out += in[i];
        }
        return 1;
      });
}

PyObject* codec_copy_unescape(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return by_character(
      "_copy_unescape", self, args, nargs,
      [](std::string_view in) { return in.find('\\') == std::string_view::npos; },
      [](std::string_view in, std::size_t i, std::string& out) -> std::size_t {
        if (in[i] == '\\' && i + 1 < in.size()) {
          if (const char ch = unescape_letter(static_cast<unsigned char>(in[i + 1]))) {
            out += ch;
            return 2;
          }
        }
        out += in[i];  // a backslash before anything else stays, as psycopg leaves it
        return 1;
      });
}

}  // namespace pgcodec::python
