// pgcodec.Codec: one object per encoding, made once, over the library's
// `const pgcodec::Codec&`. Its methods do no lookup; small conversions use
// a stack buffer, larger ones one allocation.
#include <algorithm>
#include <cstring>

#include "args.hpp"
#include "pgcodec_py.hpp"

namespace pgcodec::python {

PyTypeObject* codec_type = nullptr;

namespace {

PyObject* cache[encoding_count] = {};

CodecObject* as_codec(PyObject* self) { return reinterpret_cast<CodecObject*>(self); }

// The single-byte table: each byte decoded alone by the library, kept where
// it is one code point.
void fill_table(CodecObject* c) {
  c->single_byte = info(c->codec->encoding()).max_char_length == 1;
  c->identity = c->single_byte;
  for (unsigned b = 0; b < 256; ++b) {
    c->table[b] = kNoDirect;
    if (!c->single_byte) continue;
    const char in = static_cast<char>(b);
    char out[16];
    const Result r = c->codec->decode(std::string_view(&in, 1), out, ErrorMode::Strict);
    if (r.ok() && r.written > 0 && count_code_points(out, r.written) == 1) {
      const auto* u = reinterpret_cast<const unsigned char*>(out);
      Py_UCS4 cp;
      if (r.written == 1) cp = u[0];
      else if (r.written == 2) cp = ((u[0] & 0x1Fu) << 6) | (u[1] & 0x3Fu);
      else if (r.written == 3) cp = ((u[0] & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu);
      else cp = ((u[0] & 0x07u) << 18) | ((u[1] & 0x3Fu) << 12) | ((u[2] & 0x3Fu) << 6) | (u[3] & 0x3Fu);
      c->table[b] = cp;
    }
    if (b != 0 && c->table[b] != b) c->identity = false;
  }
  if (c->table[0] != kNoDirect) c->identity = false;
  char ascii[127], out[127 * 4];
  for (int b = 1; b < 128; ++b) ascii[b - 1] = static_cast<char>(b);
  const std::string_view a(ascii, sizeof ascii);
  const Result d = c->codec->decode(a, out, ErrorMode::Strict);
  c->ascii_decodes_to_itself = d.ok() && std::string_view(out, d.written) == a;
  const Result e = c->codec->encode(a, out, ErrorMode::Strict);
  c->ascii_encodes_to_itself = e.ok() && std::string_view(out, e.written) == a;
  for (unsigned u = 0; u < 256; ++u) {
    c->latin1_to_byte[u] = kNoByte;
    if (!c->single_byte) continue;
    const char two[2] = {static_cast<char>(0xC0 | (u >> 6)), static_cast<char>(0x80 | (u & 0x3F))};
    const char one = static_cast<char>(u);
    const std::string_view utf8 = u < 0x80 ? std::string_view(&one, 1) : std::string_view(two, 2);
    const Result r = c->codec->encode(utf8, out, ErrorMode::Strict);
    if (r.ok() && r.written == 1) c->latin1_to_byte[u] = static_cast<unsigned char>(out[0]);
    // `identity` (decoding) is kept only where encoding is the identity too.
    if (u != 0 && c->latin1_to_byte[u] != u) c->identity = false;
  }
}

// A UCS1 str into a single-byte encoding through latin1_to_byte; nullptr
// without an exception when some character has no entry (the library's
// path then reports it).
PyObject* encode_ucs1(const CodecObject* c, PyObject* str) {
  const auto* p = static_cast<const Py_UCS1*>(PyUnicode_DATA(str));
  const Py_ssize_t n = PyUnicode_GET_LENGTH(str);
  if (c->identity) {  // LATIN1: the str's characters are the bytes, NUL aside
    if (std::memchr(p, 0, static_cast<std::size_t>(n))) return nullptr;
    return PyBytes_FromStringAndSize(reinterpret_cast<const char*>(p), n);
  }
  PyObject* bytes = PyBytes_FromStringAndSize(nullptr, n);
  if (!bytes) return nullptr;
  char* out = PyBytes_AS_STRING(bytes);
  std::uint16_t missing = 0;  // kNoByte's high bits, if any character has no byte
  for (Py_ssize_t i = 0; i < n; ++i) {
    const std::uint16_t b = c->latin1_to_byte[p[i]];
    missing = static_cast<std::uint16_t>(missing | b);
    out[i] = static_cast<char>(b);
  }
  if (missing & 0xFF00) {
    Py_DECREF(bytes);
    return nullptr;
  }
  return bytes;
}

// ASCII without NUL, copied into a compact ASCII str (or bytes); nullptr
// without an exception when `in` is not that.
PyObject* ascii_str(std::string_view in) {
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  if (!all_ascii(p, in.size()) || std::memchr(p, 0, in.size())) return nullptr;
  return ascii_copy(p, in.size());
}

void raise_decode(const CodecObject* c, const Error& e, PyObject* data, std::size_t n) {
  const auto start = static_cast<Py_ssize_t>(std::min(e.offset, n));
  const auto end = static_cast<Py_ssize_t>(std::min(e.offset + std::max<std::size_t>(e.length, 1), n));
  raise_decode_error(e, c->codec->encoding(), data, start, end);
}

// How the str is built from the library's UTF-8: the module's choice, or
// (for bench/python/str_paths.py) always PyUnicode_DecodeUTF8, or always
// filled by the module.
enum class Build { Default, ViaUtf8, Filled };

// The library's decode into scratch space, then the str.
PyObject* decode_general(const CodecObject* self, PyObject* data, std::string_view in, ErrorMode mode,
                         Build build) {
  const auto max = self->codec->max_decoded_size(in.size());
  if (!max) return PyErr_NoMemory();
  Scratch scratch;
  char* out = scratch.get(*max);
  if (!out) return nullptr;
  Result r;
  if (in.size() >= kReleaseGil) {
    Py_BEGIN_ALLOW_THREADS
    r = self->codec->decode(in, std::span<char>(out, *max), mode);
    Py_END_ALLOW_THREADS
  } else {
    r = self->codec->decode(in, std::span<char>(out, *max), mode);
  }
  if (r.status == Status::Error) {
    raise_decode(self, r.error, data, in.size());
    return nullptr;
  }
  if (build == Build::ViaUtf8) return PyUnicode_DecodeUTF8(out, static_cast<Py_ssize_t>(r.written), "strict");
  if (build == Build::Filled) return str_from_utf8_filled(out, r.written);
  return str_from_utf8(out, r.written);
}

PyObject* decode_impl(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                      const char* func, Build build) {
  static const char* const names[] = {"data", "errors"};
  PyObject* a[2];
  if (!parse_args(func, args, nargs, kwnames, names, 1, a)) return nullptr;
  ErrorMode mode;
  if (!parse_errors(a[1], &mode)) return nullptr;
  Buffer buf;
  if (!buf.get_fast(a[0])) return nullptr;
  const std::string_view in = buf.view();
  const CodecObject* self = as_codec(self_obj);
  if (self->ascii_decodes_to_itself && build == Build::Default) {
    PyObject* s = ascii_str(in);
    if (s || PyErr_Occurred()) return s;
  }
  if (self->single_byte && build == Build::Default) {
    PyObject* s = str_from_single_byte(self, reinterpret_cast<const unsigned char*>(in.data()), in.size());
    if (s || PyErr_Occurred()) return s;
  }
  return decode_general(self, a[0], in, mode, build);
}

PyObject* codec_decode(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return decode_impl(self, args, nargs, kwnames, "decode", Build::Default);
}

PyObject* codec_decode_via_utf8(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return decode_impl(self, args, nargs, kwnames, "_decode_via_utf8", Build::ViaUtf8);
}

PyObject* codec_decode_filled(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return decode_impl(self, args, nargs, kwnames, "_decode_filled", Build::Filled);
}

// Python's codecs interface (codecs.CodecInfo.decode / .encode): the result
// and how much input it covers, as a tuple. In C so that a driver decoding
// through the codecs machinery (psycopg2 with pgcodec's codecs, per value)
// pays no Python frame between it and decode().
PyObject* pair(PyObject* out, Py_ssize_t n) {
  if (!out) return nullptr;
  PyObject* count = PyLong_FromSsize_t(n);
  PyObject* t = count ? PyTuple_New(2) : nullptr;
  if (!t) {
    Py_DECREF(out);
    Py_XDECREF(count);
    return nullptr;
  }
  PyTuple_SET_ITEM(t, 0, out);
  PyTuple_SET_ITEM(t, 1, count);
  return t;
}

PyObject* codec_codecs_decode(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs < 1) {
    PyErr_SetString(PyExc_TypeError, "_codecs_decode() takes the input as its first positional argument");
    return nullptr;
  }
  PyObject* s = decode_impl(self, args, nargs, kwnames, "_codecs_decode", Build::Default);
  if (!s) return nullptr;
  // decode() succeeded, so the input is bytes-like and was decoded whole.
  if (PyBytes_CheckExact(args[0])) return pair(s, PyBytes_GET_SIZE(args[0]));
  Buffer buf;
  if (!buf.get_fast(args[0])) {
    Py_DECREF(s);
    return nullptr;
  }
  return pair(s, static_cast<Py_ssize_t>(buf.view().size()));
}

PyObject* codec_encode(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);

PyObject* codec_codecs_encode(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (nargs < 1) {
    PyErr_SetString(PyExc_TypeError, "_codecs_encode() takes the input as its first positional argument");
    return nullptr;
  }
  PyObject* b = codec_encode(self, args, nargs, kwnames);
  if (!b) return nullptr;
  // encode() succeeded, so the input is a str and was encoded whole.
  return pair(b, PyUnicode_GET_LENGTH(args[0]));
}

PyObject* codec_decode_partial(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"data", "errors"};
  PyObject* a[2];
  if (!parse_args("_decode_partial", args, nargs, kwnames, names, 1, a)) return nullptr;
  ErrorMode mode;
  if (!parse_errors(a[1], &mode)) return nullptr;
  Buffer buf;
  if (!buf.get(a[0])) return nullptr;
  const std::string_view in = buf.view();
  const CodecObject* self = as_codec(self_obj);
  const auto max = self->codec->max_decoded_size(in.size());
  if (!max) return PyErr_NoMemory();
  Scratch scratch;
  char* out = scratch.get(*max);
  if (!out) return nullptr;
  const Result r = self->codec->decode_partial(in, std::span<char>(out, *max), mode);
  if (r.status == Status::Error) {
    raise_decode(self, r.error, a[0], in.size());
    return nullptr;
  }
  PyObject* s = str_from_utf8(out, r.written);
  if (!s) return nullptr;
  return Py_BuildValue("(Nn)", s, static_cast<Py_ssize_t>(r.consumed));
}

PyObject* codec_encode(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"text", "errors"};
  PyObject* a[2];
  if (!parse_args("encode", args, nargs, kwnames, names, 1, a)) return nullptr;
  ErrorMode mode;
  if (!parse_errors(a[1], &mode)) return nullptr;
  const CodecObject* self = as_codec(self_obj);
  if (self->ascii_encodes_to_itself && PyUnicode_Check(a[0]) && PyUnicode_IS_ASCII(a[0])) {
    // An ASCII str is its own UTF-8 and, without NUL, its own encoding.
    const auto* p = static_cast<const char*>(PyUnicode_DATA(a[0]));
    const auto n = static_cast<std::size_t>(PyUnicode_GET_LENGTH(a[0]));
    if (!std::memchr(p, 0, n)) return PyBytes_FromStringAndSize(p, static_cast<Py_ssize_t>(n));
  }
  if (self->single_byte && PyUnicode_Check(a[0]) && PyUnicode_KIND(a[0]) == PyUnicode_1BYTE_KIND) {
    PyObject* b = encode_ucs1(self, a[0]);
    if (b || PyErr_Occurred()) return b;
  }
  Utf8Text text;
  if (!text.get(a[0])) return nullptr;
  const std::string_view in = text.view();
  const auto max = self->codec->max_encoded_size(in.size());
  if (!max || *max > static_cast<std::size_t>(PY_SSIZE_T_MAX)) return PyErr_NoMemory();
  // Small output: the stack, then one copy into the bytes object. Large:
  // straight into a bytes object of the maximum size, shrunk afterwards.
  char stack[Scratch::kStack];
  PyObject* bytes = nullptr;
  char* out = stack;
  if (*max > sizeof stack) {
    bytes = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(*max));
    if (!bytes) return nullptr;
    out = PyBytes_AS_STRING(bytes);
  }
  Result r;
  if (in.size() >= kReleaseGil) {
    Py_BEGIN_ALLOW_THREADS
    r = self->codec->encode(in, std::span<char>(out, *max), mode);
    Py_END_ALLOW_THREADS
  } else {
    r = self->codec->encode(in, std::span<char>(out, *max), mode);
  }
  if (r.status == Status::Error) {
    Py_XDECREF(bytes);
    const Py_ssize_t start = text.index(a[0], r.error.offset);
    const std::size_t stop = std::min(in.size(), r.error.offset + std::max<std::size_t>(r.error.length, 1));
    raise_encode_error(r.error, self->codec->encoding(), a[0], start, std::max(start + 1, text.index(a[0], stop)));
    return nullptr;
  }
  if (!bytes) return PyBytes_FromStringAndSize(out, static_cast<Py_ssize_t>(r.written));
  if (_PyBytes_Resize(&bytes, static_cast<Py_ssize_t>(r.written)) < 0) return nullptr;
  return bytes;
}

