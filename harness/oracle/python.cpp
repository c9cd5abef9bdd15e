#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "oracle/python.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>

namespace pgcodec::oracle {

using harness::Outcome;
using harness::OutcomeKind;
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
  }
  return o;
}

// The batch runner, defined once in the interpreter. An error handler that
// notes the first error and skips to the end stands in for try/except, which
// costs more per failing item.
constexpr const char* kBatchSource = R"py(
import codecs
_first = []
def _note(e):
    if not _first:
        _first.append((e.start, e.reason))
    return ('' if isinstance(e, UnicodeDecodeError) else b'', len(e.object))
codecs.register_error('pgcodec_first', _note)
_all = []
def _note_all(e):
    _all.append((e.start, e.reason))
    return (b'', e.end)
codecs.register_error('pgcodec_all', _note_all)

def encode_joined(name, blob):
    # Inputs joined by NUL, which every codec here writes as one 0x00 byte and
    # which breaks runs of unencodable characters: one call for all items.
    _all.clear()
    out = codecs.getencoder(name)(blob.decode('utf-8'), 'pgcodec_all')[0]
    return out.split(b'\0'), list(_all)

def batch(name, blob, ends, decoding):
    ends = memoryview(ends).cast('I')
    res = []
    ap = res.append
    first = _first
    start = 0
    if decoding:
        conv = codecs.getdecoder(name)
        for end in ends:
            first.clear()
            s = conv(blob[start:end], 'pgcodec_first')[0]
            ap(first[0] if first else s)
            start = end
    else:
        conv = codecs.getencoder(name)
        for end in ends:
            first.clear()
            b = conv(blob[start:end].decode('utf-8'), 'pgcodec_first')[0]
            ap(first[0] if first else b)
            start = end
    return res
)py";

// A function defined by kBatchSource (the module lives as long as the process).
PyObject* oracle_function(const char* name) {
  static PyObject* dict = [] {
    PyObject* module = PyModule_New("pgcodec_oracle");
    PyObject* d = PyModule_GetDict(module);
    PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins());
    Ref r(PyRun_String(kBatchSource, Py_file_input, d, d));
    if (!r.p) {
      PyErr_Print();
      throw std::runtime_error("cannot define the Python batch runner");
    }
    return d;
  }();
  return PyDict_GetItemString(dict, name);
}

std::size_t utf8_offset_of_code_point(std::string_view s, std::size_t index) {
  std::size_t i = 0;
  for (; i < s.size() && index > 0; --index) {
    const auto b = static_cast<unsigned char>(s[i]);
    i += b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
  }
  return i;
}

}  // namespace

std::string python_version_string() {
  std::string v = Py_GetVersion();
  return v.substr(0, v.find(' '));
}

std::string python_codec_name(const std::string& name) {
  ensure_python();
  Gil gil;
  Ref codecs(PyImport_ImportModule("codecs"));
  Ref info(codecs.p ? PyObject_CallMethod(codecs.p, "lookup", "s", name.c_str()) : nullptr);
  if (!info.p) {
    PyErr_Clear();
    return "";
  }
  Ref n(PyObject_GetAttrString(info.p, "name"));
  if (!n.p) {
    PyErr_Clear();
    return name;
  }
  return utf8_of(n.p);
}

namespace {
std::size_t code_point_count(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}
}  // namespace

bool PythonCodec::run_joined(std::span<const std::string> inputs, std::vector<Outcome>& out) {
  std::string blob;
  std::vector<std::size_t> starts;  // each item's first code point in the joined text
  std::size_t at = 0;
  for (auto& s : inputs) {
    if (s.find('\0') != std::string::npos) return false;
    if (!blob.empty() || !starts.empty()) blob.push_back('\0');
    starts.push_back(at);
    blob += s;
    at += code_point_count(s) + 1;
  }
  Gil gil;
  PyObject* fn = oracle_function("encode_joined");
  Ref py_blob(PyBytes_FromStringAndSize(blob.data(), static_cast<Py_ssize_t>(blob.size())));
  Ref py_name(PyUnicode_FromString(name_.c_str()));
  Ref res(fn ? PyObject_CallFunctionObjArgs(fn, py_name.p, py_blob.p, nullptr) : nullptr);
  if (!res.p) {
    PyErr_Clear();
    return false;
  }
  PyObject* parts = PyTuple_GET_ITEM(res.p, 0);
  PyObject* errs = PyTuple_GET_ITEM(res.p, 1);
  if (PyList_GET_SIZE(parts) != static_cast<Py_ssize_t>(inputs.size())) return false;
  out.assign(inputs.size(), Outcome{});
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    char* p = nullptr;
    Py_ssize_t n = 0;
    PyBytes_AsStringAndSize(PyList_GET_ITEM(parts, static_cast<Py_ssize_t>(i)), &p, &n);
    out[i].output.assign(p, static_cast<std::size_t>(n));
  }
  for (Py_ssize_t k = 0; k < PyList_GET_SIZE(errs); ++k) {
    PyObject* e = PyList_GET_ITEM(errs, k);
    const auto start = static_cast<std::size_t>(PyLong_AsSsize_t(PyTuple_GET_ITEM(e, 0)));
    const std::size_t i =
        static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), start) - starts.begin()) - 1;
    Outcome& o = out[i];
    if (!o.ok()) continue;  // the first error of the item counts
    o.kind = python_reason_kind(utf8_of(PyTuple_GET_ITEM(e, 1)), false);
    o.output.clear();
    o.offset = utf8_offset_of_code_point(inputs[i], start - starts[i]);
  }
  return true;
}

void PythonCodec::run(bool decoding, std::span<const std::string> inputs, std::vector<Outcome>& out) {
  if (!decoding && run_joined(inputs, out)) return;
  out.assign(inputs.size(), Outcome{});
  std::string blob;
  std::vector<std::uint32_t> ends;
  ends.reserve(inputs.size());
  for (auto& s : inputs) {
    blob += s;
    ends.push_back(static_cast<std::uint32_t>(blob.size()));
  }
  Gil gil;
  PyObject* fn = oracle_function("batch");
  Ref py_blob(PyBytes_FromStringAndSize(blob.data(), static_cast<Py_ssize_t>(blob.size())));
  Ref py_ends(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(ends.data()),
                                        static_cast<Py_ssize_t>(ends.size() * sizeof(std::uint32_t))));
  Ref py_name(PyUnicode_FromString(name_.c_str()));
  Ref res(PyObject_CallFunctionObjArgs(fn, py_name.p, py_blob.p, py_ends.p,
                                       decoding ? Py_True : Py_False, nullptr));
  if (!res.p || !PyList_Check(res.p) || PyList_GET_SIZE(res.p) != static_cast<Py_ssize_t>(inputs.size())) {
    PyErr_Print();
    throw std::runtime_error("Python codec \"" + name_ + "\" failed on a batch");
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    PyObject* item = PyList_GET_ITEM(res.p, static_cast<Py_ssize_t>(i));
    Outcome& o = out[i];
    if (PyTuple_Check(item)) {
      const auto start = static_cast<std::size_t>(PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 0)));
      o.kind = python_reason_kind(utf8_of(PyTuple_GET_ITEM(item, 1)), decoding);
      o.offset = decoding ? start : utf8_offset_of_code_point(inputs[i], start);
    } else if (PyUnicode_Check(item)) {
      o.output = utf8_of(item);
    } else {
      char* p = nullptr;
      Py_ssize_t n = 0;
      PyBytes_AsStringAndSize(item, &p, &n);
      o.output.assign(p, static_cast<std::size_t>(n));
    }
  }
}

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
