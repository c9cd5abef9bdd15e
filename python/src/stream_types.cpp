// pgcodec.StreamDecoder and pgcodec.StreamEncoder: the library's streams
// (pgcodec/stream.hpp) kept inside the Python objects. Output, status and
// errors are those of one conversion of everything fed, for any chunking;
// error offsets count from the start of the stream.
#include <algorithm>
#include <cstring>
#include <new>

#include "args.hpp"
#include "pgcodec/stream.hpp"
#include "pgcodec_py.hpp"

namespace pgcodec::python {

PyTypeObject* stream_decoder_type = nullptr;
PyTypeObject* stream_encoder_type = nullptr;

namespace {

// A decoder carries at most 3 bytes (a character cut off by a chunk's end).
// They are kept here too, so that `pending` can give them out (what
// codecs' IncrementalDecoder.getstate needs for TextIOWrapper.tell()).
constexpr std::size_t kPendingMax = 8;

// The decoder is the library's decode_units with final == false (through
// decode_str, straight into the str), the bytes of a character cut off by a
// chunk's end kept here for the next one.
struct StreamDecoderObject {
  PyObject_HEAD
  PyObject* codec;  // the CodecObject
  ErrorMode mode;
  PyObject* handler_name;  // errors=, when it names a handler (owned)
  bool constructed;
  bool failed;  // after an error, every call raises it again
  Error error;
  std::size_t fed;  // bytes fed so far
  std::size_t pending_len;
  char pending[kPendingMax];
};

struct StreamEncoderObject {
  PyObject_HEAD
  PyObject* codec;
  ErrorMode mode;
  bool constructed;
  std::size_t fed;  // UTF-8 bytes fed so far
  alignas(StreamEncoder) unsigned char storage[sizeof(StreamEncoder)];
  StreamEncoder& stream() { return *std::launder(reinterpret_cast<StreamEncoder*>(storage)); }
};

const Codec& codec_of(PyObject* c) { return *reinterpret_cast<CodecObject*>(c)->codec; }

// The codec argument: a pgcodec.Codec, or a name lookup() accepts.
PyObject* codec_arg(PyObject* arg) {
  if (PyObject_TypeCheck(arg, codec_type)) return Py_NewRef(arg);
  if (!PyUnicode_Check(arg)) {
    PyErr_Format(PyExc_TypeError, "codec must be a pgcodec.Codec or an encoding name, not %.100s",
                 Py_TYPE(arg)->tp_name);
    return nullptr;
  }
  Py_ssize_t n = 0;
  const char* name = PyUnicode_AsUTF8AndSize(arg, &n);
  if (!name) return nullptr;
  const Codec* c = find_codec(std::string_view(name, static_cast<std::size_t>(n)));
  if (!c) {
    PyErr_Format(PyExc_LookupError, "unknown PostgreSQL encoding: %R", arg);
    return nullptr;
  }
  return codec_for(c->encoding());
}

// StreamDecoder(codec, errors="strict")
int decoder_init(PyObject* self_obj, PyObject* args, PyObject* kwargs) {
  static const char* kwlist[] = {"codec", "errors", nullptr};
  PyObject* codec_obj = nullptr;
  PyObject* errors_obj = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O", const_cast<char**>(kwlist), &codec_obj, &errors_obj))
    return -1;
  Errors errors;
  if (!parse_errors(errors_obj, &errors)) return -1;
  PyObject* codec = codec_arg(codec_obj);
  if (!codec) return -1;
  auto* self = reinterpret_cast<StreamDecoderObject*>(self_obj);
  Py_XSETREF(self->codec, codec);
  Py_XINCREF(errors.handler_name);
  Py_XSETREF(self->handler_name, errors.handler_name);
  self->mode = errors.mode;
  self->fed = 0;
  self->pending_len = 0;
  self->failed = false;
  self->constructed = true;
  return 0;
}

void decoder_dealloc(PyObject* self_obj) {
  auto* self = reinterpret_cast<StreamDecoderObject*>(self_obj);
  PyTypeObject* tp = Py_TYPE(self_obj);
  Py_XDECREF(self->codec);
  Py_XDECREF(self->handler_name);
  tp->tp_free(self_obj);
  Py_DECREF(tp);
}

// StreamEncoder(codec, errors="strict")
template <class Obj, class Stream>
int stream_init(PyObject* self_obj, PyObject* args, PyObject* kwargs) {
  static const char* kwlist[] = {"codec", "errors", nullptr};
  PyObject* codec_obj = nullptr;
  PyObject* errors = nullptr;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O", const_cast<char**>(kwlist), &codec_obj, &errors))
    return -1;
  ErrorMode mode;
  if (!parse_errors(errors, &mode)) return -1;
  PyObject* codec = codec_arg(codec_obj);
  if (!codec) return -1;
  Obj* self = reinterpret_cast<Obj*>(self_obj);
  if (self->constructed) {
    self->stream().~Stream();
    self->constructed = false;
  }
  Py_XSETREF(self->codec, codec);
  self->mode = mode;
  self->fed = 0;
  new (self->storage) Stream(codec_of(codec), mode);
  self->constructed = true;
  return 0;
}

template <class Obj, class Stream>
void stream_dealloc(PyObject* self_obj) {
  Obj* self = reinterpret_cast<Obj*>(self_obj);
  PyTypeObject* tp = Py_TYPE(self_obj);
  if (self->constructed) self->stream().~Stream();
  Py_XDECREF(self->codec);
  tp->tp_free(self_obj);
  Py_DECREF(tp);
}

template <class Obj>
bool ready(Obj* self) {
  if (self->constructed) return true;
  PyErr_SetString(PyExc_RuntimeError, "the stream was not initialised");
  return false;
}

// The error's bytes as an object for DecodeError: the pending bytes and the
// chunk, which hold the offending character; start/end index into it.
// `counted`: the chunk is already in self->fed.
void raise_stream_decode(StreamDecoderObject* self, const Error& e, std::string_view chunk, bool counted) {
  std::string joined(self->pending, self->pending_len);
  joined.append(chunk);
  // The stream offset of joined[0].
  const std::size_t base = self->fed - self->pending_len - (counted ? chunk.size() : 0);
  const std::size_t at = e.offset >= base ? std::min(e.offset - base, joined.size()) : 0;
  const std::size_t stop = std::min(joined.size(), at + std::max<std::size_t>(e.length, 1));
  PyObject* obj = PyBytes_FromStringAndSize(joined.data(), static_cast<Py_ssize_t>(joined.size()));
  if (!obj) return;
  raise_decode_error(e, codec_of(self->codec).encoding(), obj, static_cast<Py_ssize_t>(at), static_cast<Py_ssize_t>(stop));
  Py_DECREF(obj);
}

// Decodes `in` (pending bytes + chunk, or pending bytes at the end) and
// keeps what is left after the characters decoded as the pending bytes.
// `chunk` is what the caller passed (for the exception's object).
PyObject* decoder_run(StreamDecoderObject* self, std::string_view in, std::string_view chunk, bool final) {
  const Codec& c = codec_of(self->codec);
  const std::size_t base = self->fed - in.size();  // stream offset of in[0] (fed counts the chunk)
  PyObject* s = nullptr;
  const Result r = decode_str(c, in, self->mode, final, s);
  if (!s) return nullptr;
  std::size_t consumed = r.consumed;
  if (r.status == Status::Error) {
    if (!self->handler_name) {
      Py_DECREF(s);
      self->failed = true;
      self->error = r.error;
      self->error.offset += base;
      raise_stream_decode(self, self->error, chunk, true);
      return nullptr;
    }
    PyObject* object = PyBytes_FromStringAndSize(in.data(), static_cast<Py_ssize_t>(in.size()));
    if (!object) {
      Py_DECREF(s);
      return nullptr;
    }
    s = decode_with_handler(c, object, in, self->handler_name, final, r.consumed, s, &consumed);
    Py_DECREF(object);
    if (!s) return nullptr;
  }
  const std::size_t left = in.size() - consumed;
  if (left > kPendingMax) {  // cannot happen: a cut-off character is at most 3 bytes
    Py_DECREF(s);
    PyErr_SetString(PyExc_SystemError, "pgcodec: the decoder left more than a cut-off character");
    return nullptr;
  }
  char next[kPendingMax];
  if (left != 0) {
    std::memcpy(next, in.data() + consumed, left);
    std::memcpy(self->pending, next, left);
  }
  self->pending_len = left;
  return s;
}

PyObject* decoder_feed(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"data"};
  PyObject* a[1];
  if (!parse_args("feed", args, nargs, kwnames, names, 1, a)) return nullptr;
  auto* self = reinterpret_cast<StreamDecoderObject*>(self_obj);
  if (!ready(self)) return nullptr;
  Buffer buf;
  if (!buf.get(a[0])) return nullptr;
  const std::string_view chunk = buf.view();
  if (self->failed) {
    raise_stream_decode(self, self->error, chunk, false);
    return nullptr;
  }
  self->fed += chunk.size();
  if (!self->pending_len) return decoder_run(self, chunk, chunk, false);
  std::string joined(self->pending, self->pending_len);
  joined.append(chunk);
  return decoder_run(self, joined, chunk, false);
}

PyObject* decoder_finish(PyObject* self_obj, PyObject*) {
  auto* self = reinterpret_cast<StreamDecoderObject*>(self_obj);
  if (!ready(self)) return nullptr;
  if (self->failed) {
    raise_stream_decode(self, self->error, {}, false);
    return nullptr;
  }
  const std::string held(self->pending, self->pending_len);
  return decoder_run(self, held, {}, true);
}

PyObject* decoder_get_pending(PyObject* self_obj, void*) {
  auto* self = reinterpret_cast<StreamDecoderObject*>(self_obj);
  return PyBytes_FromStringAndSize(self->pending, static_cast<Py_ssize_t>(self->pending_len));
}

PyObject* get_codec(PyObject* self_obj, void*) {
  // Both stream objects start with the same members.
  PyObject* c = reinterpret_cast<StreamDecoderObject*>(self_obj)->codec;
  if (!c) Py_RETURN_NONE;
  Py_INCREF(c);
  return c;
}

PyObject* encoder_feed(PyObject* self_obj, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static const char* const names[] = {"text"};
  PyObject* a[1];
  if (!parse_args("feed", args, nargs, kwnames, names, 1, a)) return nullptr;
  auto* self = reinterpret_cast<StreamEncoderObject*>(self_obj);
  if (!ready(self)) return nullptr;
  Utf8Text text;
  if (!text.get(a[0])) return nullptr;
  const std::string_view in = text.view();
  const auto max = self->stream().output_bound(in.size());
  if (!max || *max > static_cast<std::size_t>(PY_SSIZE_T_MAX)) return PyErr_NoMemory();
  PyObject* bytes = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(*max));
  if (!bytes) return nullptr;
  // The stream can stop short (Status::OutputFull) only when holding back a
  // long run of tone letters failed to allocate: feed the rest again.
  std::size_t used = 0, written = 0;
  Result r;
  for (;;) {
    r = self->stream().feed(in.substr(used), std::span<char>(PyBytes_AS_STRING(bytes) + written, *max - written));
    used += r.consumed;
    written += r.written;
    if (r.status != Status::OutputFull) break;
    if (r.consumed == 0 && r.written == 0) {
      Py_DECREF(bytes);
      return PyErr_NoMemory();
    }
  }
  if (r.status == Status::Error) {
    Py_DECREF(bytes);
    const std::size_t at = r.error.offset >= self->fed ? r.error.offset - self->fed : 0;
    const Py_ssize_t start = text.index(a[0], at);
    const Py_ssize_t len = PyUnicode_GET_LENGTH(a[0]);
    const std::size_t stop = std::min(in.size(), at + std::max<std::size_t>(r.error.length, 1));
    raise_encode_error(r.error, codec_of(self->codec).encoding(), a[0], std::min(start, len),
                       std::min(len, std::max(start + 1, text.index(a[0], stop))));
    return nullptr;
  }
  self->fed += in.size();
  if (_PyBytes_Resize(&bytes, static_cast<Py_ssize_t>(written)) < 0) return nullptr;
  return bytes;
}