PyObject* codec_char_length(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"data", "offset"};
  PyObject* a[2];
  if (!parse_args("char_length", args, nargs, kwnames, names, 1, a)) return nullptr;
  Py_ssize_t offset = 0;
  if (a[1]) {
    offset = PyLong_AsSsize_t(a[1]);
    if (offset == -1 && PyErr_Occurred()) return nullptr;
    if (offset < 0) {
      PyErr_SetString(PyExc_ValueError, "offset must not be negative");
      return nullptr;
    }
  }
  Buffer buf;
  if (!buf.get(a[0])) return nullptr;
  const std::string_view in = buf.view();
  const std::size_t at = static_cast<std::size_t>(offset);
  if (at >= in.size()) return PyLong_FromLong(0);
  return PyLong_FromSize_t(as_codec(self_obj)->codec->char_length(in, at));
}

PyObject* codec_get_name(PyObject* self, void*) {
  PyObject* n = as_codec(self)->name;
  Py_INCREF(n);
  return n;
}

PyObject* codec_get_max_char_length(PyObject* self, void*) {
  return PyLong_FromLong(info(as_codec(self)->codec->encoding()).max_char_length);
}

PyObject* codec_get_server(PyObject* self, void*) {
  return PyBool_FromLong(info(as_codec(self)->codec->encoding()).server);
}

