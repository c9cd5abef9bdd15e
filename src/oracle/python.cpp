#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "oracle/python.hpp"

#include <mutex>
#include <stdexcept>

namespace pgcodec::oracle {
namespace {

// Starts the interpreter once; conversions hold the GIL only while they run.
void ensure_python() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (!Py_IsInitialized()) {
      Py_InitializeEx(0);  // no signal handlers: the host program keeps them
      PyEval_SaveThread();
    }
  });
}

struct Gil {
  PyGILState_STATE s = PyGILState_Ensure();
  ~Gil() { PyGILState_Release(s); }
};

struct Ref {
  PyObject* p;
  explicit Ref(PyObject* o) : p(o) {}
  ~Ref() { Py_XDECREF(p); }
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
};

std::string utf8_of(PyObject* str) {
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(str, &n);
  return s ? std::string(s, static_cast<std::size_t>(n)) : std::string();
}

// Reads the pending exception into an Outcome and clears it.
Outcome failure(bool decoding) {
  Outcome o;
  o.kind = OutcomeKind::Unspecified;
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  Ref t(type), v(value), b(tb);
  const bool unicode_error = value && (decoding ? PyObject_TypeCheck(value, reinterpret_cast<PyTypeObject*>(PyExc_UnicodeDecodeError))
                                                : PyObject_TypeCheck(value, reinterpret_cast<PyTypeObject*>(PyExc_UnicodeEncodeError)));
  if (!unicode_error) throw std::runtime_error("Python raised something other than a Unicode error");
  Py_ssize_t start = 0;
  PyObject* reason = nullptr;
  if (decoding) {
    PyUnicodeDecodeError_GetStart(value, &start);
    reason = PyUnicodeDecodeError_GetReason(value);
  } else {
    PyUnicodeEncodeError_GetStart(value, &start);
    reason = PyUnicodeEncodeError_GetReason(value);
  }
  Ref r(reason);
  if (reason) o.kind = python_reason_kind(utf8_of(reason), decoding);
  // Decoding: a byte offset. Encoding: Python counts code points; turned
  // into a UTF-8 byte offset by the caller when needed (not known here).
  if (decoding) {
    o.offset = static_cast<std::size_t>(start);
    o.offset_known = true;
  }
  return o;
}

}  // namespace

OutcomeKind python_reason_kind(std::string_view reason, bool decoding) noexcept {
  if (reason == "character maps to <undefined>") return OutcomeKind::NoEquivalent;
  if (!decoding && (reason == "ordinal not in range(128)" || reason.starts_with("ordinal not in range")))
    return OutcomeKind::NoEquivalent;
  if (decoding && (reason == "invalid start byte" || reason == "invalid continuation byte" ||
                   reason == "unexpected end of data" || reason == "incomplete multibyte sequence" ||
                   reason == "truncated data" || reason.starts_with("ordinal not in range")))
    return OutcomeKind::InvalidByteSequence;
  return OutcomeKind::Unspecified;  // e.g. "illegal multibyte sequence"
}

PythonCodec::PythonCodec(std::string name) : name_(std::move(name)) {
  ensure_python();
  Gil gil;
  Ref codec(PyCodec_Encoder(name_.c_str()));
  if (!codec.p) {
    PyErr_Clear();
    throw std::runtime_error("Python has no codec \"" + name_ + "\"");
  }
}

Outcome PythonCodec::decode(std::string_view bytes) {
  Gil gil;
  Ref s(PyUnicode_Decode(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), name_.c_str(), "strict"));
  if (!s.p) return failure(true);
  Outcome o;
  o.output = utf8_of(s.p);
  return o;
}

Outcome PythonCodec::encode(std::string_view utf8) {
  Gil gil;
  Ref s(PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "strict"));
  if (!s.p) {
    PyErr_Clear();
    Outcome o;
    o.kind = OutcomeKind::InvalidByteSequence;
    return o;
  }
  Ref b(PyUnicode_AsEncodedString(s.p, name_.c_str(), "strict"));
  if (!b.p) return failure(false);
  Outcome o;
  o.output.assign(PyBytes_AsString(b.p), static_cast<std::size_t>(PyBytes_Size(b.p)));
  return o;
}

}  // namespace pgcodec::oracle
