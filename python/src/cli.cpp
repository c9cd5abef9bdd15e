// _run_cli: `python -m pgcodec convert/check` run the CLI's own code
// (tools/pgcodec/convert.cpp's run_inputs, output_file.cpp's
// convert_to_file for -o), so the bytes on standard output and the messages
// on standard error are the CLI's. Inputs are read from the descriptors
// Python opened (or from bytes); standard output and standard error are
// collected in memory and handed back.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "convert.hpp"
#include "output_file.hpp"
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

// The inputs of one run, closed when it ends (the descriptors are dup()s:
// Python keeps and closes its own).
class Inputs {
 public:
  Inputs() = default;
  Inputs(const Inputs&) = delete;
  Inputs& operator=(const Inputs&) = delete;
  ~Inputs() {
    for (cli::InputFile& i : files)
      if (i.f) std::fclose(i.f);
  }
  // One (name, descriptor or bytes-like) pair; false with a Python error.
  bool add(PyObject* item) {
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(item, 0))) {
      PyErr_SetString(PyExc_TypeError, "each input must be a (name, file descriptor or bytes) pair");
      return false;
    }
    const char* name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(item, 0));
    if (!name) return false;
    PyObject* source = PyTuple_GET_ITEM(item, 1);
    std::FILE* f = nullptr;
    std::size_t size = 0;
    if (PyLong_Check(source)) {
      const long fd = PyLong_AsLong(source);
      if (fd == -1 && PyErr_Occurred()) return false;
      const int copy = ::dup(static_cast<int>(fd));
      if (copy < 0 || !(f = ::fdopen(copy, "rb"))) {
        if (copy >= 0) ::close(copy);
        PyErr_SetFromErrno(PyExc_OSError);
        return false;
      }
      struct stat st {};
      if (::fstat(copy, &st) == 0 && S_ISREG(st.st_mode)) size = static_cast<std::size_t>(st.st_size);
    } else {
      buffers_.push_back(std::make_unique<Buffer>());
      if (!buffers_.back()->get(source)) return false;
      const std::string_view data = buffers_.back()->view();
      // fmemopen refuses an empty buffer on some C libraries; an empty input
      // reads from a one-byte buffer opened with nothing to read.
      static char empty[1] = {0};
      f = data.empty() ? fmemopen(empty, 1, "r") : fmemopen(const_cast<char*>(data.data()), data.size(), "r");
      if (!f) {
        PyErr_SetFromErrno(PyExc_OSError);
        return false;
      }
      if (data.empty()) std::fgetc(f);
      size = data.size();
    }
    files.push_back({f, name, size});
    return true;
  }

  std::vector<cli::InputFile> files;

 private:
  std::vector<std::unique_ptr<Buffer>> buffers_;
};

bool flag(PyObject* o) { return o && PyObject_IsTrue(o) == 1; }

}  // namespace

PyObject* run_cli(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"command", "inputs", "source", "target", "errors",
                                      "json",    "skip",   "max_errors", "output"};
  PyObject* a[9];
  if (!parse_args("_run_cli", args, nargs, kwnames, names, 1, a)) return nullptr;
  const char* command = PyUnicode_Check(a[0]) ? PyUnicode_AsUTF8(a[0]) : nullptr;
  if (!command) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "command must be 'convert', 'check' or 'list'");
    return nullptr;
  }
  const std::string_view cmd = command;
  if (cmd == "list") {
    const std::string text = cli::encoding_list(flag(a[5]));
    return Py_BuildValue("(iy#y)", 0, text.data(), static_cast<Py_ssize_t>(text.size()), "");
  }
  const bool convert = cmd == "convert";
  if (!convert && cmd != "check") {
    PyErr_SetString(PyExc_ValueError, "command must be 'convert', 'check' or 'list'");
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
  o.json = flag(a[5]);
  o.skip = convert && flag(a[6]);
  if (o.skip && o.mode != ErrorMode::Strict) {
    PyErr_SetString(PyExc_ValueError, "skip needs errors='strict'");
    return nullptr;
  }
  if (a[7] && a[7] != Py_None) {
    const long long n = PyLong_AsLongLong(a[7]);
    if (n == -1 && PyErr_Occurred()) return nullptr;
    if (n < 0) {
      PyErr_SetString(PyExc_ValueError, "max_errors must not be negative");
      return nullptr;
    }
    o.max_errors = static_cast<std::size_t>(n);
  }
  std::string output;
  if (a[8] && a[8] != Py_None) {
    if (!convert) {
      PyErr_SetString(PyExc_ValueError, "output is for convert only");
      return nullptr;
    }
    PyObject* encoded = nullptr;
    if (!PyUnicode_FSConverter(a[8], &encoded)) return nullptr;
    output = PyBytes_AS_STRING(encoded);
    Py_DECREF(encoded);
  }

  // The inputs: one bytes-like object (standard input), or a sequence of
  // (name, descriptor or bytes) pairs.
  if (!a[1]) {
    PyErr_SetString(PyExc_TypeError, "_run_cli() missing required argument 'inputs'");
    return nullptr;
  }
  Inputs inputs;
  if (PyObject_CheckBuffer(a[1])) {
    PyObject* pair = Py_BuildValue("(sO)", "standard input", a[1]);
    const bool ok = pair && inputs.add(pair);
    Py_XDECREF(pair);
    if (!ok) return nullptr;
  } else {
    PyObject* seq = PySequence_Fast(a[1], "inputs must be bytes or a sequence of (name, source) pairs");
    if (!seq) return nullptr;
    bool ok = true;
    for (Py_ssize_t i = 0; ok && i < PySequence_Fast_GET_SIZE(seq); ++i)
      ok = inputs.add(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    if (!ok) return nullptr;
    if (inputs.files.empty()) {
      PyErr_SetString(PyExc_ValueError, "inputs must not be empty");
      return nullptr;
    }
  }

  MemoryStream out_mem, err_mem;
  if (!out_mem.file() || !err_mem.file()) return PyErr_SetFromErrno(PyExc_OSError);
  int rc;
  {
    cli::Output out(out_mem.file(), "standard output");
    std::FILE* err = err_mem.file();
    Py_BEGIN_ALLOW_THREADS
    if (output.empty()) {
      rc = cli::run_inputs(convert, o, inputs.files, out, err);
    } else {
      // As the CLI's -o: a temporary file beside FILE, renamed over it only
      // on success; SIGINT, SIGTERM and SIGHUP during the run remove it and
      // end the process as they end the CLI.
      rc = cli::convert_to_file(output, o.skip, err, [&](cli::Output& to_file) {
        return cli::run_inputs(true, o, inputs.files, to_file, err);
      });
    }
    Py_END_ALLOW_THREADS
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