PyObject* codec_get_id(PyObject* self, void*) {
  return PyLong_FromLong(to_int(as_codec(self)->codec->encoding()));
}

PyObject* codec_repr(PyObject* self) {
  return PyUnicode_FromFormat("<pgcodec.Codec %U>", as_codec(self)->name);
}

PyObject* codec_reduce(PyObject* self, PyObject*) {
  // Pickles as a lookup of its name, which gives back the cached object.
  return Py_BuildValue("(N(O))", PyObject_GetAttrString(PyImport_AddModule("pgcodec._pgcodec"), "lookup"),
                       as_codec(self)->name);
}

PyMethodDef codec_methods[] = {
    {"decode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_decode)),
     METH_FASTCALL | METH_KEYWORDS,
     "decode($self, data, /, errors='strict')\n--\n\n"
     "Decode bytes in this encoding to str, exactly as PostgreSQL converts them.\n\n"
     "data: any contiguous bytes-like object (bytes, bytearray, memoryview).\n"
     "errors: 'strict' raises pgcodec.DecodeError (a UnicodeDecodeError) at the first\n"
     "error, with PostgreSQL's SQLSTATE, byte offset and message; 'replace' decodes\n"
     "each error to U+FFFD and never fails. Any other value is a ValueError."},
    {"encode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_encode)),
     METH_FASTCALL | METH_KEYWORDS,
     "encode($self, text, /, errors='strict')\n--\n\n"
     "Encode str to bytes in this encoding, exactly as PostgreSQL converts UTF-8 text.\n\n"
     "errors: 'strict' raises pgcodec.EncodeError (a UnicodeEncodeError) at the first\n"
     "character the encoding lacks, and for text PostgreSQL would reject as invalid\n"
     "UTF-8 (a lone surrogate, NUL); start/end are the character's str indexes, offset\n"
     "its byte offset in the UTF-8 form. 'replace' writes '?' for each error."},
    {"char_length", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_char_length)),
     METH_FASTCALL | METH_KEYWORDS,
     "char_length($self, data, /, offset=0)\n--\n\n"
     "PostgreSQL's mblen: the byte length of the character starting at data[offset], as\n"
     "its lead byte says, capped at the bytes left; 0 when offset is at or past the end.\n"
     "Use it to step over characters in encodings whose trail bytes look like ASCII."},
    {"_decode_via_utf8", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_decode_via_utf8)),
     METH_FASTCALL | METH_KEYWORDS,
     "_decode_via_utf8($self, data, /, errors='strict')\n--\n\n"
     "As decode(), but the str is made by PyUnicode_DecodeUTF8 from the library's\n"
     "UTF-8 (what the limited API would allow); for measurements only."},
    {"_decode_filled", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_decode_filled)),
     METH_FASTCALL | METH_KEYWORDS,
     "_decode_filled($self, data, /, errors='strict')\n--\n\n"
     "As decode(), but the str is always filled by the module from the library's\n"
     "UTF-8 (any length, no ASCII or single-byte shortcut); for measurements only."},
    {"_decode_partial", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_decode_partial)),
     METH_FASTCALL | METH_KEYWORDS,
     "_decode_partial($self, data, /, errors='strict')\n--\n\n"
     "Decode data, stopping before a character cut off by its end: returns\n"
     "(text, bytes consumed). Used by the codecs StreamReader."},
    {"_codecs_decode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_codecs_decode)),
     METH_FASTCALL | METH_KEYWORDS,
     "_codecs_decode($self, input, errors='strict', /)\n--\n\n"
     "decode() for Python's codecs machinery: returns (text, bytes consumed), the\n"
     "consumed count always the whole input. CodecInfo.decode of pgcodec.register()."},
    {"_codecs_encode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_codecs_encode)),
     METH_FASTCALL | METH_KEYWORDS,
     "_codecs_encode($self, input, errors='strict', /)\n--\n\n"
     "encode() for Python's codecs machinery: returns (bytes, characters consumed),\n"
     "always the whole str. CodecInfo.encode of pgcodec.register()."},
    {"__reduce__", codec_reduce, METH_NOARGS, "Pickles as pgcodec.lookup(name)."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef codec_getset[] = {
    {"name", codec_get_name, nullptr, "PostgreSQL's canonical name of the encoding, e.g. 'SJIS'.", nullptr},
    {"max_char_length", codec_get_max_char_length, nullptr, "Bytes per character at most.", nullptr},
    {"server", codec_get_server, nullptr,
     "True if PostgreSQL allows it as a server (database) encoding, False if client-only.", nullptr},
    {"id", codec_get_id, nullptr, "PostgreSQL's pg_enc number (pg_database.encoding).", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyObject* codec_new_refused(PyTypeObject*, PyObject*, PyObject*) {
  PyErr_SetString(PyExc_TypeError, "pgcodec.Codec objects come from pgcodec.lookup(name)");
  return nullptr;
}

PyType_Slot codec_slots[] = {
    {Py_tp_doc, const_cast<char*>(
                    "A PostgreSQL encoding's codec: bytes in that encoding <-> str, exactly as\n"
                    "PostgreSQL converts them. Get one with pgcodec.lookup(name); there is one\n"
                    "object per encoding, so keep it (a connection resolves its client_encoding\n"
                    "once) and no call after that looks anything up.")},
    {Py_tp_methods, codec_methods},
    {Py_tp_getset, codec_getset},
    {Py_tp_repr, reinterpret_cast<void*>(codec_repr)},
    {Py_tp_new, reinterpret_cast<void*>(codec_new_refused)},
    {0, nullptr}};

PyType_Spec codec_spec = {"pgcodec.Codec", sizeof(CodecObject), 0,
                          Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, codec_slots};

}  // namespace

bool Utf8Text::get(PyObject* str) {
  if (!PyUnicode_Check(str)) {
    PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(str)->tp_name);
    return false;
  }
  Py_ssize_t n = 0;
  if (const char* p = PyUnicode_AsUTF8AndSize(str, &n)) {
    view_ = std::string_view(p, static_cast<std::size_t>(n));
    return true;
  }
  if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return false;
  PyErr_Clear();
  bytes_ = PyUnicode_AsEncodedString(str, "utf-8", "surrogatepass");
  if (!bytes_) return false;
  view_ = std::string_view(PyBytes_AS_STRING(bytes_), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes_)));
  return true;
}

