// pgcodec._pgcodec: the module functions lookup() and encodings(), and the
// module's initialisation. The package pgcodec (pgcodec/__init__.py)
// re-exports all of it.
#include "args.hpp"
#include "pgcodec/encoding.hpp"
#include "pgcodec/pgcodec.h"
#include "pgcodec_py.hpp"

namespace pgcodec::python {

PyObject* run_cli(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);  // cli.cpp

namespace {

PyObject* module_lookup(PyObject*, PyObject* name) {
  if (!PyUnicode_Check(name)) {
    PyErr_Format(PyExc_TypeError, "encoding name must be a str, not %.100s", Py_TYPE(name)->tp_name);
    return nullptr;
  }
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(name, &n);
  if (!s) {
    // Not even UTF-8 (a lone surrogate): no encoding has such a name.
    PyErr_Clear();
    s = "";
    n = 0;
  }
  const auto e = lookup(std::string_view(s, static_cast<std::size_t>(n)));
  if (!e) {
    PyErr_Format(PyExc_LookupError,
                 "\"%U\" is not a PostgreSQL encoding name (PostgreSQL would say: invalid value for "
                 "parameter \"client_encoding\": \"%U\")",
                 name, name);
    return nullptr;
  }
  return codec_for(*e);
}

PyObject* module_encodings(PyObject*, PyObject*) {
  PyObject* list = PyList_New(encoding_count);
  if (!list) return nullptr;
  Py_ssize_t i = 0;
  for (const EncodingInfo& e : encodings()) {
    PyObject* s = PyUnicode_FromStringAndSize(e.name.data(), static_cast<Py_ssize_t>(e.name.size()));
    if (!s) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, i++, s);
  }
  return list;
}

PyObject* module_aliases(PyObject*, PyObject*) {
  PyObject* dict = PyDict_New();
  if (!dict) return nullptr;
  for (const Alias& a : aliases()) {
    const std::string_view target = info(a.encoding).name;
    PyObject* k = PyUnicode_FromStringAndSize(a.name.data(), static_cast<Py_ssize_t>(a.name.size()));
    PyObject* v = PyUnicode_FromStringAndSize(target.data(), static_cast<Py_ssize_t>(target.size()));
    const int rc = k && v ? PyDict_SetItem(dict, k, v) : -1;
    Py_XDECREF(k);
    Py_XDECREF(v);
    if (rc < 0) {
      Py_DECREF(dict);
      return nullptr;
    }
  }
  return dict;
}

PyMethodDef module_methods[] = {
    {"lookup", module_lookup, METH_O,
     "lookup($module, name, /)\n--\n\n"
     "The codec of a PostgreSQL encoding name, resolved as PostgreSQL resolves names:\n"
     "every character that is not an ASCII letter or digit is dropped, the rest is\n"
     "lowercased and looked up among PostgreSQL's aliases ('Shift-JIS', 'sjis' and\n"
     "'S.J.I.S' are SJIS). Returns the same pgcodec.Codec object every time; an\n"
     "unknown name raises LookupError."},
    {"encodings", module_encodings, METH_NOARGS,
     "encodings($module, /)\n--\n\n"
     "The 42 canonical encoding names, in PostgreSQL's pg_enc order."},
    {"aliases", module_aliases, METH_NOARGS,
     "aliases($module, /)\n--\n\n"
     "PostgreSQL's alias table: normalised name -> canonical encoding name."},
    {"_psycopg2_text_cast", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(psycopg2_text_cast)),
     METH_FASTCALL,
     "_psycopg2_text_cast($module, typecaster, name, values, pcast, cursor, decoder, unicode, /)\n--\n\n"
     "Makes a psycopg2 typecaster (new_type(values, name, pcast)) cast text in C with the\n"
     "pgcodec Codec its connection's decoder belongs to (psycopg2's UNICODE otherwise).\n"
     "False, changing nothing, when psycopg2's objects are not laid out as expected.\n"
     "For pgcodec.drivers.psycopg2."},
    {"_run_cli", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(run_cli)),
     METH_FASTCALL | METH_KEYWORDS,
     "_run_cli($module, command, inputs, source=None, target=None, errors='strict', json=False, "
     "skip=False, max_errors=0, output=None)\n--\n\n"
     "Run the CLI's convert, check or list (tools/pgcodec/convert.cpp) on inputs (bytes, read as\n"
     "standard input, or a sequence of (name, file descriptor or bytes) pairs), writing to\n"
     "output (a path: -o) or standard output: returns (exit status, stdout bytes, stderr\n"
     "bytes). For python -m pgcodec."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT,
                          "pgcodec._pgcodec",
                          "The C++ core of pgcodec: PostgreSQL's encodings, converted exactly as the\n"
                          "server converts them. Use the package pgcodec, which re-exports it.",
                          -1,
                          module_methods,
                          nullptr,
                          nullptr,
                          nullptr,
                          nullptr};

}  // namespace

}  // namespace pgcodec::python

PyMODINIT_FUNC PyInit__pgcodec() {
  using namespace pgcodec::python;
  PyObject* m = PyModule_Create(&module_def);
  if (!m) return nullptr;
  // The library's version (pgcodec_version(): project(VERSION), its one place).
  if (!init_identities() || !init_codec_type(m) || !init_stream_types(m) ||
      PyModule_AddStringConstant(m, "__version__", pgcodec_version()) < 0) {
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}
