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

void raise_decode(const CodecObject* c, const Error& e, PyObject* data, std::size_t n) {
  const auto start = static_cast<Py_ssize_t>(std::min(e.offset, n));
  const auto end = static_cast<Py_ssize_t>(std::min(e.offset + std::max<std::size_t>(e.length, 1), n));
  raise_decode_error(e, c->codec->encoding(), data, start, end);
}

// decode(data, errors) and _decode_partial: the library's one pass into the
// str; an error goes to the handler, if errors names one, from where it is.
PyObject* decode_text(const CodecObject* self, PyObject* data, std::string_view in, const Errors& errors,
                      bool final, std::size_t* consumed) {
  PyObject* s = nullptr;
  const Result r = decode_str(*self->codec, in, errors.mode, final, s);
  if (!s) return nullptr;
  if (r.status != Status::Error) {
    if (consumed) *consumed = r.consumed;
    return s;
  }
  if (!errors.handler_name) {
    Py_DECREF(s);
    raise_decode(self, r.error, data, in.size());
    return nullptr;
  }
  return decode_with_handler(*self->codec, data, in, errors.handler_name, final, r.consumed, s, consumed);
}

PyObject* decode_impl(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                      const char* func) {
  if (nargs == 1 && !kwnames && PyBytes_CheckExact(args[0])) {
    // decode(b), the driver's call: no keywords, errors or buffer export to
    // look at (callgrind: 100 of the 355 instructions an 8-byte decode
    // took in the module).
    const std::string_view in(PyBytes_AS_STRING(args[0]), static_cast<std::size_t>(PyBytes_GET_SIZE(args[0])));
    return decode_text(as_codec(self_obj), args[0], in, Errors{}, true, nullptr);
  }
  static const char* const names[] = {"data", "errors"};
  PyObject* a[2];
  if (!parse_args(func, args, nargs, kwnames, names, 1, a)) return nullptr;
  Errors errors;
  if (!parse_errors(a[1], &errors)) return nullptr;
  Buffer buf;
  if (!buf.get_fast(a[0])) return nullptr;
  return decode_text(as_codec(self_obj), a[0], buf.view(), errors, true, nullptr);
}

PyObject* codec_decode(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return decode_impl(self, args, nargs, kwnames, "decode");
}

// The library's UTF-8 output as bytes: what decode() must equal once
// decoded as UTF-8 (the tests compare the two paths).
PyObject* codec_decode_to_utf8(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"data", "errors"};
  PyObject* a[2];
  if (!parse_args("_decode_to_utf8", args, nargs, kwnames, names, 1, a)) return nullptr;
  ErrorMode mode;
  if (!parse_errors(a[1], &mode)) return nullptr;
  Buffer buf;
  if (!buf.get_fast(a[0])) return nullptr;
  const std::string_view in = buf.view();
  const CodecObject* self = as_codec(self_obj);
  std::string out(*self->codec->max_decoded_size(in.size()), '\0');
  const Result r = self->codec->decode(in, std::span<char>(out.data(), out.size()), mode);
  if (r.status == Status::Error) {
    raise_decode(self, r.error, a[0], in.size());
    return nullptr;
  }
  return PyBytes_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(r.written));
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
  PyObject* s = decode_impl(self, args, nargs, kwnames, "_codecs_decode");
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

// Whether the text argument is a str (TypeError if not).
bool str_arg(PyObject* str) {
  if (PyUnicode_Check(str)) return true;
  PyErr_Format(PyExc_TypeError, "expected str, not %.100s", Py_TYPE(str)->tp_name);
  return false;
}

// Raises the EncodeError of a strict encode of `str`: characters start to
// start + the units the error spans, offset in the text's UTF-8.
PyObject* raise_strict_encode(const Codec& c, PyObject* str, const UnitText& text, const Error& e) {
  const auto start = static_cast<Py_ssize_t>(e.offset);
  raise_encode_error_at(e, c.encoding(), str, start, start + std::max<Py_ssize_t>(e.skip, 1),
                        utf8_offset(text, e.offset));
  return nullptr;
}

// From this many characters a LATIN1 encode of a Latin-1 str is the
// library's one-pass copy rather than memchr and PyBytes' copy.
constexpr std::size_t kOnePassCopy = 4096;

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
  Errors errors;
  if (!parse_errors(a[1], &errors)) return nullptr;
  Buffer buf;
  if (!buf.get(a[0])) return nullptr;
  std::size_t consumed = 0;
  PyObject* s = decode_text(as_codec(self_obj), a[0], buf.view(), errors, false, &consumed);
  if (!s) return nullptr;
  return Py_BuildValue("(Nn)", s, static_cast<Py_ssize_t>(consumed));
}

