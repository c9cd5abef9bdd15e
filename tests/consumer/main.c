/* A C11 program using an installed pgcodec through its C header only, built
 * with exactly the flags the README documents ("Install"; tests/consumer/run_c.cmake):
 *   cc main.c -I<prefix>/include -L<prefix>/lib -lpgcodec -lstdc++ -lm */
#include <pgcodec/pgcodec.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  const pgcodec_codec *c = pgcodec_find("win-1252");
  if (!c || strcmp(pgcodec_name(c), "WIN1252") != 0) {
    puts("c consumer: win-1252 does not resolve to WIN1252");
    return 1;
  }
  char out[64];
  pgcodec_result r = pgcodec_decode(c, "caf\xe9 \x80", 6, out, sizeof out, PGCODEC_STRICT);
  if (r.status != PGCODEC_OK || r.written != 9 || memcmp(out, "caf\xc3\xa9 \xe2\x82\xac", 9) != 0) {
    puts("c consumer: unexpected decoding");
    return 1;
  }
  r = pgcodec_decode(c, "ok\x81", 3, out, sizeof out, PGCODEC_STRICT);
  char msg[128];
  pgcodec_error_message(&r, msg, sizeof msg);
  const char *want =
      "character with byte sequence 0x81 in encoding \"WIN1252\" has no equivalent in encoding \"UTF8\"";
  if (r.status != PGCODEC_ERROR || r.error_offset != 2 || strcmp(msg, want) != 0 ||
      strcmp(pgcodec_error_sqlstate(&r), "22P05") != 0) {
    printf("c consumer: unexpected error: %s\n", msg);
    return 1;
  }
  puts("c consumer: WIN1252 decodes, and 0x81 fails as PostgreSQL says");
  return 0;
}
