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
#include <string>
#include <string_view>

#include "pgcodec/codec.hpp"

namespace pgcodec::python {

// From this many input bytes a conversion releases the GIL (below it the
// release and reacquisition would cost more than other threads gain): 64
// KiB is 13 us and more of table decoding (0.2 ns a byte and up).
inline constexpr std::size_t kReleaseGil = 64 * 1024;
// The same for a copy (ASCII, or LATIN1 to or from Latin-1 units), which
// runs at about 30 GB/s: 256 KiB is 8 us. Released from 64 KiB, the
// release cost a 64 KiB LATIN1 decode 50-90 ns of its 1.9 us.
inline constexpr std::size_t kReleaseGilCopy = 256 * 1024;

// One per encoding, made on first lookup and kept for the life of the
// interpreter (lookup() returns the same object every time).
struct CodecObject {
  PyObject_HEAD
  const Codec* codec;
  PyObject* name;  // str, the canonical name
};

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
// An EncodeError for an error whose offset counts str characters: offset
// is then the UTF-8 byte offset given.
void raise_encode_error_at(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end,
                           std::size_t utf8_offset);
// The same exceptions as new references, not raised (for error handlers).
PyObject* new_decode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end);
PyObject* new_encode_error(const Error& e, Encoding codec, PyObject* object, Py_ssize_t start, Py_ssize_t end,
                           std::size_t utf8_offset);

// psycopg2_cast.cpp: _pgcodec._psycopg2_text_cast (METH_FASTCALL).
PyObject* psycopg2_text_cast(PyObject* module, PyObject* const* args, Py_ssize_t nargs);

// copy_text.cpp: Codec._copy_escape / _copy_unescape (METH_FASTCALL).
PyObject* codec_copy_escape(PyObject* self, PyObject* const* args, Py_ssize_t nargs);
PyObject* codec_copy_unescape(PyObject* self, PyObject* const* args, Py_ssize_t nargs);

// text.cpp: str objects straight from and into the library's code units.
// What the library says of the code points U+0001..U+00FF in an encoding
// (asked of every encoding at the module's initialisation, then kept):
// they encode to the bytes of their own values (ASCII: every encoding;
// U+0080..U+00FF too: LATIN1), and bytes 01..FF decode to nothing above
// U+00FF (LATIN1). The module's copies and the kind of a decoded str rest
// on these answers, never on a table.
struct Identity {
  bool ascii_encodes;
  bool latin1_encodes;
  bool latin1_decodes;
  bool ascii_decodes;    // bytes 01..7F decode to U+0001..U+007F
  bool latin1_identity;  // bytes 01..FF decode to U+0001..U+00FF (LATIN1)
  // Short input decodes into UTF-32 at once, not UCS-2 first (see
  // decode_small): the encodings with four-byte characters.
  bool short_into_utf32;
  // Bytes a unit at most, encoding from each UnitForm (indexed by it):
  // Codec::max_encoded_units_size(1, form), asked once. That call costs 7
  // ns (its std::optional comes back through a store-forwarding stall in
  // GCC's code), 6 % of an 8-byte encode when asked at every call.
  std::uint8_t encode_factor[4];
};
// Every encoding's, by to_int(Encoding): filled by init_identities.
extern Identity identities[encoding_count];
bool init_identities();
// An array read, inlined: asked lazily through a function (a 2.5 KB stack
// frame for the first call's buffers), it cost 3 ns of an 8-byte decode
// (perf: 8 %) and was asked twice in each encode.
inline const Identity& identity(const Codec& c) { return identities[to_int(c.encoding())]; }
// decode_str: one pass of the library's decoder into a new str, `str` (of
// the input converted, the Result's consumed bytes; with status == Error,
// the text before the error). `str` is nullptr with an exception set only
// when out of memory (the Result then means nothing).
Result decode_str(const Codec& c, std::string_view in, ErrorMode mode, bool final, PyObject*& str);
// A str's own data as the library's UnitText (Latin-1, UCS-2 or UCS-4).
UnitText units_of(PyObject* str);
UnitText slice(const UnitText& t, std::size_t from, std::size_t to);
// Byte offset of character `at` in the UTF-8 form (surrogates: 3 bytes).
std::size_t utf8_offset(const UnitText& t, std::size_t at);
// Output bytes that always suffice to encode the text (SIZE_MAX: more than
// memory holds).
std::size_t encode_bound(const Codec& c, const UnitText& t);
// encode_units, releasing the GIL from `release_from` units (kReleaseGil,
// or kReleaseGilCopy for a copy). Status::OutputFull (a fault: the bound is
// the library's) comes with SystemError set. final == false: a chunk of a
// longer text (what the next could change is held back: consumed <
// t.length with Status::Ok).
Result encode_into(const Codec& c, const UnitText& t, char* out, std::size_t cap, ErrorMode mode,
                   bool final = true, std::size_t release_from = kReleaseGil);
// Asks the kernel for huge pages (2 MiB, Linux's transparent huge pages
// where they are on "madvise") for the part of a new str's or bytes' data of
// `bytes` bytes that covers whole huge pages, before anything is written
// there; below kHugePagesFrom, or where the system has none, nothing. Data
// this large often comes from a fresh mmap (glibc maps 32 MiB and more
// always, and smaller sizes until a freed mapping has raised its
// threshold), each 4 KiB page of it faulted in on first write: 8,192 faults
// for a 16 MiB text decoded into UCS-2, most of the call (WIN1252: 96 -> 15
// ms a call, CPython 98). From 32 MiB only, a text a few bytes short of 16
// MiB missed it and took 87 ms; from 8 MiB, 7 ms, and 16 MiB of EUC_JP
// encoded in 32 ms instead of 70. Memory that comes from the heap instead
// gets the advice too; it only costs a split of the huge page where glibc
// later trims the heap.
inline constexpr std::size_t kHugePagesFrom = 8u << 20;
void prefer_huge_pages(void* data, std::size_t bytes);

// errors=: "strict" and "replace" are the library's modes; any other name
// is an error handler (codecs.register_error), looked up at the first error
// (handlers.cpp).
struct Errors {
  ErrorMode mode = ErrorMode::Strict;
  PyObject* handler_name = nullptr;  // borrowed; null: the mode alone
};
bool parse_errors(PyObject* arg, Errors* errors);
// Where only the library's modes are offered: any other name is a ValueError.
bool parse_errors(PyObject* arg, ErrorMode* mode);

// handlers.cpp: conversion with an error handler, from `from` (input bytes
// / characters already converted into `done`, a str / bytes prefix, stolen).
// Decoding with final == false stops before a character cut off by the end
// and stores the bytes consumed in *consumed.
PyObject* decode_with_handler(const Codec& c, PyObject* data, std::string_view in, PyObject* handler_name,
                              bool final, std::size_t from, PyObject* done, std::size_t* consumed);
PyObject* encode_with_handler(const Codec& c, PyObject* str, PyObject* handler_name, std::size_t from,
                              std::string done, bool final = true, std::size_t* consumed = nullptr);

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
  // Left uninitialised: PyObject_GetBuffer fills it, and only a held
  // buffer is read. (Zeroed, its 80 bytes took a `rep stos` at every call,
  // half of decode()'s own argument handling in perf, about 1.5 ns.)
  Py_buffer view_;
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


}  // namespace pgcodec::python