PyObject* encoder_finish(PyObject* self_obj, PyObject*) {
  auto* self = reinterpret_cast<StreamEncoderObject*>(self_obj);
  if (!ready(self)) return nullptr;
  const auto max = self->stream().output_bound(0);
  if (!max || *max > static_cast<std::size_t>(PY_SSIZE_T_MAX)) return PyErr_NoMemory();
  PyObject* bytes = PyBytes_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(*max));
  if (!bytes) return nullptr;
  const Result r = self->stream().finish(std::span<char>(PyBytes_AS_STRING(bytes), *max));
  if (r.status == Status::Error) {
    Py_DECREF(bytes);
    PyObject* empty = PyUnicode_New(0, 0);
    if (!empty) return nullptr;
    raise_encode_error(r.error, codec_of(self->codec).encoding(), empty, 0, 0);
    Py_DECREF(empty);
    return nullptr;
  }
  if (_PyBytes_Resize(&bytes, static_cast<Py_ssize_t>(r.written)) < 0) return nullptr;
  return bytes;
}

PyObject* encoder_get_pending(PyObject* self_obj, void*) {
  auto* self = reinterpret_cast<StreamEncoderObject*>(self_obj);
  if (!ready(self)) return nullptr;
  return PyLong_FromSize_t(self->stream().carried());
}

