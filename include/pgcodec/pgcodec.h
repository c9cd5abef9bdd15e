/* pgcodec's C API, for drivers written in C or Cython (psycopg2, asyncpg).
 *
 * The same operations as the C++ API (pgcodec/codec.hpp, pgcodec/stream.hpp):
 * bytes in a PostgreSQL encoding <-> UTF-8, exactly as PostgreSQL converts
 * them. Plain C99; usable from C++ as well. No function allocates except
 * pgcodec_stream_new and pgcodec_stream_encoder_new (and, in one rare case
 * named below, pgcodec_stream_feed on an encoding stream), and none lets a
 * C++ exception out.
 *
 *   const pgcodec_codec *c = pgcodec_find("WIN1252");
 *   size_t cap;
 *   if (!c || pgcodec_max_decoded_size(c, in_len, &cap) != 0) ... ;
 *   char *out = malloc(cap);
 *   pgcodec_result r = pgcodec_decode(c, in, in_len, out, cap, PGCODEC_STRICT);
 *   if (r.status == PGCODEC_ERROR) {
 *     char msg[256];
 *     pgcodec_error_message(&r, msg, sizeof msg);
 *     ... raise with pgcodec_error_sqlstate(&r) and msg ...
 *   }
 *
 * Codec pointers are static: resolve once per connection, keep the pointer,
 * never free it. A codec pointer must be one these functions returned; a
 * NULL one is reported as PGCODEC_INVALID_ARGUMENT (or -1, NULL, 0 below).
 */
#ifndef PGCODEC_PGCODEC_H
#define PGCODEC_PGCODEC_H

#include <stddef.h>

#include "pgcodec/export.h"
#include "pgcodec/version.h"

