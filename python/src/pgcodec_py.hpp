// What the files of the extension module pgcodec._pgcodec share: the Codec
// object, the exception classes, the text builders and argument helpers.
//
// The module uses the full (not the limited) C API: decoding writes the str
// object's characters itself (PyUnicode_New + PyUnicode_DATA), which the
// limited API does not offer; docs/python.md gives the measured difference.
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pgcodec/codec.hpp"

namespace pgcodec::python {

// One per encoding, made on first lookup and kept for the life of the
// interpreter (lookup() returns the same object every time).
struct CodecObject {
  PyObject_HEAD
  const Codec* codec;
  PyObject* name;  // str, the canonical name
  // Single-byte encodings decode through this table, made once from the
  // library's own answers for each byte: the code point, or kNoDirect where
  // the byte is an error (NUL, unassigned) and the library must say so.
  bool single_byte;
  bool identity;  // LATIN1-like: every byte but NUL decodes to itself
  Py_UCS4 table[256];
  // Text of bytes 01..7F alone is itself both ways (the library says so at
  // construction: true of every PostgreSQL encoding, whose lead bytes are
  // all >= 0x80), so ASCII input without NUL is copied, with no library call.
  bool ascii_decodes_to_itself;
  bool ascii_encodes_to_itself;
  // Single-byte encodings: the byte the library encodes U+0000..U+00FF to,
  // or kNoByte; a str of kind UCS1 is encoded through it.
  std::uint16_t latin1_to_byte[256];
};
inline constexpr std::uint16_t kNoByte = 0xFFFF;
inline constexpr Py_UCS4 kNoDirect = 0xFFFFFFFF;

extern PyTypeObject* codec_type;
extern PyTypeObject* stream_decoder_type;
extern PyTypeObject* stream_encoder_type;

// codec_type.cpp
PyObject* codec_for(Encoding e);  // new reference to the cached object
bool init_codec_type(PyObject* module);

// stream_types.cpp
bool init_stream_types(PyObject* module);

// errors.cpp: raise pgcodec.DecodeError / EncodeError (classes defined in
// pgcodec/_errors.py, imported on first use). `object` is what start/end
// index: the bytes (decode) or the str (encode); `codec` is the encoding
// the exception names.
void raise_decode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end);
void raise_encode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end);

// text.cpp: well-formed UTF-8 (the library's output) -> str: ASCII copied
// straight into the str object, short text filled by the module, long text
// through PyUnicode_DecodeUTF8.
PyObject* str_from_utf8(const char* p, std::size_t n);
// Every kind filled by the module, whatever the length.
PyObject* str_from_utf8_filled(const char* p, std::size_t n);
// ASCII bytes (the caller checked) copied into a compact ASCII str.
PyObject* ascii_copy(const unsigned char* p, std::size_t n);
// Single-byte decoding through CodecObject::table; nullptr without an
// exception set when some byte has no direct entry (the caller then takes
// the library's path, which reports it).
PyObject* str_from_single_byte(const CodecObject* c, const unsigned char* p, std::size_t n);
// True if no byte of p[0, n) has its high bit set.
bool all_ascii(const unsigned char* p, std::size_t n);
// Code points in the first n bytes of UTF-8.
Py_ssize_t count_code_points(const char* p, std::size_t n);

// Argument helpers. parse_errors: nullptr or "strict" -> Strict, "replace"
// -> Replace; anything else is a ValueError naming what is supported.
bool parse_errors(PyObject* arg, ErrorMode* mode);

// A buffer held for the duration of a call (PyBUF_SIMPLE: contiguous bytes).
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (held_) PyBuffer_Release(&view_);
  }
  bool get(PyObject* obj) {
    if (PyObject_GetBuffer(obj, &view_, PyBUF_SIMPLE) < 0) return false;
    held_ = true;
    return true;
  }
  std::string_view view() const { return bytes_ ? bytes_view_ : std::string_view(static_cast<const char*>(view_.buf), static_cast<std::size_t>(view_.len)); }
  // bytes objects are read directly (no buffer export to pay for); anything
  // else through the buffer protocol.
  bool get_fast(PyObject* obj) {
    if (PyBytes_CheckExact(obj)) {
      bytes_ = true;
      bytes_view_ = std::string_view(PyBytes_AS_STRING(obj), static_cast<std::size_t>(PyBytes_GET_SIZE(obj)));
      return true;
    }
    return get(obj);
  }

 private:
  Py_buffer view_{};
  bool held_ = false;
  bool bytes_ = false;
  std::string_view bytes_view_;
};

// Scratch output for one call: on the stack up to kStack bytes, else one
// PyMem allocation.
class Scratch {
 public:
  static constexpr std::size_t kStack = 4096;
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (heap_) PyMem_Free(heap_);
  }
  // nullptr (MemoryError set) on failure.
  char* get(std::size_t n) {
    if (n <= kStack) return stack_;
    heap_ = static_cast<char*>(PyMem_Malloc(n));
    if (!heap_) PyErr_NoMemory();
    return heap_;
  }

 private:
  char stack_[kStack];
  char* heap_ = nullptr;
};

// The UTF-8 form of a str. A str with lone surrogates has none; it is then
// encoded with surrogatepass, so that the library sees the invalid UTF-8
// PostgreSQL would see and reports it (an EncodeError, never a crash).
class Utf8Text {
 public:
  Utf8Text() = default;
  Utf8Text(const Utf8Text&) = delete;
  Utf8Text& operator=(const Utf8Text&) = delete;
  ~Utf8Text() { Py_XDECREF(bytes_); }
  bool get(PyObject* str);  // false with an exception set (TypeError: not a str)
  std::string_view view() const { return view_; }
  // The str index of the character at UTF-8 byte offset `at`.
  Py_ssize_t index(PyObject* str, std::size_t at) const;

 private:
  PyObject* bytes_ = nullptr;
  std::string_view view_;
};

// Above this many input bytes a conversion releases the GIL (below it the
// release and reacquisition would cost more than other threads gain).
inline constexpr std::size_t kReleaseGil = 64 * 1024;

}  // namespace pgcodec::python
