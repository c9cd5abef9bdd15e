// The encoding registry. Ids, canonical names, server/client-only status,
// maximum character lengths and the alias table are PostgreSQL 15's
// (pg_enc2name_tbl, pg_wchar_table and pg_encname_tbl); a live test checks all
// of them against a server. The ICU and Python names the harness compares
// against are not facts of the library: harness/oracle/names.cpp.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "pgcodec/encoding.hpp"

namespace pgcodec {
namespace {

using sv = std::string_view;

constexpr sv a_sql_ascii[] = {"sqlascii"};
constexpr sv a_euc_jp[] = {"eucjp"};
constexpr sv a_euc_cn[] = {"euccn"};
constexpr sv a_euc_kr[] = {"euckr"};
constexpr sv a_euc_tw[] = {"euctw"};
constexpr sv a_euc_jis_2004[] = {"eucjis2004"};
constexpr sv a_utf8[] = {"unicode", "utf8"};
constexpr sv a_mule_internal[] = {"muleinternal"};
constexpr sv a_latin1[] = {"iso88591", "latin1"};
constexpr sv a_latin2[] = {"iso88592", "latin2"};
constexpr sv a_latin3[] = {"iso88593", "latin3"};
constexpr sv a_latin4[] = {"iso88594", "latin4"};
constexpr sv a_latin5[] = {"iso88599", "latin5"};
constexpr sv a_latin6[] = {"iso885910", "latin6"};
constexpr sv a_latin7[] = {"iso885913", "latin7"};
constexpr sv a_latin8[] = {"iso885914", "latin8"};
constexpr sv a_latin9[] = {"iso885915", "latin9"};
constexpr sv a_latin10[] = {"iso885916", "latin10"};
constexpr sv a_win1256[] = {"win1256", "windows1256"};
constexpr sv a_win1258[] = {"abc", "tcvn", "tcvn5712", "vscii", "win1258", "windows1258"};
constexpr sv a_win866[] = {"alt", "win866", "windows866"};
constexpr sv a_win874[] = {"win874", "windows874"};
constexpr sv a_koi8r[] = {"koi8", "koi8r"};
constexpr sv a_win1251[] = {"win", "win1251", "windows1251"};
constexpr sv a_win1252[] = {"win1252", "windows1252"};
constexpr sv a_iso_8859_5[] = {"iso88595"};
constexpr sv a_iso_8859_6[] = {"iso88596"};
constexpr sv a_iso_8859_7[] = {"iso88597"};
constexpr sv a_iso_8859_8[] = {"iso88598"};
constexpr sv a_win1250[] = {"win1250", "windows1250"};
constexpr sv a_win1253[] = {"win1253", "windows1253"};
constexpr sv a_win1254[] = {"win1254", "windows1254"};
constexpr sv a_win1255[] = {"win1255", "windows1255"};
constexpr sv a_win1257[] = {"win1257", "windows1257"};
constexpr sv a_koi8u[] = {"koi8u"};
constexpr sv a_sjis[] = {"mskanji", "shiftjis", "sjis", "win932", "windows932"};
constexpr sv a_big5[] = {"big5", "win950", "windows950"};
constexpr sv a_gbk[] = {"gbk", "win936", "windows936"};
constexpr sv a_uhc[] = {"uhc", "win949", "windows949"};
constexpr sv a_gb18030[] = {"gb18030"};
constexpr sv a_johab[] = {"johab"};
constexpr sv a_shift_jis_2004[] = {"shiftjis2004"};

constexpr std::array<EncodingInfo, encoding_count> kEncodings{{
    {Encoding::SQL_ASCII, "SQL_ASCII", true, 1, a_sql_ascii},
    {Encoding::EUC_JP, "EUC_JP", true, 3, a_euc_jp},
    {Encoding::EUC_CN, "EUC_CN", true, 3, a_euc_cn},
    {Encoding::EUC_KR, "EUC_KR", true, 3, a_euc_kr},
    {Encoding::EUC_TW, "EUC_TW", true, 4, a_euc_tw},
    {Encoding::EUC_JIS_2004, "EUC_JIS_2004", true, 3, a_euc_jis_2004},
    {Encoding::UTF8, "UTF8", true, 4, a_utf8},
    {Encoding::MULE_INTERNAL, "MULE_INTERNAL", true, 4, a_mule_internal},
    {Encoding::LATIN1, "LATIN1", true, 1, a_latin1},
    {Encoding::LATIN2, "LATIN2", true, 1, a_latin2},
    {Encoding::LATIN3, "LATIN3", true, 1, a_latin3},
    {Encoding::LATIN4, "LATIN4", true, 1, a_latin4},
    {Encoding::LATIN5, "LATIN5", true, 1, a_latin5},
    {Encoding::LATIN6, "LATIN6", true, 1, a_latin6},
    {Encoding::LATIN7, "LATIN7", true, 1, a_latin7},
    {Encoding::LATIN8, "LATIN8", true, 1, a_latin8},
    {Encoding::LATIN9, "LATIN9", true, 1, a_latin9},
    {Encoding::LATIN10, "LATIN10", true, 1, a_latin10},
    {Encoding::WIN1256, "WIN1256", true, 1, a_win1256},
    {Encoding::WIN1258, "WIN1258", true, 1, a_win1258},
    {Encoding::WIN866, "WIN866", true, 1, a_win866},
    {Encoding::WIN874, "WIN874", true, 1, a_win874},
    {Encoding::KOI8R, "KOI8R", true, 1, a_koi8r},
    {Encoding::WIN1251, "WIN1251", true, 1, a_win1251},
    {Encoding::WIN1252, "WIN1252", true, 1, a_win1252},
    {Encoding::ISO_8859_5, "ISO_8859_5", true, 1, a_iso_8859_5},
    {Encoding::ISO_8859_6, "ISO_8859_6", true, 1, a_iso_8859_6},
    {Encoding::ISO_8859_7, "ISO_8859_7", true, 1, a_iso_8859_7},
    {Encoding::ISO_8859_8, "ISO_8859_8", true, 1, a_iso_8859_8},
    {Encoding::WIN1250, "WIN1250", true, 1, a_win1250},
    {Encoding::WIN1253, "WIN1253", true, 1, a_win1253},
    {Encoding::WIN1254, "WIN1254", true, 1, a_win1254},
    {Encoding::WIN1255, "WIN1255", true, 1, a_win1255},
    {Encoding::WIN1257, "WIN1257", true, 1, a_win1257},
    {Encoding::KOI8U, "KOI8U", true, 1, a_koi8u},
    {Encoding::SJIS, "SJIS", false, 2, a_sjis},
    {Encoding::BIG5, "BIG5", false, 2, a_big5},
    {Encoding::GBK, "GBK", false, 2, a_gbk},
    {Encoding::UHC, "UHC", false, 2, a_uhc},
    {Encoding::GB18030, "GB18030", false, 4, a_gb18030},
    {Encoding::JOHAB, "JOHAB", false, 3, a_johab},
    {Encoding::SHIFT_JIS_2004, "SHIFT_JIS_2004", false, 2, a_shift_jis_2004},
}};

// pg_encname_tbl: 81 rows, sorted by name (the server binary-searches it).
constexpr std::array<Alias, 81> kAliases{{
    {"abc", Encoding::WIN1258},
    {"alt", Encoding::WIN866},
    {"big5", Encoding::BIG5},
    {"euccn", Encoding::EUC_CN},
    {"eucjis2004", Encoding::EUC_JIS_2004},
    {"eucjp", Encoding::EUC_JP},
    {"euckr", Encoding::EUC_KR},
    {"euctw", Encoding::EUC_TW},
    {"gb18030", Encoding::GB18030},
    {"gbk", Encoding::GBK},
    {"iso88591", Encoding::LATIN1},
    {"iso885910", Encoding::LATIN6},
    {"iso885913", Encoding::LATIN7},
    {"iso885914", Encoding::LATIN8},
    {"iso885915", Encoding::LATIN9},
    {"iso885916", Encoding::LATIN10},
    {"iso88592", Encoding::LATIN2},
    {"iso88593", Encoding::LATIN3},
    {"iso88594", Encoding::LATIN4},
    {"iso88595", Encoding::ISO_8859_5},
    {"iso88596", Encoding::ISO_8859_6},
    {"iso88597", Encoding::ISO_8859_7},
    {"iso88598", Encoding::ISO_8859_8},
    {"iso88599", Encoding::LATIN5},
    {"johab", Encoding::JOHAB},
    {"koi8", Encoding::KOI8R},
    {"koi8r", Encoding::KOI8R},
    {"koi8u", Encoding::KOI8U},
    {"latin1", Encoding::LATIN1},
    {"latin10", Encoding::LATIN10},
    {"latin2", Encoding::LATIN2},
    {"latin3", Encoding::LATIN3},
    {"latin4", Encoding::LATIN4},
    {"latin5", Encoding::LATIN5},
    {"latin6", Encoding::LATIN6},
    {"latin7", Encoding::LATIN7},
    {"latin8", Encoding::LATIN8},
    {"latin9", Encoding::LATIN9},
    {"mskanji", Encoding::SJIS},
    {"muleinternal", Encoding::MULE_INTERNAL},
    {"shiftjis", Encoding::SJIS},
    {"shiftjis2004", Encoding::SHIFT_JIS_2004},
    {"sjis", Encoding::SJIS},
    {"sqlascii", Encoding::SQL_ASCII},
    {"tcvn", Encoding::WIN1258},
    {"tcvn5712", Encoding::WIN1258},
    {"uhc", Encoding::UHC},
    {"unicode", Encoding::UTF8},
    {"utf8", Encoding::UTF8},
    {"vscii", Encoding::WIN1258},
    {"win", Encoding::WIN1251},
    {"win1250", Encoding::WIN1250},
    {"win1251", Encoding::WIN1251},
    {"win1252", Encoding::WIN1252},
    {"win1253", Encoding::WIN1253},
    {"win1254", Encoding::WIN1254},
    {"win1255", Encoding::WIN1255},
    {"win1256", Encoding::WIN1256},
    {"win1257", Encoding::WIN1257},
    {"win1258", Encoding::WIN1258},
    {"win866", Encoding::WIN866},
    {"win874", Encoding::WIN874},
    {"win932", Encoding::SJIS},
    {"win936", Encoding::GBK},
    {"win949", Encoding::UHC},
    {"win950", Encoding::BIG5},
    {"windows1250", Encoding::WIN1250},
    {"windows1251", Encoding::WIN1251},
    {"windows1252", Encoding::WIN1252},
    {"windows1253", Encoding::WIN1253},
    {"windows1254", Encoding::WIN1254},
    {"windows1255", Encoding::WIN1255},
    {"windows1256", Encoding::WIN1256},
    {"windows1257", Encoding::WIN1257},
    {"windows1258", Encoding::WIN1258},
    {"windows866", Encoding::WIN866},
    {"windows874", Encoding::WIN874},
    {"windows932", Encoding::SJIS},
    {"windows936", Encoding::GBK},
    {"windows949", Encoding::UHC},
    {"windows950", Encoding::BIG5},
}};

constexpr std::size_t kNameDataLen = 64;  // PostgreSQL's NAMEDATALEN

constexpr bool is_ascii_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// clean_encoding_name(): keep ASCII letters and digits, lowercased. isalnum()
// in the server depends on its locale; in the C and UTF-8 locales initdb
// defaults to, only ASCII letters and digits count, which is what is
// reproduced here (a byte >= 0x80 is dropped). Writes at most name.size().
std::size_t clean_name(std::string_view name, char* out) {
  std::size_t n = 0;
  for (char c : name)
    if (is_ascii_alnum(c)) out[n++] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return n;
}

static_assert(std::is_sorted(kAliases.begin(), kAliases.end(),
                             [](const Alias& x, const Alias& y) { return x.name < y.name; }));

// The aliases by hash of their cleaned name, open addressing: a name is
// found with one pass over its bytes and, almost always, one comparison
// (find_codec is on a driver's path whenever it does not cache the codec).
// Built at compile time.
constexpr std::uint32_t name_hash_step(std::uint32_t h, char c) {
  return (h ^ static_cast<unsigned char>(c)) * 16777619u;  // FNV-1a
}
constexpr std::uint32_t kNameHashBasis = 2166136261u;
constexpr std::uint32_t name_hash(std::string_view s) {
  std::uint32_t h = kNameHashBasis;
  for (char c : s) h = name_hash_step(h, c);
  return h;
}

constexpr std::size_t kAliasSlots = 512;  // a power of two, over 4x the aliases
static_assert(kAliasSlots >= 4 * std::tuple_size_v<decltype(kAliases)>);

struct AliasIndex {
  std::array<std::uint8_t, kAliasSlots> slot{};  // kAliases index + 1; 0: empty
};

constexpr AliasIndex make_alias_index() {
  AliasIndex x;
  for (std::size_t i = 0; i < kAliases.size(); ++i) {
    std::size_t s = name_hash(kAliases[i].name) & (kAliasSlots - 1);
    while (x.slot[s]) s = (s + 1) & (kAliasSlots - 1);
    x.slot[s] = static_cast<std::uint8_t>(i + 1);
  }
  return x;
}
static_assert(std::tuple_size_v<decltype(kAliases)> < 255);
constexpr AliasIndex kAliasIndex = make_alias_index();

}  // namespace

std::span<const EncodingInfo> encodings() noexcept { return kEncodings; }

const EncodingInfo& info(Encoding e) noexcept { return kEncodings[static_cast<std::size_t>(e)]; }

std::span<const Alias> aliases() noexcept { return kAliases; }

std::string normalize_name(std::string_view name) {
  std::string key(name.size(), '\0');
  key.resize(clean_name(name, key.data()));
  return key;
}

std::optional<Encoding> lookup(std::string_view name) noexcept {
  // PostgreSQL sees a C string: it ends at the first NUL, and a name of
  // NAMEDATALEN bytes or more is not an encoding name. One pass cleans
  // (clean_name's rule), hashes and finds the NUL.
  char buf[kNameDataLen];
  std::size_t len = 0, i = 0;
  std::uint32_t h = kNameHashBasis;
  for (; i < name.size(); ++i) {
    char c = name[i];
    if (c == '\0') break;
    if (i == kNameDataLen - 1) return std::nullopt;
    if (!is_ascii_alnum(c)) continue;
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    buf[len++] = c;
    h = name_hash_step(h, c);
  }
  if (i == 0) return std::nullopt;
  const std::string_view key(buf, len);
  for (std::size_t s = h & (kAliasSlots - 1);; s = (s + 1) & (kAliasSlots - 1)) {
    const std::uint8_t k = kAliasIndex.slot[s];
    if (!k) return std::nullopt;
    if (kAliases[k - 1u].name == key) return kAliases[k - 1u].encoding;
  }
}

}  // namespace pgcodec