PyObject* get_position(PyObject* self_obj, void*) {
  if (Py_IS_TYPE(self_obj, stream_decoder_type)) {
    auto* self = reinterpret_cast<StreamDecoderObject*>(self_obj);
    return ready(self) ? PyLong_FromSize_t(self->fed - self->pending_len) : nullptr;
  }
  auto* self = reinterpret_cast<StreamEncoderObject*>(self_obj);
  return ready(self) ? PyLong_FromSize_t(self->stream().position()) : nullptr;
}

#define PGCODEC_FASTCALL(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f))

PyMethodDef decoder_methods[] = {
    {"feed", PGCODEC_FASTCALL(decoder_feed), METH_FASTCALL | METH_KEYWORDS,
     "feed($self, data, /)\n--\n\n"
     "Decode the next chunk (any bytes-like object). Returns the text of the whole\n"
     "characters so far; a character cut off by the chunk's end is kept for the next\n"
     "chunk. Raises pgcodec.DecodeError (offset from the start of the stream); after an\n"
     "error every call raises it again."},
    {"finish", decoder_finish, METH_NOARGS,
     "finish($self, /)\n--\n\n"
     "End the stream: bytes still kept are a truncated character, an error (U+FFFD\n"
     "with errors='replace'). Returns the last text."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef decoder_getset[] = {
    {"codec", get_codec, nullptr, "The pgcodec.Codec decoded from.", nullptr},
    {"pending", decoder_get_pending, nullptr,
     "The bytes kept for the next chunk (at most 3: a character cut off so far).", nullptr},
    {"position", get_position, nullptr, "Bytes of the stream converted so far (pending bytes excluded).",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef encoder_methods[] = {
    {"feed", PGCODEC_FASTCALL(encoder_feed), METH_FASTCALL | METH_KEYWORDS,
     "feed($self, text, /)\n--\n\n"
     "Encode the next chunk of text. Returns the bytes of what the rest of the stream\n"
     "cannot change: in EUC_JIS_2004 and SHIFT_JIS_2004 a character that may combine\n"
     "with the next one into one code (U+304B U+309A) is held back until the next\n"
     "chunk or finish(). Raises pgcodec.EncodeError (offset from the start of the\n"
     "stream, in UTF-8 bytes); after an error every call raises it again."},
    {"finish", encoder_finish, METH_NOARGS,
     "finish($self, /)\n--\n\n"
     "End the stream: encode what is held back. Returns the last bytes."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef encoder_getset[] = {
    {"codec", get_codec, nullptr, "The pgcodec.Codec encoded to.", nullptr},
    {"pending", encoder_get_pending, nullptr, "UTF-8 bytes of text held back for the next chunk.", nullptr},
    {"position", get_position, nullptr, "UTF-8 bytes of the stream converted so far.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyType_Slot decoder_slots[] = {
    {Py_tp_doc, const_cast<char*>(
                    "StreamDecoder(codec, errors='strict')\n--\n\n"
                    "Decode bytes that arrive in chunks (COPY data, a socket, a file). The text\n"
                    "and any error are exactly those of one decode of the concatenation, for\n"
                    "any chunking. codec: a pgcodec.Codec or an encoding name; errors: as\n"
                    "Codec.decode ('strict', 'replace' or an error handler's name).")},
    {Py_tp_init, reinterpret_cast<void*>(decoder_init)},
    {Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(decoder_dealloc)},
    {Py_tp_methods, decoder_methods},
    {Py_tp_getset, decoder_getset},
    {0, nullptr}};

PyType_Slot encoder_slots[] = {
    {Py_tp_doc, const_cast<char*>(
                    "StreamEncoder(codec, errors='strict')\n--\n\n"
                    "Encode text that is produced in chunks (COPY ... FROM STDIN data). The\n"
                    "bytes and any error are exactly those of one encode of the concatenation,\n"
                    "for any chunking. codec: a pgcodec.Codec or an encoding name; errors:\n"
                    "'strict' or 'replace'.")},
    {Py_tp_init, reinterpret_cast<void*>(stream_init<StreamEncoderObject, StreamEncoder>)},
    {Py_tp_new, reinterpret_cast<void*>(PyType_GenericNew)},
    {Py_tp_dealloc, reinterpret_cast<void*>(stream_dealloc<StreamEncoderObject, StreamEncoder>)},
    {Py_tp_methods, encoder_methods},
    {Py_tp_getset, encoder_getset},
    {0, nullptr}};

PyType_Spec decoder_spec = {"pgcodec.StreamDecoder", sizeof(StreamDecoderObject), 0,
                            Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, decoder_slots};
PyType_Spec encoder_spec = {"pgcodec.StreamEncoder", sizeof(StreamEncoderObject), 0,
                            Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, encoder_slots};

bool add_type(PyObject* module, PyType_Spec* spec, PyTypeObject** out, const char* name) {
  *out = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(spec));
  if (!*out) return false;
  Py_INCREF(*out);
  if (PyModule_AddObject(module, name, reinterpret_cast<PyObject*>(*out)) < 0) {
    Py_DECREF(*out);
    return false;
  }
  return true;
}

}  // namespace

bool init_stream_types(PyObject* module) {
  return add_type(module, &decoder_spec, &stream_decoder_type, "StreamDecoder") &&
         add_type(module, &encoder_spec, &stream_encoder_type, "StreamEncoder");
}

}  // namespace pgcodec::python
