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

void raise(const char* cls_name, const Error& e, Encoding codec_enc, PyObject* object, Py_ssize_t start,
           Py_ssize_t end) {
  PyObject* cls = error_class(cls_name);
  if (!cls) return;
  const std::string message = e.message();
  // The exception names the codec's encoding; PostgreSQL's message may name
  // another (SQL_ASCII's bytes are checked as UTF8).
  const std::string_view enc_name = info(codec_enc).name;
  PyObject* args = Py_BuildValue("(s#Onns#)", enc_name.data(), static_cast<Py_ssize_t>(enc_name.size()),
                                 object, start, end,
                                 message.data(), static_cast<Py_ssize_t>(message.size()));
  PyObject* kwargs = args ? Py_BuildValue("{s:s,s:n,s:s}", "sqlstate", e.sqlstate(), "offset",
                                          static_cast<Py_ssize_t>(e.offset), "kind",
                                          e.kind == ErrorKind::InvalidByteSequence ? "invalid"
                                                                                   : "no-equivalent")
                          : nullptr;
  PyObject* exc = kwargs ? PyObject_Call(cls, args, kwargs) : nullptr;
  if (exc) {
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
  }
  Py_XDECREF(kwargs);
  Py_XDECREF(args);
  Py_DECREF(cls);
}

}  // namespace

void raise_decode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end) {
  raise("DecodeError", e, codec, object, start, end);
}

void raise_encode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end) {
  raise("EncodeError", e, codec, object, start, end);
}

}  // namespace pgcodec::python
