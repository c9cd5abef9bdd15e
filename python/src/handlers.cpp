// errors= handlers as CPython's codecs call them (PEP 293): at each error
// the handler registered under the name (codecs.lookup_error: "ignore",
// "surrogateescape", "backslashreplace", "xmlcharrefreplace", "namereplace",
// or any registered with codecs.register_error) gets a pgcodec.DecodeError /
// EncodeError whose start and end are PostgreSQL's: where the error starts,
// and where conversion resumes after it (one byte after an invalid byte
// sequence, the whole character after one with no equivalent: the span
// Replace mode replaces). It returns the replacement and the position to go
// on from. Only text with errors comes here: the conversion up to the first
// error is the library's one pass (codec_type.cpp).
#include <string>

#include "pgcodec_py.hpp"

namespace pgcodec::python {
namespace {

// The handler's answer: (replacement, position), the position resolved
// against `length` as CPython does (negative counts from the end). False
// with an exception set when it is not that.
bool call_handler(PyObject* handler, PyObject* exc, bool decoding, std::size_t length, PyObject** replacement,
                  std::size_t* position) {
  PyObject* res = PyObject_CallOneArg(handler, exc);
  if (!res) return false;
  if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != 2 || !PyLong_Check(PyTuple_GET_ITEM(res, 1)) ||
      !(PyUnicode_Check(PyTuple_GET_ITEM(res, 0)) || (!decoding && PyBytes_Check(PyTuple_GET_ITEM(res, 0))))) {
    PyErr_SetString(PyExc_TypeError, decoding ? "decoding error handler must return (str, int) tuple"
                                              : "encoding error handler must return (str/bytes, int) tuple");
    Py_DECREF(res);
    return false;
  }
  Py_ssize_t pos = PyLong_AsSsize_t(PyTuple_GET_ITEM(res, 1));
  if (pos == -1 && PyErr_Occurred()) {
    Py_DECREF(res);
    return false;
  }
  const auto n = static_cast<Py_ssize_t>(length);
  if (pos < 0) pos += n;
  if (pos < 0 || pos > n) {
    PyErr_Format(PyExc_IndexError, "position %zd from error handler out of bounds", pos);
    Py_DECREF(res);
    return false;
  }
  *replacement = Py_NewRef(PyTuple_GET_ITEM(res, 0));
  *position = static_cast<std::size_t>(pos);
  Py_DECREF(res);
  return true;
}

}  // namespace

PyObject* decode_with_handler(const Codec& c, PyObject* data, std::string_view in, PyObject* handler_name,
                              bool final, std::size_t from, PyObject* done, std::size_t* consumed) {
  const char* name = PyUnicode_AsUTF8(handler_name);
  PyObject* handler = name ? PyCodec_LookupError(name) : nullptr;
  PyObject* pieces = handler ? PyList_New(0) : nullptr;
  // The exception's object: the input as bytes (it may be any bytes-like).
  PyObject* object = pieces ? (PyBytes_Check(data) ? Py_NewRef(data)
                                                   : PyBytes_FromStringAndSize(in.data(), static_cast<Py_ssize_t>(in.size())))
                            : nullptr;
  PyObject* result = nullptr;
  std::size_t pos = from;
  if (!object || PyList_Append(pieces, done) < 0) goto out;
  for (;;) {
    PyObject* s = nullptr;
    const Result r = decode_str(c, in.substr(pos), ErrorMode::Strict, final, s);
    if (!s) goto out;
    const int appended = PyList_Append(pieces, s);
    Py_DECREF(s);
    if (appended < 0) goto out;
    if (r.status != Status::Error) {
      pos += r.consumed;
      break;
    }
    const std::size_t start = pos + r.error.offset;
    Error e = r.error;
    e.offset = start;
    PyObject* exc = new_decode_error(e, c.encoding(), object, static_cast<Py_ssize_t>(start),
                                     static_cast<Py_ssize_t>(start + e.skip));
    if (!exc) goto out;
    PyObject* replacement = nullptr;
    const bool ok = call_handler(handler, exc, true, in.size(), &replacement, &pos);
    Py_DECREF(exc);
    if (!ok) goto out;
    const int added = PyList_Append(pieces, replacement);
    Py_DECREF(replacement);
    if (added < 0) goto out;
  }
  if (consumed) *consumed = pos;
  {
    PyObject* empty = PyUnicode_New(0, 0);
    if (empty) {
      result = PyUnicode_Join(empty, pieces);
      Py_DECREF(empty);
    }
  }
out:
  Py_XDECREF(object);
  Py_XDECREF(pieces);
  Py_XDECREF(handler);
  Py_DECREF(done);
  return result;
}

