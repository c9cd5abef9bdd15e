// names_fuzzer: any bytes as an encoding name (long, embedded NUL,
// non-ASCII). pgcodec::lookup, find_codec and pgcodec_find must resolve it
// exactly as libpq's pg_char_to_encoding() does (PostgreSQL's own rule:
// a C string, under NAMEDATALEN bytes, letters and digits lowercased).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/checks.hpp"
#include "core/text.hpp"
#include "pgcodec/codec.hpp"
#include "pgcodec/pgcodec.h"

extern "C" int pg_char_to_encoding(const char* name);  // exported by libpq

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pgcodec;
  const std::string name(reinterpret_cast<const char*>(data), size);
  const int theirs = pg_char_to_encoding(name.c_str());  // sees the name up to its first NUL
  const auto ours = lookup(name);
  const Codec* found = find_codec(name);
  const pgcodec_codec* c = pgcodec_find(name.c_str());
  const int by_lookup = ours ? to_int(*ours) : -1;
  const int by_find = found ? to_int(found->encoding()) : -1;
  const int by_c = c ? pgcodec_id(c) : -1;
  if (by_lookup != theirs || by_find != theirs || by_c != theirs) {
    std::fprintf(stderr, "names_fuzzer: name %s: libpq %d, lookup %d, find_codec %d, pgcodec_find %d\n",
                 harness::hex_bytes(name).c_str(), theirs, by_lookup, by_find, by_c);
    std::abort();
  }
  // The same rule as the property suites state it (harness/core check_name).
  if (const auto failed = harness::check_name(name)) {
    std::fprintf(stderr, "names_fuzzer: %s\n", failed->c_str());
    std::abort();
  }
  return 0;
}