PyObject* codec_encode(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"text", "errors"};
  PyObject* a[2] = {nargs == 1 ? args[0] : nullptr, nullptr};
  Errors errors;
  // encode(s), the driver's call, as decode(b) (see decode_impl): no
  // keywords or errors to look at.
  if ((nargs != 1 || kwnames) &&
      (!parse_args("encode", args, nargs, kwnames, names, 1, a) || !parse_errors(a[1], &errors)))
    return nullptr;
  PyObject* str = a[0];
  if (!str_arg(str)) return nullptr;
  const CodecObject* self = as_codec(self_obj);
  const Identity& id = identity(*self->codec);
  if (PyUnicode_KIND(str) == PyUnicode_1BYTE_KIND &&
      (id.latin1_encodes || (id.ascii_encodes && PyUnicode_IS_ASCII(str)))) {
    // An ASCII str (a Latin-1 one in LATIN1) is, without NUL, its own
    // encoding: a copy. Short, or not LATIN1: memchr and a copy, no library
    // call. Long LATIN1: the library's copy, which looks for NUL as it
    // copies (one pass over the data, not two).
    const auto* p = static_cast<const char*>(PyUnicode_DATA(str));
    const auto n = static_cast<std::size_t>(PyUnicode_GET_LENGTH(str));
    if (n < kOnePassCopy || !id.latin1_encodes) {
      if (!std::memchr(p, 0, n)) return PyBytes_FromStringAndSize(p, static_cast<Py_ssize_t>(n));
    } else {
      PyObject* bytes = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(n));
      if (!bytes) return nullptr;
      // One byte a character: the room cannot run out (a NUL is an error).
      const Result r = encode_into(*self->codec, {p, n, UnitForm::Latin1}, PyBytes_AS_STRING(bytes), n,
                                   ErrorMode::Strict, true, kReleaseGilCopy);
      if (r.ok() && r.written == n) return bytes;
      Py_DECREF(bytes);  // a NUL: the general path below reports or handles it
    }
  }
  // The library reads the str's own characters (Latin-1, UCS-2 or UCS-4).
  const UnitText text = units_of(str);
  const std::size_t max = encode_bound(*self->codec, text);
  if (max > static_cast<std::size_t>(PY_SSIZE_T_MAX)) return PyErr_NoMemory();
  // Small output: the stack, then one copy into the bytes object. Large:
  // straight into a bytes object of the maximum size, shrunk afterwards.
  char stack[Scratch::kStack];
  PyObject* bytes = nullptr;
  char* out = stack;
  if (max > sizeof stack) {
    bytes = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(max));
    if (!bytes) return nullptr;
    out = PyBytes_AS_STRING(bytes);
    prefer_huge_pages(out, max);
  }
  const Result r = encode_into(*self->codec, text, out, max, errors.mode);
  if (r.status == Status::OutputFull) {
    Py_XDECREF(bytes);
    return nullptr;
  }
  if (r.status == Status::Error) {
    if (errors.handler_name) {
      std::string done(out, r.written);
      Py_XDECREF(bytes);
      return encode_with_handler(*self->codec, str, errors.handler_name, r.consumed, std::move(done));
    }
    Py_XDECREF(bytes);
    return raise_strict_encode(*self->codec, str, text, r.error);
  }
  if (!bytes) return PyBytes_FromStringAndSize(out, static_cast<Py_ssize_t>(r.written));
  if (_PyBytes_Resize(&bytes, static_cast<Py_ssize_t>(r.written)) < 0) return nullptr;
  return bytes;
}