PyObject* encode_with_handler(const Codec& c, PyObject* str, PyObject* handler_name, std::size_t from,
                              std::string done, bool final, std::size_t* consumed) {
  const char* name = PyUnicode_AsUTF8(handler_name);
  PyObject* handler = name ? PyCodec_LookupError(name) : nullptr;
  if (!handler) return nullptr;
  const UnitText text = units_of(str);
  const std::size_t n = text.length;
  std::size_t pos = from, stop = n;
  std::string chunk;
  while (pos < n) {
    const UnitText part = slice(text, pos, stop);
    const std::size_t bound_part = encode_bound(c, part);
    if (bound_part > static_cast<std::size_t>(PY_SSIZE_T_MAX)) {
      PyErr_NoMemory();
      break;
    }
    chunk.resize(bound_part);
    const Result r = encode_into(c, part, chunk.data(), chunk.size(), ErrorMode::Strict, final || stop < n);
    if (r.status == Status::OutputFull) break;
    done.append(chunk.data(), r.written);
    if (r.status == Status::Ok) {
      if (r.consumed < part.length) {  // held back for the next chunk
        pos += r.consumed;
        break;
      }
      pos = stop;
      stop = n;
      continue;
    }
    const std::size_t at = pos + r.error.offset;
    if (r.consumed < r.error.offset) {
      // EUC_JIS_2004 / SHIFT_JIS_2004: the next character failed the
      // current one's lookahead; the current one converts on its own first
      // (as in Replace mode and check, docs/semantics.md).
      pos += r.consumed;
      stop = at;
      continue;
    }
    Error e = r.error;
    const std::size_t end = at + e.skip;
    PyObject* exc = new_encode_error(e, c.encoding(), str, static_cast<Py_ssize_t>(at),
                                     static_cast<Py_ssize_t>(end), utf8_offset(text, at));
    if (!exc) break;
    PyObject* replacement = nullptr;
    const bool ok = call_handler(handler, exc, false, n, &replacement, &pos);
    Py_DECREF(exc);
    if (!ok) break;
    stop = n;
    if (PyBytes_Check(replacement)) {
      done.append(PyBytes_AS_STRING(replacement), static_cast<std::size_t>(PyBytes_GET_SIZE(replacement)));
      Py_DECREF(replacement);
      continue;
    }
    // A str replacement is encoded strictly; if it cannot be, the original
    // error is raised (as CPython's encoders do).
    const UnitText rep = units_of(replacement);
    const std::size_t bound_rep = encode_bound(c, rep);
    if (bound_rep > static_cast<std::size_t>(PY_SSIZE_T_MAX)) {
      PyErr_NoMemory();
      break;
    }
    chunk.resize(bound_rep);
    const Result x = encode_into(c, rep, chunk.data(), chunk.size(), ErrorMode::Strict);
    Py_DECREF(replacement);
    if (x.status == Status::OutputFull) break;
    if (x.status != Status::Ok) {
      raise_encode_error_at(e, c.encoding(), str, static_cast<Py_ssize_t>(at), static_cast<Py_ssize_t>(end),
                            utf8_offset(text, at));
      break;
    }
    done.append(chunk.data(), x.written);
  }
  Py_DECREF(handler);
  if (PyErr_Occurred()) return nullptr;
  if (consumed) *consumed = pos;
  return PyBytes_FromStringAndSize(done.data(), static_cast<Py_ssize_t>(done.size()));
}

}  // namespace pgcodec::python
