// _pgcodec_limited: decode() alone, built with Py_LIMITED_API (3.11), to
// measure what the limited API would cost pgcodec.Codec.decode
// (bench/python/str_paths.py). Not part of the package: the target
// pgcodec_python_limited is built only when asked for.
#define Py_LIMITED_API 0x030B0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdlib>
#include <memory>

#include "pgcodec/codec.hpp"

namespace {

// decode(id, data): the codec of encoding `id` (resolved per call from a
// table, no name lookup), the library's UTF-8, then PyUnicode_DecodeUTF8,
// the only way to a str the limited API has.
PyObject* limited_decode(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "decode(id, data)");
    return nullptr;
  }
  const long id = PyLong_AsLong(args[0]);
  if (id < 0 || id >= pgcodec::encoding_count) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "no such encoding id");
    return nullptr;
  }
  const pgcodec::Codec& codec = pgcodec::codec(static_cast<pgcodec::Encoding>(id));
  Py_buffer view;
  if (PyObject_GetBuffer(args[1], &view, PyBUF_SIMPLE) < 0) return nullptr;
  const std::string_view in(static_cast<const char*>(view.buf), static_cast<std::size_t>(view.len));
  const std::size_t max = *codec.max_decoded_size(in.size());
  char stack[4096];
  std::unique_ptr<char[]> heap;
  char* out = stack;
  if (max > sizeof stack) {
    heap.reset(new char[max]);
    out = heap.get();
  }
  const pgcodec::Result r = codec.decode(in, std::span<char>(out, max));
  PyBuffer_Release(&view);
  if (!r.ok()) {
    PyErr_SetString(PyExc_UnicodeError, r.error.message().c_str());
    return nullptr;
  }
  return PyUnicode_DecodeUTF8(out, static_cast<Py_ssize_t>(r.written), "strict");
}

PyMethodDef methods[] = {
    {"decode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(limited_decode)), METH_FASTCALL,
     "decode(id, data): Codec.decode as the limited API allows it (measurement only)."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_pgcodec_limited",
                          "pgcodec's decode built with the limited API, for measurement.", -1, methods,
                          nullptr, nullptr, nullptr, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__pgcodec_limited() { return PyModule_Create(&module_def); }