// _encode_partial(text, errors): one chunk of a longer text; returns
// (bytes, characters consumed): what the next chunk could still change
// (EUC_JIS_2004 / SHIFT_JIS_2004's pairs) is left, for the incremental
// encoder to pass again with the next chunk.
PyObject* codec_encode_partial(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"text", "errors"};
  PyObject* a[2];
  if (!parse_args("_encode_partial", args, nargs, kwnames, names, 1, a)) return nullptr;
  Errors errors;
  if (!parse_errors(a[1], &errors)) return nullptr;
  PyObject* str = a[0];
  if (!str_arg(str)) return nullptr;
  const CodecObject* self = as_codec(self_obj);
  const UnitText text = units_of(str);
  const std::size_t max = encode_bound(*self->codec, text);
  if (max > static_cast<std::size_t>(PY_SSIZE_T_MAX)) return PyErr_NoMemory();
  std::string out(max, '\0');
  const Result r = encode_into(*self->codec, text, out.data(), out.size(), errors.mode, false);
  if (r.status == Status::OutputFull) return nullptr;
  PyObject* bytes = nullptr;
  std::size_t consumed = r.consumed;
  if (r.status == Status::Error) {
    if (!errors.handler_name) {
      return raise_strict_encode(*self->codec, str, text, r.error);
    }
    bytes = encode_with_handler(*self->codec, str, errors.handler_name, r.consumed, out.substr(0, r.written),
                                false, &consumed);
  } else {
    bytes = PyBytes_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(r.written));
  }
  if (!bytes) return nullptr;
  return Py_BuildValue("(Nn)", bytes, static_cast<Py_ssize_t>(consumed));
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
     "each error to U+FFFD and never fails; any other name is an error handler of\n"
     "Python's codecs ('ignore', 'surrogateescape', 'backslashreplace', or one\n"
     "registered with codecs.register_error), called with a DecodeError whose\n"
     "start..end is the span PostgreSQL's conversion skips: one byte of an invalid\n"
     "sequence, the whole character that has no equivalent."},
    {"encode", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_encode)),
     METH_FASTCALL | METH_KEYWORDS,
     "encode($self, text, /, errors='strict')\n--\n\n"
     "Encode str to bytes in this encoding, exactly as PostgreSQL converts UTF-8 text.\n\n"
     "errors: 'strict' raises pgcodec.EncodeError (a UnicodeEncodeError) at the first\n"
     "character the encoding lacks, and for text PostgreSQL would reject as invalid\n"
     "UTF-8 (a lone surrogate, NUL); start/end are the character's str indexes, offset\n"
     "its byte offset in the UTF-8 form. 'replace' writes '?' for each error; any\n"
     "other name is an error handler of Python's codecs ('ignore', 'surrogateescape',\n"
     "'backslashreplace', 'xmlcharrefreplace', 'namereplace', or one registered with\n"
     "codecs.register_error), called with that EncodeError."},
    {"char_length", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_char_length)),
     METH_FASTCALL | METH_KEYWORDS,
     "char_length($self, data, /, offset=0)\n--\n\n"
     "PostgreSQL's mblen: the byte length of the character starting at data[offset], as\n"
     "its lead byte says, capped at the bytes left; 0 when offset is at or past the end.\n"
     "Use it to step over characters in encodings whose trail bytes look like ASCII."},
    {"_decode_to_utf8", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_decode_to_utf8)),
     METH_FASTCALL | METH_KEYWORDS,
     "_decode_to_utf8($self, data, /, errors='strict')\n--\n\n"
     "The library's UTF-8 decode of data, as bytes: decode(data) equals it decoded\n"
     "as UTF-8. For tests and measurements; errors: 'strict' or 'replace'."},
    {"_decode_partial", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_decode_partial)),
     METH_FASTCALL | METH_KEYWORDS,
     "_decode_partial($self, data, /, errors='strict')\n--\n\n"
     "Decode data, stopping before a character cut off by its end: returns\n"
     "(text, bytes consumed). Used by the codecs StreamReader. errors: as decode()."},
    {"_encode_partial", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_encode_partial)),
     METH_FASTCALL | METH_KEYWORDS,
     "_encode_partial($self, text, /, errors='strict')\n--\n\n"
     "Encode one chunk of a longer text: returns (bytes, characters consumed); the\n"
     "characters not consumed (a pair the next chunk could complete, in EUC_JIS_2004 and\n"
     "SHIFT_JIS_2004) go again at the start of the next chunk. Used by the incremental\n"
     "encoder of pgcodec.register()."},
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
    {"_copy_escape", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_copy_escape)), METH_FASTCALL,
     "_copy_escape($self, data, /)\n--\n\n"
     "One value for COPY's text format: data (in this encoding) with backslash, tab,\n"
     "newline, CR, BS, VT and FF escaped as \\\\, \\t, ... where they are characters, never\n"
     "where such a byte is a character's trail byte (SJIS 95 5C is one character).\n"
     "Returns data itself when it has nothing to escape. For the drivers' COPY."},
    {"_copy_unescape", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(codec_copy_unescape)),
     METH_FASTCALL,
     "_copy_unescape($self, data, /)\n--\n\n"
     "The reverse of _copy_escape: one field of COPY's text output, its escapes\n"
     "read by character (a trail byte 0x5C escapes nothing)."},
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
  if (!str_arg(str)) return false;
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
  Py_ssize_t count = 0;
  for (std::size_t i = 0; i < at; ++i) count += (static_cast<unsigned char>(view_[i]) & 0xC0) != 0x80;
  return count;
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