Py_ssize_t Utf8Text::index(PyObject* str, std::size_t at) const {
  at = std::min(at, view_.size());
  if (PyUnicode_IS_ASCII(str)) return static_cast<Py_ssize_t>(at);
  return count_code_points(view_.data(), at);
}

PyObject* codec_for(Encoding e) {
  PyObject*& slot = cache[to_int(e)];
  if (!slot) {
    PyObject* obj = codec_type->tp_alloc(codec_type, 0);
    if (!obj) return nullptr;
    CodecObject* c = as_codec(obj);
    c->codec = &codec(e);
    const std::string_view name = info(e).name;
    c->name = PyUnicode_FromStringAndSize(name.data(), static_cast<Py_ssize_t>(name.size()));
    if (!c->name) {
      Py_DECREF(obj);
      return nullptr;
    }
    fill_table(c);
    slot = obj;  // the cache keeps this reference for the life of the interpreter
  }
  Py_INCREF(slot);
  return slot;
}

bool init_codec_type(PyObject* module) {
  codec_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&codec_spec));
  if (!codec_type) return false;
  Py_INCREF(codec_type);
  if (PyModule_AddObject(module, "Codec", reinterpret_cast<PyObject*>(codec_type)) < 0) {
    Py_DECREF(codec_type);
    return false;
  }
  return true;
}

}  // namespace pgcodec::python