#ifdef __cplusplus
#define PGCODEC_NOEXCEPT noexcept
extern "C" {
#else
#define PGCODEC_NOEXCEPT
#endif

/* Result status. */
typedef enum pgcodec_status {
  PGCODEC_OK = 0,               /* all input converted */
  PGCODEC_ERROR = 1,            /* stopped at the error in the result (strict mode) */
  PGCODEC_OUTPUT_FULL = 2,      /* the output buffer is full; `consumed` input was converted */
  /* 3 is unused (it once meant a codec not written yet; all 42 are). */
  PGCODEC_INVALID_ARGUMENT = 4, /* NULL codec or stream, NULL buffer with a nonzero
                                   length, or an unknown mode or form; nothing converted */
  PGCODEC_WIDER = 5             /* pgcodec_decode_units: the next character's code point
                                   is above the limit; continue in a wider form */
} pgcodec_status;

/* Forms of text as code units (pgcodec/codec.hpp UnitForm). */
typedef enum pgcodec_unit_form {
  PGCODEC_LATIN1 = 0, /* 1 byte per unit, U+0000..U+00FF */
  PGCODEC_UCS2 = 1,   /* 2 bytes per unit, U+0000..U+FFFF, a surrogate is a code point */
  PGCODEC_UTF16 = 2,  /* 2 bytes per unit, surrogate pairs above U+FFFF */
  PGCODEC_UTF32 = 3   /* 4 bytes per unit */
} pgcodec_unit_form;

/* Error kinds (when status == PGCODEC_ERROR). */
typedef enum pgcodec_error_kind {
  PGCODEC_INVALID_BYTE_SEQUENCE = 0, /* SQLSTATE 22021: not a well-formed character */
  PGCODEC_NO_EQUIVALENT = 1          /* SQLSTATE 22P05: well formed, but no mapping */
} pgcodec_error_kind;

/* Error modes. */
typedef enum pgcodec_mode {
  PGCODEC_STRICT = 0, /* stop at the first error, as PostgreSQL does */
  PGCODEC_REPLACE = 1 /* decode: U+FFFD, encode: '?', for each error; never fails */
} pgcodec_mode;

typedef struct pgcodec_codec pgcodec_codec; /* opaque */

/* The outcome of a conversion. The error_* fields are meaningful when
 * status == PGCODEC_ERROR and zero otherwise. */
typedef struct pgcodec_result {
  size_t consumed;    /* input bytes converted (up to the error, if any) */
  size_t written;     /* output bytes written */
  int status;         /* pgcodec_status */
  int error_kind;     /* pgcodec_error_kind */
  size_t error_offset; /* byte offset of the offending character (streams: from the
                          start of the stream) */
  unsigned char error_bytes[8]; /* the offending bytes, as PostgreSQL quotes them */
  int error_length;   /* how many of error_bytes, 1..8 */
  int error_skip;     /* bytes to skip to resume after the error */
  int error_encoding; /* PostgreSQL encoding id the offending bytes are in */
  int error_target;   /* PostgreSQL encoding id being converted to */
} pgcodec_result;

/* --- Codecs ------------------------------------------------------------ */

/* Name lookup as PostgreSQL resolves names (pg_char_to_encoding: case,
 * '-', '_' and other punctuation ignored; "Shift-JIS" is SJIS). NULL if the
 * name is unknown or NULL. */
PGCODEC_API const pgcodec_codec *pgcodec_find(const char *name) PGCODEC_NOEXCEPT;
/* By PostgreSQL encoding id (pg_enc: 0 SQL_ASCII, 6 UTF8, ... 41
 * SHIFT_JIS_2004). NULL if out of range, so ids 0, 1, ... until NULL
 * enumerate every encoding. */
PGCODEC_API const pgcodec_codec *pgcodec_by_id(int pg_encoding_id) PGCODEC_NOEXCEPT;
/* The PostgreSQL encoding id; -1 for NULL. */
PGCODEC_API int pgcodec_id(const pgcodec_codec *codec) PGCODEC_NOEXCEPT;
/* PostgreSQL's canonical name ("UTF8", "SJIS"), static; NULL for NULL. */
PGCODEC_API const char *pgcodec_name(const pgcodec_codec *codec) PGCODEC_NOEXCEPT;

/* The version of the library linked in ("0.1.0"), static. The header's
 * PGCODEC_VERSION_STRING (pgcodec/version.h) is the version compiled
 * against; with a shared library the two may differ. */
PGCODEC_API const char *pgcodec_version(void) PGCODEC_NOEXCEPT;

/* --- One-shot conversion ------------------------------------------------ */

/* Bytes in the codec's encoding -> UTF-8, into out[0, out_cap). */
PGCODEC_API pgcodec_result pgcodec_decode(const pgcodec_codec *codec, const char *in, size_t in_len,
                                          char *out, size_t out_cap, int mode) PGCODEC_NOEXCEPT;
/* As pgcodec_decode, but a character cut off by the end of the input is not
 * an error: conversion stops before it (`consumed` says where) for the caller
 * to carry into the next chunk. */
PGCODEC_API pgcodec_result pgcodec_decode_partial(const pgcodec_codec *codec, const char *in,
                                                  size_t in_len, char *out, size_t out_cap,
                                                  int mode) PGCODEC_NOEXCEPT;
/* UTF-8 -> bytes in the codec's encoding. Invalid UTF-8 is an error. */
PGCODEC_API pgcodec_result pgcodec_encode(const pgcodec_codec *codec, const char *utf8,
                                          size_t in_len, char *out, size_t out_cap,
                                          int mode) PGCODEC_NOEXCEPT;

/* Bytes in the codec's encoding -> code units of `form` (pgcodec_unit_form)
 * into out[0, out_units) (suitably aligned), storing no code point above
 * `limit` (clamped to U+007F..the form's maximum): a character above it
 * stops the conversion with PGCODEC_WIDER. The same characters, errors and
 * offsets (in input bytes) as pgcodec_decode (final != 0) or
 * pgcodec_decode_partial (final == 0); `written` counts units. in_len units
 * always suffice. */
PGCODEC_API pgcodec_result pgcodec_decode_units(const pgcodec_codec *codec, const char *in,
                                                size_t in_len, void *out, size_t out_units,
                                                int form, unsigned long limit, int mode,
                                                int final) PGCODEC_NOEXCEPT;
/* Code units of `form` -> bytes in the codec's encoding, as pgcodec_encode
 * converts the text's UTF-8; `consumed`, error_offset and error_skip count
 * units, error_bytes quote the UTF-8. A lone surrogate is the invalid UTF-8
 * PostgreSQL would receive for it (ED A0 80 for U+D800); replace mode writes
 * one '?' for it. final == 0: a chunk of a longer text (what the next chunk
 * could change is held back, as by the encoding stream). */
PGCODEC_API pgcodec_result pgcodec_encode_units(const pgcodec_codec *codec, const void *in,
                                                size_t in_units, int form, char *out,
                                                size_t out_cap, int mode,
                                                int final) PGCODEC_NOEXCEPT;

/* Output sizes that always suffice for n input bytes, in either mode, into
 * *out. 0 on success; -1 if the size does not fit in size_t (or codec or out
 * is NULL). */
PGCODEC_API int pgcodec_max_decoded_size(const pgcodec_codec *codec, size_t n,
                                         size_t *out) PGCODEC_NOEXCEPT;
PGCODEC_API int pgcodec_max_encoded_size(const pgcodec_codec *codec, size_t n,
                                         size_t *out) PGCODEC_NOEXCEPT;
/* Bytes that always suffice for pgcodec_encode_units of `units` units of
 * `form`, in either mode (Codec::max_encoded_units_size: at most one
 * character or '?' a unit); -1 also for an unknown form. */
PGCODEC_API int pgcodec_max_encoded_units_size(const pgcodec_codec *codec, size_t units, int form,
                                               size_t *out) PGCODEC_NOEXCEPT;

/* PostgreSQL's mblen: the length of the character starting at s[at], as its
 * lead byte says, capped at what is left of s (0 when at >= len). Use it to
 * step over characters in encodings whose trail bytes look like ASCII. */
PGCODEC_API size_t pgcodec_char_length(const pgcodec_codec *codec, const char *s, size_t len,
                                       size_t at) PGCODEC_NOEXCEPT;

/* --- Errors ------------------------------------------------------------- */

/* PostgreSQL's message for the result's error, e.g.
 *   invalid byte sequence for encoding "UTF8": 0xc3 0x28
 * written to buf NUL-terminated and truncated to cap bytes (nothing written if
 * cap is 0). Returns the message's full length, as snprintf does; 0 (and "")
 * if the result holds no error. */
PGCODEC_API size_t pgcodec_error_message(const pgcodec_result *result, char *buf,
                                         size_t cap) PGCODEC_NOEXCEPT;
/* "22021" or "22P05"; NULL if the result holds no error. */
PGCODEC_API const char *pgcodec_error_sqlstate(const pgcodec_result *result) PGCODEC_NOEXCEPT;

/* --- Streams: decoding and encoding chunk by chunk ---------------------- */

/* Converts input arriving in chunks: what the end of a chunk leaves
 * undecided (a character split across chunks; when encoding, also the
 * characters a combined pair could still take) is carried over, and the
 * output equals one-shot conversion of the concatenation, for any chunking.
 * One type for both directions, chosen when the stream is created; the
 * functions after the two constructors serve both. */
typedef struct pgcodec_stream pgcodec_stream; /* opaque */

/* A decoding stream: bytes in the codec's encoding -> UTF-8 (as
 * pgcodec_decode). NULL if out of memory, codec is NULL or mode unknown.
 * Free with pgcodec_stream_free. */
PGCODEC_API pgcodec_stream *pgcodec_stream_new(const pgcodec_codec *codec,
                                               int mode) PGCODEC_NOEXCEPT;
/* An encoding stream: UTF-8 -> bytes in the codec's encoding (as
 * pgcodec_encode), e.g. the data of COPY ... FROM STDIN. NULL as above. */
PGCODEC_API pgcodec_stream *pgcodec_stream_encoder_new(const pgcodec_codec *codec,
                                                       int mode) PGCODEC_NOEXCEPT;
PGCODEC_API void pgcodec_stream_free(pgcodec_stream *stream) PGCODEC_NOEXCEPT; /* NULL is fine */
/* Converts what can be decided of (carried bytes + chunk) into out, which
 * must hold pgcodec_stream_output_bound(stream, len) bytes. `consumed`
 * counts the chunk's bytes taken (converted or carried); error offsets count
 * from the start of the stream. After an error the stream stays failed:
 * every later call returns that same error.
 * An encoding stream carries a few bytes at most (a cut-off character and
 * the two characters a combined pair could still take); should it ever
 * need more than 32, feed allocates, and should that fail it returns
 * PGCODEC_OUTPUT_FULL with `consumed` < len:
 * nothing is lost, and chunk + consumed can be fed again (as after a too
 * small out). */
PGCODEC_API pgcodec_result pgcodec_stream_feed(pgcodec_stream *stream, const char *chunk,
                                               size_t len, char *out,
                                               size_t out_cap) PGCODEC_NOEXCEPT;
/* Ends the stream: carried bytes left over are converted as the end of the
 * input (decoding: a truncated character, an invalid byte sequence, U+FFFD
 * in replace mode; encoding: the held-back characters). out needs
 * pgcodec_stream_output_bound(stream, 0) bytes. */
PGCODEC_API pgcodec_result pgcodec_stream_finish(pgcodec_stream *stream, char *out,
                                                 size_t out_cap) PGCODEC_NOEXCEPT;
/* Output space pgcodec_stream_feed may need for a chunk of n bytes, into
 * *out. 0 on success, -1 on overflow (or NULL stream or out). */
PGCODEC_API int pgcodec_stream_output_bound(const pgcodec_stream *stream, size_t n,
                                            size_t *out) PGCODEC_NOEXCEPT;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PGCODEC_PGCODEC_H */
