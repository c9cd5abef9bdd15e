// PostgreSQL's encodings: ids, names and aliases. Numbering and name rules
// follow PostgreSQL exactly (src/include/mb/pg_wchar.h and
// src/common/encnames.c in its sources).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "pgcodec/export.h"

namespace pgcodec {

// Values are PostgreSQL's `pg_enc` numbers; they appear on the wire and in
// pg_database.encoding, so they must never be renumbered.
enum class Encoding : std::uint8_t {
  SQL_ASCII = 0,
  EUC_JP = 1,
  EUC_CN = 2,
  EUC_KR = 3,
  EUC_TW = 4,
  EUC_JIS_2004 = 5,
  UTF8 = 6,
  MULE_INTERNAL = 7,
  LATIN1 = 8,
  LATIN2 = 9,
  LATIN3 = 10,
  LATIN4 = 11,
  LATIN5 = 12,
  LATIN6 = 13,
  LATIN7 = 14,
  LATIN8 = 15,
  LATIN9 = 16,
  LATIN10 = 17,
  WIN1256 = 18,
  WIN1258 = 19,
  WIN866 = 20,
  WIN874 = 21,
  KOI8R = 22,
  WIN1251 = 23,
  WIN1252 = 24,
  ISO_8859_5 = 25,
  ISO_8859_6 = 26,
  ISO_8859_7 = 27,
  ISO_8859_8 = 28,
  WIN1250 = 29,
  WIN1253 = 30,
  WIN1254 = 31,
  WIN1255 = 32,
  WIN1257 = 33,
  KOI8U = 34,
  // Everything from here on is client-only (PG_ENCODING_BE_LAST == KOI8U).
  SJIS = 35,
  BIG5 = 36,
  GBK = 37,
  UHC = 38,
  GB18030 = 39,
  JOHAB = 40,
  SHIFT_JIS_2004 = 41,
};

inline constexpr int encoding_count = 42;

constexpr int to_int(Encoding e) noexcept { return static_cast<int>(e); }

}  // namespace pgcodec

namespace pgcodec {

// Everything the registry knows about one encoding.
struct EncodingInfo {
  Encoding id;
  std::string_view name;         // PostgreSQL's canonical name, e.g. "SJIS"
  bool server;                   // may be a server (database) encoding
  int max_char_length;           // bytes per character at most
  std::span<const std::string_view> aliases;  // normalised, as pg_encname_tbl
};

// All 42 encodings, indexed by id.
PGCODEC_API std::span<const EncodingInfo> encodings() noexcept;
PGCODEC_API const EncodingInfo& info(Encoding e) noexcept;

// One row of PostgreSQL's alias table: a normalised name and its encoding.
struct Alias {
  std::string_view name;
  Encoding encoding;
};
// PostgreSQL's alias table, sorted by name as the server keeps it.
PGCODEC_API std::span<const Alias> aliases() noexcept;

// PostgreSQL's name rule (pg_char_to_encoding): names of NAMEDATALEN (64)
// bytes or more are unknown; otherwise drop every byte that is not an ASCII
// letter or digit, lowercase, and look the result up in the alias table.
// "Shift-JIS", "shift_jis" and "S.J.I.S" all resolve to SJIS.
PGCODEC_API std::optional<Encoding> lookup(std::string_view name) noexcept;

// The normalised key PostgreSQL looks up for `name`.
PGCODEC_API std::string normalize_name(std::string_view name);

}  // namespace pgcodec
