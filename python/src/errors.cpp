// Raising pgcodec.DecodeError and pgcodec.EncodeError. The classes are
// written in Python (pgcodec/_errors.py: subclasses of UnicodeDecodeError /
// UnicodeEncodeError with sqlstate, offset, message, kind) and looked up
// here on first use; only error paths pay for the call.
#include "pgcodec_py.hpp"

namespace pgcodec::python {
namespace {

PyObject* error_class(const char* name) {
  PyObject* mod = PyImport_ImportModule("pgcodec._errors");
  if (!mod) return nullptr;
  PyObject* cls = PyObject_GetAttrString(mod, name);
  Py_DECREF(mod);
  return cls;
}

PyObject* make(const char* cls_name, const Error& e, Encoding codec_enc, PyObject* object, Py_ssize_t start,
               Py_ssize_t end, std::size_t offset) {
  PyObject* cls = error_class(cls_name);
  if (!cls) return nullptr;
  const std::string message = e.message();
  // The exception names the codec's encoding; PostgreSQL's message may name
  // another (SQL_ASCII's bytes are checked as UTF8).
  const std::string_view enc_name = info(codec_enc).name;
  PyObject* args = Py_BuildValue("(s#Onns#)", enc_name.data(), static_cast<Py_ssize_t>(enc_name.size()),
                                 object, start, end,
                                 message.data(), static_cast<Py_ssize_t>(message.size()));
  PyObject* kwargs = args ? Py_BuildValue("{s:s,s:n,s:s}", "sqlstate", e.sqlstate(), "offset",
                                          static_cast<Py_ssize_t>(offset), "kind",
                                          e.kind == ErrorKind::InvalidByteSequence ? "invalid"
                                                                                   : "no-equivalent")
                          : nullptr;
  PyObject* exc = kwargs ? PyObject_Call(cls, args, kwargs) : nullptr;
  Py_XDECREF(kwargs);
  Py_XDECREF(args);
  Py_DECREF(cls);
  return exc;
}

void raise(PyObject* exc) {
  if (!exc) return;
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc)), exc);
  Py_DECREF(exc);
}

}  // namespace

PyObject* new_decode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end) {
  return make("DecodeError", e, codec, object, start, end, e.offset);
}

PyObject* new_encode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end,
                           std::size_t utf8_offset) {
  return make("EncodeError", e, codec, object, start, end, utf8_offset);
}

void raise_decode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end) {
  raise(new_decode_error(e, codec, object, start, end));
}

void raise_encode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end) {
  raise(make("EncodeError", e, codec, object, start, end, e.offset));
}

void raise_encode_error_at(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end,
                           std::size_t utf8_offset) {
  raise(new_encode_error(e, codec, object, start, end, utf8_offset));
}

}  // namespace pgcodec::python
