// psycopg2 at C speed: a typecaster whose C cast function (the `ccast` slot
// of psycopg2's typecastObject) is pgcodec's, so a text value costs one C
// call from psycopg2's fetch loop: no bytes object, no Python call, no
// tuple (psycopg2's own route for a codec other than UTF-8 and Latin-1).
//
// psycopg2 has no C API for this; its structs are read at offsets found and
// checked at setup, on live objects, by pointer identity only (no field is
// dereferenced that is not known to hold the pointer looked for):
//   typecastObject { PyObject_HEAD; name; values; ccast; pcast; bcast }
//     (psycopg/typecast.h since 2.0): name, values and pcast must be the
//     objects new_type() was given, or setup refuses;
//   cursorObject { PyObject_HEAD; connectionObject* conn; ... }: the word
//     holding cursor.connection;
//   connectionObject's `pydecoder`: the word holding the decoder psycopg2
//     resolved for the connection (codecs.getdecoder of its Python codec).
// The cast decodes with the connection's decoder as it is at each value: a
// pgcodec Codec's when psycopg2's codec for the connection is pgcodec's
// (pgcodec.drivers.psycopg2.install), so it follows set_client_encoding();
// anything else goes to psycopg2's own UNICODE typecaster, which decodes as
// psycopg2 would have. Setup that finds a layout other than this returns
// False and changes nothing; the Python side then keeps the codec route.
#include <algorithm>
#include <cstring>

#include "pgcodec_py.hpp"

namespace pgcodec::python {
namespace {

// Word offsets found by setup (0: not set up).
Py_ssize_t cursor_conn_word = 0;
Py_ssize_t conn_decoder_word = 0;
PyObject* fallback = nullptr;  // psycopg2.extensions.UNICODE (owned)

PyObject** words(PyObject* o) { return reinterpret_cast<PyObject**>(o); }

// The one word of `o` (within its type's basic size, after the header)
// that holds `want`; 0 if none or more than one.
Py_ssize_t word_holding(PyObject* o, PyObject* want) {
  const Py_ssize_t n = Py_TYPE(o)->tp_basicsize / static_cast<Py_ssize_t>(sizeof(PyObject*));
  Py_ssize_t found = 0;
  for (Py_ssize_t i = 2; i < n; ++i) {
    if (words(o)[i] != want) continue;
    if (found) return 0;
    found = i;
  }
  return found;
}

// The pgcodec Codec behind a decoder psycopg2 holds, or nullptr: a bound
// builtin method (CodecInfo.decode of pgcodec.register()) of a Codec.
const CodecObject* codec_of_decoder(PyObject* dec) {
  if (!dec || !PyCFunction_Check(dec)) return nullptr;
  PyObject* self = PyCFunction_GET_SELF(dec);
  if (!self || Py_TYPE(self) != codec_type) return nullptr;
  return reinterpret_cast<const CodecObject*>(self);
}

// psycopg2's typecast_function.
PyObject* cast_text(const char* str, Py_ssize_t len, PyObject* cursor) {
  if (!str) Py_RETURN_NONE;  // SQL NULL
  PyObject* conn = words(cursor)[cursor_conn_word];
  const CodecObject* c = conn ? codec_of_decoder(words(conn)[conn_decoder_word]) : nullptr;
  if (!c) return PyObject_CallFunction(fallback, "y#O", str, len, cursor);
  const std::string_view in(str, static_cast<std::size_t>(len));
  PyObject* s = nullptr;
  const Result r = decode_str(*c->codec, in, ErrorMode::Strict, true, s);
  if (!s || r.status != Status::Error) return s;
  Py_DECREF(s);
  PyObject* data = PyBytes_FromStringAndSize(str, len);
  if (!data) return nullptr;
  const auto start = static_cast<Py_ssize_t>(std::min<std::size_t>(r.error.offset, in.size()));
  const auto end = static_cast<Py_ssize_t>(
      std::min<std::size_t>(r.error.offset + std::max<std::size_t>(r.error.length, 1), in.size()));
  raise_decode_error(r.error, c->codec->encoding(), data, start, end);
  Py_DECREF(data);
  return nullptr;
}

using CastFn = PyObject* (*)(const char*, Py_ssize_t, PyObject*);

}  // namespace

// _psycopg2_text_cast(typecaster, name, values, pcast, cursor, decoder,
// unicode): makes `typecaster` (new_type(values, name, pcast)) cast with
// cast_text; `cursor` a cursor of a connection whose decoder is `decoder`,
// `unicode` psycopg2.extensions.UNICODE. True when done, False when the
// layout is not the one above (nothing changed).
PyObject* psycopg2_text_cast(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 7) {
    PyErr_SetString(PyExc_TypeError, "_psycopg2_text_cast() takes 7 arguments");
    return nullptr;
  }
  PyObject *t = args[0], *name = args[1], *values = args[2], *pcast = args[3], *cursor = args[4],
           *decoder = args[5], *unicode = args[6];
  PyObject* conn = PyObject_GetAttrString(cursor, "connection");
  if (!conn) return nullptr;
  const Py_ssize_t conn_word = word_holding(cursor, conn);
  const Py_ssize_t dec_word = word_holding(conn, decoder);
  Py_DECREF(conn);
  constexpr Py_ssize_t kName = 2, kValues = 3, kCcast = 4, kPcast = 5;
  const bool typecast_ok = Py_TYPE(t)->tp_basicsize >= static_cast<Py_ssize_t>(7 * sizeof(PyObject*)) &&
                           words(t)[kName] == name && words(t)[kValues] == values &&
                           words(t)[kCcast] == nullptr && words(t)[kPcast] == pcast;
  if (!typecast_ok || !conn_word || !dec_word || !codec_of_decoder(decoder) ||
      (cursor_conn_word && (cursor_conn_word != conn_word || conn_decoder_word != dec_word)))
    Py_RETURN_FALSE;
  cursor_conn_word = conn_word;
  conn_decoder_word = dec_word;
  if (!fallback) {
    Py_INCREF(unicode);
    fallback = unicode;
  }
  const CastFn fn = &cast_text;
  static_assert(sizeof fn == sizeof(PyObject*));
  std::memcpy(&words(t)[kCcast], &fn, sizeof fn);
  Py_RETURN_TRUE;
}

}  // namespace pgcodec::python
