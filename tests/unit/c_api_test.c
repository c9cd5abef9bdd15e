/* The C API (include/pgcodec/pgcodec.h), used from C as a driver would:
 * lookup, one-shot conversion, errors and their messages, replace mode,
 * output full, size overflow, char_length, and streaming both ways across
 * every chunk split. Exits nonzero, naming each failed check. */
#include "pgcodec/pgcodec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                       \
  do {                                                                    \
    if (!(cond)) {                                                        \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                         \
    }                                                                     \
  } while (0)

#define CHECK_STR(got, want)                                                            \
  do {                                                                                  \
    const char *g_ = (got), *w_ = (want);                                               \
    if (!g_ || strcmp(g_, w_) != 0) {                                                   \
      fprintf(stderr, "%s:%d: check failed: %s\n  got:  %s\n  want: %s\n", __FILE__,  \
              __LINE__, #got, g_ ? g_ : "(null)", w_);                                  \
      ++failures;                                                                       \
    }                                                                                   \
  } while (0)

/* Output bytes equal `want` (want_len bytes). */
static int same_bytes(const char *got, size_t got_len, const char *want, size_t want_len) {
  return got_len == want_len && memcmp(got, want, want_len) == 0;
}

static const pgcodec_codec *must_find(const char *name) {
  const pgcodec_codec *c = pgcodec_find(name);
  if (!c) {
    fprintf(stderr, "pgcodec_find(\"%s\") returned NULL\n", name);
    exit(1);
  }
  return c;
}

static void test_lookup(void) {
  const pgcodec_codec *sjis = pgcodec_find("Shift-JIS");
  CHECK(sjis != NULL);
  CHECK(pgcodec_id(sjis) == 35);
  CHECK_STR(pgcodec_name(sjis), "SJIS");
  CHECK(pgcodec_find("shift_jis") == sjis);
  CHECK(pgcodec_find("S.J.I.S") == sjis);
  CHECK(pgcodec_find("mskanji") == sjis);
  CHECK(pgcodec_by_id(35) == sjis);

  CHECK(pgcodec_id(pgcodec_find("utf-8")) == 6);
  CHECK(pgcodec_find("Unicode") == pgcodec_by_id(6));
  CHECK_STR(pgcodec_name(pgcodec_find("windows-1252")), "WIN1252");
  CHECK(pgcodec_id(pgcodec_find("WIN1252")) == 24);

  CHECK(pgcodec_find("no-such-encoding") == NULL);
  CHECK(pgcodec_find("") == NULL);
  CHECK(pgcodec_find(NULL) == NULL);
  CHECK(pgcodec_by_id(-1) == NULL);
  CHECK(pgcodec_by_id(42) == NULL);

  /* Ids 0.. until NULL enumerate all 42 encodings, each with its own id. */
  {
    int n = 0;
    while (pgcodec_by_id(n)) {
      CHECK(pgcodec_id(pgcodec_by_id(n)) == n);
      CHECK(pgcodec_find(pgcodec_name(pgcodec_by_id(n))) == pgcodec_by_id(n));
      ++n;
    }
    CHECK(n == 42);
  }

  /* Every codec converts. */
  {
    char out[16];
    pgcodec_result r = pgcodec_decode(sjis, "abc", 3, out, sizeof out, PGCODEC_STRICT);
    CHECK(r.status == PGCODEC_OK && r.written == 3);
  }

  CHECK(pgcodec_id(NULL) == -1);
  CHECK(pgcodec_name(NULL) == NULL);
}

static void test_win1252(void) {
  const pgcodec_codec *c = must_find("WIN1252");
  const char in[] = "caf\xe9 \x80 5";              /* "café € 5" */
  const char utf8[] = "caf\xc3\xa9 \xe2\x82\xac 5";
  char out[64];
  size_t cap = 0;
  pgcodec_result r;

  CHECK(pgcodec_max_decoded_size(c, sizeof in - 1, &cap) == 0);
  CHECK(cap >= sizeof utf8 - 1 && cap <= sizeof out);
  r = pgcodec_decode(c, in, sizeof in - 1, out, cap, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OK);
  CHECK(r.consumed == sizeof in - 1);
  CHECK(same_bytes(out, r.written, utf8, sizeof utf8 - 1));
  CHECK(pgcodec_error_sqlstate(&r) == NULL);
  CHECK(pgcodec_error_message(&r, out, sizeof out) == 0 && out[0] == '\0');

  CHECK(pgcodec_max_encoded_size(c, sizeof utf8 - 1, &cap) == 0);
  CHECK(cap >= sizeof in - 1 && cap <= sizeof out);
  r = pgcodec_encode(c, utf8, sizeof utf8 - 1, out, cap, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OK);
  CHECK(r.consumed == sizeof utf8 - 1);
  CHECK(same_bytes(out, r.written, in, sizeof in - 1));

  /* 0x81 is unassigned in WIN1252: no equivalent in UTF8. */
  {
    char msg[200];
    r = pgcodec_decode(c, "ab\x81z", 4, out, sizeof out, PGCODEC_STRICT);
    CHECK(r.status == PGCODEC_ERROR);
    CHECK(r.error_kind == PGCODEC_NO_EQUIVALENT);
    CHECK(r.error_offset == 2 && r.consumed == 2 && r.written == 2);
    CHECK(r.error_encoding == 24 && r.error_target == 6);
    pgcodec_error_message(&r, msg, sizeof msg);
    CHECK_STR(msg, "character with byte sequence 0x81 in encoding \"WIN1252\" has no "
                   "equivalent in encoding \"UTF8\"");
    CHECK_STR(pgcodec_error_sqlstate(&r), "22P05");
  }
}

static void test_utf8_and_errors(void) {
  const pgcodec_codec *c = must_find("UTF8");
  const char text[] = "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80!";
  char out[64];
  char msg[128];
  size_t n;
  pgcodec_result r;

  r = pgcodec_decode(c, text, sizeof text - 1, out, sizeof out, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OK);
  CHECK(same_bytes(out, r.written, text, sizeof text - 1));
  r = pgcodec_encode(c, text, sizeof text - 1, out, sizeof out, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OK);
  CHECK(same_bytes(out, r.written, text, sizeof text - 1));

  /* Empty input, even with NULL pointers. */
  r = pgcodec_decode(c, NULL, 0, NULL, 0, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OK && r.consumed == 0 && r.written == 0);

  /* An invalid sequence: PostgreSQL's message, offset and bytes. */
  r = pgcodec_decode(c, "ab\xc3\x28z", 5, out, sizeof out, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_ERROR);
  CHECK(r.error_kind == PGCODEC_INVALID_BYTE_SEQUENCE);
  CHECK(r.error_offset == 2);
  CHECK(r.consumed == 2 && r.written == 2 && memcmp(out, "ab", 2) == 0);
  CHECK(r.error_length == 2 && r.error_bytes[0] == 0xc3 && r.error_bytes[1] == 0x28);
  CHECK(r.error_skip == 1);
  CHECK(r.error_encoding == 6);
  n = pgcodec_error_message(&r, msg, sizeof msg);
  CHECK_STR(msg, "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28");
  CHECK(n == strlen("invalid byte sequence for encoding \"UTF8\": 0xc3 0x28"));
  CHECK_STR(pgcodec_error_sqlstate(&r), "22021");

  /* Truncation, as snprintf: full length returned, NUL-terminated prefix. */
  {
    char small[11];
    memset(small, 'X', sizeof small);
    CHECK(pgcodec_error_message(&r, small, 10) == n);
    CHECK_STR(small, "invalid b");
    CHECK(small[10] == 'X');
    CHECK(pgcodec_error_message(&r, NULL, 0) == n);
    small[0] = 'X';
    CHECK(pgcodec_error_message(&r, small, 0) == n && small[0] == 'X');
    CHECK(pgcodec_error_message(&r, small, 1) == n && small[0] == '\0');
  }

  /* A character cut off by the end of the input. */
  r = pgcodec_decode(c, "ab\xe2\x82", 4, out, sizeof out, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_ERROR && r.error_offset == 2);
  pgcodec_error_message(&r, msg, sizeof msg);
  CHECK_STR(msg, "invalid byte sequence for encoding \"UTF8\": 0xe2 0x82");
  /* ... which decode_partial leaves for the next chunk. */
  r = pgcodec_decode_partial(c, "ab\xe2\x82", 4, out, sizeof out, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OK && r.consumed == 2 && r.written == 2);

  /* Encoding to LATIN1: the euro sign has no equivalent. */
  r = pgcodec_encode(must_find("latin1"), "x\xe2\x82\xac", 4, out, sizeof out, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_ERROR && r.error_kind == PGCODEC_NO_EQUIVALENT);
  CHECK(r.error_offset == 1 && r.error_skip == 3);
  pgcodec_error_message(&r, msg, sizeof msg);
  CHECK_STR(msg, "character with byte sequence 0xe2 0x82 0xac in encoding \"UTF8\" has no "
                 "equivalent in encoding \"LATIN1\"");
  CHECK_STR(pgcodec_error_sqlstate(&r), "22P05");

  /* Bad arguments are reported, not crashed on. */
  r = pgcodec_decode(NULL, "a", 1, out, sizeof out, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_INVALID_ARGUMENT);
  r = pgcodec_decode(c, "a", 1, out, sizeof out, 7);
  CHECK(r.status == PGCODEC_INVALID_ARGUMENT);
  r = pgcodec_encode(c, NULL, 1, out, sizeof out, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_INVALID_ARGUMENT);
  r = pgcodec_decode(c, "a", 1, NULL, 1, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_INVALID_ARGUMENT);
  CHECK(pgcodec_error_message(&r, msg, sizeof msg) == 0 && msg[0] == '\0');
  CHECK(pgcodec_error_sqlstate(&r) == NULL);
  CHECK(pgcodec_error_sqlstate(NULL) == NULL);
}

static void test_replace(void) {
  char out[64];
  pgcodec_result r;

  r = pgcodec_decode(must_find("UTF8"), "a\xff" "b", 3, out, sizeof out, PGCODEC_REPLACE);
  CHECK(r.status == PGCODEC_OK && r.consumed == 3);
  CHECK(same_bytes(out, r.written, "a\xef\xbf\xbd" "b", 5));

  r = pgcodec_decode(must_find("WIN1252"), "a\x81" "b", 3, out, sizeof out, PGCODEC_REPLACE);
  CHECK(r.status == PGCODEC_OK);
  CHECK(same_bytes(out, r.written, "a\xef\xbf\xbd" "b", 5));

  r = pgcodec_encode(must_find("LATIN1"), "1\xe2\x82\xac" "2", 5, out, sizeof out,
                     PGCODEC_REPLACE);
  CHECK(r.status == PGCODEC_OK && r.consumed == 5);
  CHECK(same_bytes(out, r.written, "1?2", 3));
}

static void test_output_full(void) {
  const pgcodec_codec *c = must_find("WIN1252");
  char out[8];
  pgcodec_result r;

  r = pgcodec_decode(c, "hello", 5, out, 3, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OUTPUT_FULL);
  CHECK(r.consumed == 3 && r.written == 3 && memcmp(out, "hel", 3) == 0);
  /* A 3-byte character does not fit in 2 bytes of space: nothing is split. */
  r = pgcodec_decode(c, "a\x80", 2, out, 3, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OUTPUT_FULL && r.consumed == 1 && r.written == 1);
  r = pgcodec_encode(c, "hello", 5, out, 0, PGCODEC_STRICT);
  CHECK(r.status == PGCODEC_OUTPUT_FULL && r.consumed == 0 && r.written == 0);
}

static void test_sizes(void) {
  const pgcodec_codec *c = must_find("UTF8");
  size_t n = 12345;
  CHECK(pgcodec_max_decoded_size(c, 10, &n) == 0 && n >= 10);
  CHECK(pgcodec_max_encoded_size(c, 10, &n) == 0 && n >= 10);
  n = 12345;
  CHECK(pgcodec_max_decoded_size(c, SIZE_MAX, &n) == -1);
  CHECK(pgcodec_max_encoded_size(c, SIZE_MAX, &n) == -1);
  CHECK(pgcodec_max_decoded_size(must_find("LATIN1"), SIZE_MAX / 2, &n) == -1);
  CHECK(n == 12345); /* untouched on failure */
  CHECK(pgcodec_max_decoded_size(NULL, 1, &n) == -1);
  CHECK(pgcodec_max_decoded_size(c, 1, NULL) == -1);
  /* Code units: one byte a unit into LATIN1, four into GB18030, the UTF-8 of the form into UTF8. */
  CHECK(pgcodec_max_encoded_units_size(must_find("LATIN1"), 10, PGCODEC_LATIN1, &n) == 0 && n == 10);
  CHECK(pgcodec_max_encoded_units_size(must_find("GB18030"), 10, PGCODEC_LATIN1, &n) == 0 && n == 40);
  CHECK(pgcodec_max_encoded_units_size(c, 10, PGCODEC_UTF32, &n) == 0 && n == 40);
  CHECK(pgcodec_max_encoded_units_size(c, SIZE_MAX, PGCODEC_UCS2, &n) == -1);
  CHECK(pgcodec_max_encoded_units_size(c, 1, 99, &n) == -1);
}

static void test_char_length(void) {
  const pgcodec_codec *u = must_find("UTF8");
  const char s[] = "h\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
  const size_t len = sizeof s - 1;
  CHECK(pgcodec_char_length(u, s, len, 0) == 1);
  CHECK(pgcodec_char_length(u, s, len, 1) == 2);
  CHECK(pgcodec_char_length(u, s, len, 3) == 3);
  CHECK(pgcodec_char_length(u, s, len, 6) == 4);
  CHECK(pgcodec_char_length(u, s, len, len) == 0);
  CHECK(pgcodec_char_length(u, s, len, len + 5) == 0);
  CHECK(pgcodec_char_length(u, s, 8, 6) == 2); /* capped at what is left */
  CHECK(pgcodec_char_length(must_find("LATIN1"), "\xe9\xe9", 2, 0) == 1);
  CHECK(pgcodec_char_length(NULL, s, len, 0) == 0);
}

/* Converts `in` through a stream (decoding, or encoding if `encode`) in
 * chunks of `chunk` bytes (the first chunk `first` bytes), as a driver
 * would; stops at the first error. */
static pgcodec_result stream_convert(int encode, const pgcodec_codec *c, int mode, const char *in,
                                     size_t len, size_t first, size_t chunk, char *out,
                                     size_t out_cap, size_t *out_len) {
  pgcodec_stream *s = encode ? pgcodec_stream_encoder_new(c, mode) : pgcodec_stream_new(c, mode);
  pgcodec_result r;
  size_t pos = 0, w = 0, step = first;
  memset(&r, 0, sizeof r);
  if (!s) {
    fprintf(stderr, "pgcodec_stream_new failed\n");
    exit(1);
  }
  while (pos < len) {
    size_t need = 0;
    if (step > len - pos) step = len - pos;
    CHECK(pgcodec_stream_output_bound(s, step, &need) == 0);
    CHECK(need <= out_cap - w);
    r = pgcodec_stream_feed(s, in + pos, step, out + w, need);
    w += r.written;
    if (r.status != PGCODEC_OK) break;
    CHECK(r.consumed == step);
    pos += step;
    step = chunk;
  }
  if (r.status == PGCODEC_OK) {
    size_t need = 0;
    CHECK(pgcodec_stream_output_bound(s, 0, &need) == 0);
    CHECK(need <= out_cap - w);
    r = pgcodec_stream_finish(s, out + w, need);
    w += r.written;
  }
  if (r.status == PGCODEC_ERROR) {
    /* A failed stream repeats its error. */
    pgcodec_result again = pgcodec_stream_feed(s, "x", 1, out + w, out_cap - w);
    CHECK(again.status == PGCODEC_ERROR && again.error_offset == r.error_offset &&
          again.written == 0);
  }
  pgcodec_stream_free(s);
  *out_len = w;
  return r;
}

static pgcodec_result stream_decode(const pgcodec_codec *c, int mode, const char *in, size_t len,
                                    size_t first, size_t chunk, char *out, size_t out_cap,
                                    size_t *out_len) {
  return stream_convert(0, c, mode, in, len, first, chunk, out, out_cap, out_len);
}

/* Every chunking of `in` (first chunk 0..len bytes, then 1..len) converts
 * as pgcodec_decode (or, if `encode`, pgcodec_encode) converts it in one go:
 * status, bytes, error offset and message. */
static void check_stream_way_equals_one_shot(int encode, const char *what,
                                             const pgcodec_codec *c, int mode, const char *in,
                                             size_t len) {
  char want[256], got[256], want_msg[128], got_msg[128];
  size_t got_len = 0, first, chunk;
  pgcodec_result one = encode ? pgcodec_encode(c, in, len, want, sizeof want, mode)
                              : pgcodec_decode(c, in, len, want, sizeof want, mode);
  CHECK(one.status == PGCODEC_OK || one.status == PGCODEC_ERROR);
  pgcodec_error_message(&one, want_msg, sizeof want_msg);
  for (chunk = 1; chunk <= len; ++chunk) {
    for (first = 0; first <= len; ++first) {
      pgcodec_result r =
          stream_convert(encode, c, mode, in, len, first, chunk, got, sizeof got, &got_len);
      pgcodec_error_message(&r, got_msg, sizeof got_msg);
      if (r.status != one.status || !same_bytes(got, got_len, want, one.written) ||
          r.error_offset != one.error_offset || strcmp(got_msg, want_msg) != 0) {
        fprintf(stderr,
                "stream != one-shot for %s (first chunk %zu, then %zu): status %d vs %d, "
                "%zu vs %zu bytes, message \"%s\" vs \"%s\"\n",
                what, first, chunk, r.status, one.status, got_len, one.written, got_msg,
                want_msg);
        ++failures;
        return;
      }
    }
  }
}

static void check_stream_equals_one_shot(const char *what, const pgcodec_codec *c, int mode,
                                         const char *in, size_t len) {
  check_stream_way_equals_one_shot(0, what, c, mode, in, len);
}

static void test_stream(void) {
  const pgcodec_codec *u = must_find("UTF8");
  const char text[] = "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80!";
  const char bad[] = "ab\xe2\x82\xac\xc3\x28z\xf0\x9f\x98\x80";
  const char cut[] = "ab\xe2\x82\xac\xf0\x9f\x98";
  const char win[] = "caf\xe9 \x80\x81!";

  check_stream_equals_one_shot("UTF8 text", u, PGCODEC_STRICT, text, sizeof text - 1);
  check_stream_equals_one_shot("UTF8 invalid", u, PGCODEC_STRICT, bad, sizeof bad - 1);
  check_stream_equals_one_shot("UTF8 truncated", u, PGCODEC_STRICT, cut, sizeof cut - 1);
  check_stream_equals_one_shot("UTF8 invalid, replace", u, PGCODEC_REPLACE, bad, sizeof bad - 1);
  check_stream_equals_one_shot("UTF8 truncated, replace", u, PGCODEC_REPLACE, cut,
                               sizeof cut - 1);
  check_stream_equals_one_shot("WIN1252 replace", must_find("WIN1252"), PGCODEC_REPLACE, win,
                               sizeof win - 1);
  check_stream_equals_one_shot("WIN1252 strict", must_find("WIN1252"), PGCODEC_STRICT, win,
                               sizeof win - 1);

  /* The truncated character's error counts from the stream's start. */
  {
    char out[64];
    size_t n = 0;
    pgcodec_result r = stream_decode(u, PGCODEC_STRICT, cut, sizeof cut - 1, 6, 1, out,
                                     sizeof out, &n);
    CHECK(r.status == PGCODEC_ERROR && r.error_offset == 5);
    CHECK(same_bytes(out, n, "ab\xe2\x82\xac", 5));
  }

  /* Bounds and arguments. */
  {
    pgcodec_stream *s = pgcodec_stream_new(u, PGCODEC_STRICT);
    size_t need = 0;
    char out[16];
    pgcodec_result r;
    CHECK(s != NULL);
    r = pgcodec_stream_feed(s, "\xe2\x82", 2, out, sizeof out); /* carries 2 bytes */
    CHECK(r.status == PGCODEC_OK && r.consumed == 2 && r.written == 0);
    CHECK(pgcodec_stream_output_bound(s, SIZE_MAX, &need) == -1);
    CHECK(pgcodec_stream_output_bound(s, SIZE_MAX - 1, &need) == -1);
    CHECK(pgcodec_stream_output_bound(s, 1, &need) == 0 && need >= 3);
    r = pgcodec_stream_feed(s, NULL, 1, out, sizeof out);
    CHECK(r.status == PGCODEC_INVALID_ARGUMENT);
    r = pgcodec_stream_feed(s, "\xac", 1, out, sizeof out);
    CHECK(r.status == PGCODEC_OK && same_bytes(out, r.written, "\xe2\x82\xac", 3));
    r = pgcodec_stream_finish(s, out, sizeof out);
    CHECK(r.status == PGCODEC_OK && r.written == 0);
    pgcodec_stream_free(s);
  }
  CHECK(pgcodec_stream_new(NULL, PGCODEC_STRICT) == NULL);
  CHECK(pgcodec_stream_new(u, 9) == NULL);
  pgcodec_stream_free(NULL);
  CHECK(pgcodec_stream_feed(NULL, "a", 1, NULL, 0).status == PGCODEC_INVALID_ARGUMENT);
  CHECK(pgcodec_stream_finish(NULL, NULL, 0).status == PGCODEC_INVALID_ARGUMENT);
  {
    size_t need = 0;
    CHECK(pgcodec_stream_output_bound(NULL, 1, &need) == -1);
  }
}

/* The encoding stream (pgcodec_stream_encoder_new): the same functions,
 * UTF-8 in. */
static void test_stream_encoder(void) {
  const pgcodec_codec *sj = must_find("SHIFT_JIS_2004");
  const pgcodec_codec *l1 = must_find("LATIN1");
  /* U+304B U+309A is one code in SHIFT_JIS_2004, 0x82 0xf5: split anywhere. */
  const char pair[] = "a\xe3\x81\x8b\xe3\x82\x9a\xe3\x81\x8b!";
  const char text[] = "caf\xc3\xa9 \xe2\x82\xac \xe3\x81\x8b\xe3\x82\x9a x";
  const char bad[] = "ab\xc3\xa9\xc3\x28z";
  const char cut[] = "ab\xc3\xa9\xe2\x82";
  char tones[2 * 40 + 2]; /* 40 alternating tone letters: longer than the inline carry */
  size_t i;
  for (i = 0; i < 40; ++i) {
    tones[2 * i] = '\xcb';
    tones[2 * i + 1] = (char)(i % 2 ? 0xa9 : 0xa5);
  }
  tones[80] = 'z';
  tones[81] = '\0';

  check_stream_way_equals_one_shot(1, "SHIFT_JIS_2004 pair", sj, PGCODEC_STRICT, pair,
                                   sizeof pair - 1);
  check_stream_way_equals_one_shot(1, "SHIFT_JIS_2004 tones", sj, PGCODEC_STRICT, tones, 81);
  check_stream_way_equals_one_shot(1, "SHIFT_JIS_2004 tones, no end", sj, PGCODEC_STRICT, tones,
                                   80);
  check_stream_way_equals_one_shot(1, "LATIN1 text (no euro)", l1, PGCODEC_STRICT, text,
                                   sizeof text - 1);
  check_stream_way_equals_one_shot(1, "LATIN1 text, replace", l1, PGCODEC_REPLACE, text,
                                   sizeof text - 1);
  check_stream_way_equals_one_shot(1, "SHIFT_JIS_2004 invalid", sj, PGCODEC_STRICT, bad,
                                   sizeof bad - 1);
  check_stream_way_equals_one_shot(1, "SHIFT_JIS_2004 truncated", sj, PGCODEC_STRICT, cut,
                                   sizeof cut - 1);
  check_stream_way_equals_one_shot(1, "SHIFT_JIS_2004 truncated, replace", sj, PGCODEC_REPLACE,
                                   cut, sizeof cut - 1);

  {
    pgcodec_stream *s = pgcodec_stream_encoder_new(sj, PGCODEC_STRICT);
    size_t need = 0, w;
    char out[16];
    pgcodec_result r;
    CHECK(s != NULL);
    /* U+304B may still pair with what follows: held back. */
    r = pgcodec_stream_feed(s, "\xe3\x81\x8b", 3, out, sizeof out);
    CHECK(r.status == PGCODEC_OK && r.consumed == 3 && r.written == 0);
    CHECK(pgcodec_stream_output_bound(s, 3, &need) == 0 && need >= 2);
    r = pgcodec_stream_feed(s, "\xe3\x82\x9a", 3, out, sizeof out);
    CHECK(r.status == PGCODEC_OK && r.consumed == 3);
    w = r.written;
    r = pgcodec_stream_finish(s, out + w, sizeof out - w);
    CHECK(r.status == PGCODEC_OK && same_bytes(out, w + r.written, "\x82\xf5", 2));
    pgcodec_stream_free(s);
  }
  {
    /* An error counts from the stream's start, and stays. */
    pgcodec_stream *s = pgcodec_stream_encoder_new(l1, PGCODEC_STRICT);
    char out[16], msg[128];
    pgcodec_result r;
    CHECK(s != NULL);
    r = pgcodec_stream_feed(s, "abc", 3, out, sizeof out);
    CHECK(r.status == PGCODEC_OK && same_bytes(out, r.written, "abc", 3));
    r = pgcodec_stream_feed(s, "d\xe2\x82", 3, out, sizeof out);
    CHECK(r.status == PGCODEC_OK && same_bytes(out, r.written, "d", 1));
    r = pgcodec_stream_feed(s, "\xac", 1, out, sizeof out);
    CHECK(r.status == PGCODEC_ERROR && r.error_offset == 4 && r.error_kind == PGCODEC_NO_EQUIVALENT);
    pgcodec_error_message(&r, msg, sizeof msg);
    CHECK_STR(msg, "character with byte sequence 0xe2 0x82 0xac in encoding \"UTF8\" has no "
                   "equivalent in encoding \"LATIN1\"");
    CHECK_STR(pgcodec_error_sqlstate(&r), "22P05");
    r = pgcodec_stream_finish(s, out, sizeof out);
    CHECK(r.status == PGCODEC_ERROR && r.error_offset == 4);
    pgcodec_stream_free(s);
  }
  CHECK(pgcodec_stream_encoder_new(NULL, PGCODEC_STRICT) == NULL);
  CHECK(pgcodec_stream_encoder_new(sj, 9) == NULL);
}

/* The library's version is the header's, and the macros agree with the
 * string (all three generated from project(VERSION)). */
static void test_version(void) {
  char expected[32];
  CHECK_STR(pgcodec_version(), PGCODEC_VERSION_STRING);
  snprintf(expected, sizeof expected, "%d.%d.%d", PGCODEC_VERSION_MAJOR, PGCODEC_VERSION_MINOR,
           PGCODEC_VERSION_PATCH);
  CHECK_STR(pgcodec_version(), expected);
  CHECK(PGCODEC_VERSION ==
        PGCODEC_VERSION_MAJOR * 10000 + PGCODEC_VERSION_MINOR * 100 + PGCODEC_VERSION_PATCH);
}

int main(void) {
  test_version();
  test_lookup();
  test_win1252();
  test_utf8_and_errors();
  test_replace();
  test_output_full();
  test_sizes();
  test_char_length();
  test_stream();
  test_stream_encoder();
  if (failures) {
    fprintf(stderr, "c_api_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
