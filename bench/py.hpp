// Embedded CPython (Debian's, pkg-config python3-embed) for the benchmarks
// that compare with it. Include this first: Python.h sets feature macros.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string>
#include <string_view>

namespace pgbench::py {

// Starts the interpreter once (no signal handlers); the main thread keeps
// the GIL for the whole run, as the benchmarks run on it.
void init();

// An owned reference.
struct Ref {
  PyObject* p = nullptr;
  Ref() = default;
  explicit Ref(PyObject* o) : p(o) {}
  ~Ref() { Py_XDECREF(p); }
  Ref(Ref&& o) noexcept : p(o.p) { o.p = nullptr; }
  Ref& operator=(Ref&& o) noexcept {
    std::swap(p, o.p);
    return *this;
  }
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
};

// The UTF-8 of a str, or nullopt-like empty with ok = false.
inline bool utf8_equals(PyObject* str, std::string_view expected) {
  if (!str || !PyUnicode_Check(str)) return false;
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(str, &n);
  return s && std::string_view(s, static_cast<std::size_t>(n)) == expected;
}

}  // namespace pgbench::py
