// _run_cli: `python -m pgcodec convert/check` run the CLI's own run_convert
// and run_check (tools/pgcodec/convert.cpp) on memory streams, so the bytes
// on standard output and the messages on standard error are the CLI's.
#include <cstdio>
#include <cstdlib>

#include "args.hpp"
#include "convert.hpp"
#include "pgcodec_py.hpp"

namespace pgcodec::python {
namespace {

// A memory stream that collects what is written to it.
class MemoryStream {
 public:
  MemoryStream() : f_(open_memstream(&data_, &size_)) {}
  MemoryStream(const MemoryStream&) = delete;
  MemoryStream& operator=(const MemoryStream&) = delete;
  ~MemoryStream() {
    if (f_) std::fclose(f_);
    std::free(data_);
  }
  std::FILE* file() const { return f_; }
  // Closes the stream (if the caller has not) and returns its bytes.
  PyObject* take(bool closed_elsewhere) {
    if (closed_elsewhere) f_ = nullptr;
    if (f_) {
      std::fclose(f_);
      f_ = nullptr;
    }
    return PyBytes_FromStringAndSize(data_ ? data_ : "", static_cast<Py_ssize_t>(data_ ? size_ : 0));
  }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* f_;
};

}  // namespace

PyObject* run_cli(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"command", "data", "source", "target", "errors", "json"};
  PyObject* a[6];
  if (!parse_args("_run_cli", args, nargs, kwnames, names, 3, a)) return nullptr;
  const char* command = PyUnicode_Check(a[0]) ? PyUnicode_AsUTF8(a[0]) : nullptr;
  if (!command) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "command must be 'convert' or 'check'");
    return nullptr;
  }
  const bool convert = std::string_view(command) == "convert";
  if (!convert && std::string_view(command) != "check") {
    PyErr_SetString(PyExc_ValueError, "command must be 'convert' or 'check'");
    return nullptr;
  }
  cli::ConvertOptions o;
  for (int i : {2, 3}) {
    if (!a[i] || a[i] == Py_None) continue;
    if (!PyObject_TypeCheck(a[i], codec_type)) {
      PyErr_SetString(PyExc_TypeError, "source and target must be pgcodec.Codec objects");
      return nullptr;
    }
    (i == 2 ? o.from : o.to) = reinterpret_cast<CodecObject*>(a[i])->codec;
  }
  if (!o.from || (convert && !o.to)) {
    PyErr_SetString(PyExc_TypeError, convert ? "convert needs source and target" : "check needs source");
    return nullptr;
  }
  if (!parse_errors(a[4], &o.mode)) return nullptr;
  o.json = a[5] && PyObject_IsTrue(a[5]) == 1;
  Buffer buf;
  if (!buf.get(a[1])) return nullptr;
  const std::string_view data = buf.view();

  // fmemopen refuses an empty buffer on some C libraries; an empty input
  // reads from a one-byte buffer opened with nothing to read.
  static char empty[1] = {0};
  std::FILE* in = data.empty() ? fmemopen(empty, 1, "r") : fmemopen(const_cast<char*>(data.data()), data.size(), "r");
  if (in && data.empty()) std::fgetc(in);
  MemoryStream out_mem, err_mem;
  if (!in || !out_mem.file() || !err_mem.file()) {
    if (in) std::fclose(in);
    return PyErr_SetFromErrno(PyExc_OSError);
  }
  int rc;
  {
    cli::Output out(out_mem.file(), "standard output");
    Py_BEGIN_ALLOW_THREADS
    rc = convert ? cli::run_convert(o, in, out, err_mem.file()) : cli::run_check(o, in, out, err_mem.file());
    Py_END_ALLOW_THREADS
    std::fclose(in);
    if (!out.close() && rc != 2) rc = 2;
  }
  PyObject* out_bytes = out_mem.take(true);
  PyObject* err_bytes = err_mem.take(false);
  if (!out_bytes || !err_bytes) {
    Py_XDECREF(out_bytes);
    Py_XDECREF(err_bytes);
    return nullptr;
  }
  return Py_BuildValue("(iNN)", rc, out_bytes, err_bytes);
}

}  // namespace pgcodec::python
