// Argument parsing for METH_FASTCALL | METH_KEYWORDS methods, without
// PyArg_ParseTupleAndKeywords' per-call format parsing: positional
// arguments, then keywords matched by name.
#pragma once

#include "pgcodec_py.hpp"

namespace pgcodec::python {

// Fills out[0..count) (nullptr where not given) from args/kwnames; the
// first `required` must be given. False with TypeError set otherwise.
template <std::size_t count>
bool parse_args(const char* func, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                const char* const (&names)[count], std::size_t required, PyObject* (&out)[count]) {
  for (auto& o : out) o = nullptr;
  if (nargs > static_cast<Py_ssize_t>(count)) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most %zu arguments (%zd given)", func, count, nargs);
    return false;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) out[i] = args[i];
  if (kwnames) {
    const Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nkw; ++k) {
      PyObject* key = PyTuple_GET_ITEM(kwnames, k);
      std::size_t i = 0;
      while (i < count && PyUnicode_CompareWithASCIIString(key, names[i]) != 0) ++i;
      if (i == count) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R", func, key);
        return false;
      }
      if (out[i]) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", func, names[i]);
        return false;
      }
      out[i] = args[nargs + k];
    }
  }
  for (std::size_t i = 0; i < required; ++i)
    if (!out[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", func, names[i]);
      return false;
    }
  return true;
}

}  // namespace pgcodec::python
