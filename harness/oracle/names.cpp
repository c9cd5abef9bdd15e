// The reference names of every encoding. The Python codec columns are the
// drivers' own choices: psycopg 3 (psycopg/_encodings.py), psycopg2
// (psycopgmodule.c enctable) and asyncpg (protocol/encodings.pyx, which falls
// back to the lowercased name, e.g. "euc_tw", a codec Python does not have).
// The ICU column is the closest ICU converter; the "others" are further
// Python codecs worth comparing.
#include "oracle/names.hpp"

#include <array>

namespace pgcodec::oracle {
namespace {

using sv = std::string_view;

constexpr sv o_sql_ascii[] = {"latin-1"};
constexpr sv o_euc_jp[] = {"euc_jis_2004", "euc_jisx0213"};
constexpr sv o_euc_cn[] = {"gbk", "gb18030"};
constexpr sv o_euc_kr[] = {"cp949"};
constexpr sv o_euc_jis_2004[] = {"euc_jisx0213", "euc_jp"};
constexpr sv o_win874[] = {"tis-620", "iso8859-11"};
constexpr sv o_koi8r[] = {"koi8-u"};
constexpr sv o_koi8u[] = {"koi8-r"};
constexpr sv o_sjis[] = {"shift_jis_2004", "shift_jisx0213"};
constexpr sv o_big5[] = {"cp950", "big5hkscs"};
constexpr sv o_gbk[] = {"gb18030", "gb2312"};
constexpr sv o_uhc[] = {"euc_kr"};
constexpr sv o_shift_jis_2004[] = {"shift_jisx0213", "cp932", "shift_jis"};

constexpr std::array<ReferenceNames, encoding_count> kNames{{
    {Encoding::SQL_ASCII, "ascii", "ascii", "ascii", o_sql_ascii, ""},
    {Encoding::EUC_JP, "euc_jp", "euc_jp", "eucjp", o_euc_jp, "EUC-JP"},
    {Encoding::EUC_CN, "gb2312", "euccn", "euccn", o_euc_cn, "EUC-CN"},
    {Encoding::EUC_KR, "euc_kr", "euc_kr", "euckr", o_euc_kr, "EUC-KR"},
    {Encoding::EUC_TW, "", "", "euc_tw", {}, "EUC-TW"},
    {Encoding::EUC_JIS_2004, "euc_jis_2004", "euc_jis_2004", "euc_jis_2004", o_euc_jis_2004, ""},
    {Encoding::UTF8, "utf-8", "utf_8", "utf8", {}, "UTF-8"},
    {Encoding::MULE_INTERNAL, "", "", "mule_internal", {}, ""},
    {Encoding::LATIN1, "iso8859-1", "iso8859_1", "latin1", {}, "ISO-8859-1"},
    {Encoding::LATIN2, "iso8859-2", "iso8859_2", "latin2", {}, "ISO-8859-2"},
    {Encoding::LATIN3, "iso8859-3", "iso8859_3", "latin3", {}, "ISO-8859-3"},
    {Encoding::LATIN4, "iso8859-4", "iso8859_4", "latin4", {}, "ISO-8859-4"},
    {Encoding::LATIN5, "iso8859-9", "iso8859_9", "latin5", {}, "ISO-8859-9"},
    {Encoding::LATIN6, "iso8859-10", "iso8859_10", "latin6", {}, "ISO-8859-10"},
    {Encoding::LATIN7, "iso8859-13", "iso8859_13", "latin7", {}, "ISO-8859-13"},
    {Encoding::LATIN8, "iso8859-14", "iso8859_14", "latin8", {}, "ISO-8859-14"},
    {Encoding::LATIN9, "iso8859-15", "iso8859_15", "latin9", {}, "ISO-8859-15"},
    {Encoding::LATIN10, "iso8859-16", "iso8859_16", "latin10", {}, ""},
    {Encoding::WIN1256, "cp1256", "cp1256", "cp1256", {}, "windows-1256"},
    {Encoding::WIN1258, "cp1258", "cp1258", "cp1258", {}, "windows-1258"},
    {Encoding::WIN866, "cp866", "cp866", "cp866", {}, "ibm-866"},
    {Encoding::WIN874, "cp874", "cp874", "cp874", o_win874, "windows-874"},
    {Encoding::KOI8R, "koi8-r", "koi8_r", "koi8_r", o_koi8r, "KOI8-R"},
    {Encoding::WIN1251, "cp1251", "cp1251", "cp1251", {}, "windows-1251"},
    {Encoding::WIN1252, "cp1252", "cp1252", "cp1252", {}, "windows-1252"},
    {Encoding::ISO_8859_5, "iso8859-5", "iso8859_5", "iso_8859_5", {}, "ISO-8859-5"},
    {Encoding::ISO_8859_6, "iso8859-6", "iso8859_6", "iso_8859_6", {}, "ISO-8859-6"},
    {Encoding::ISO_8859_7, "iso8859-7", "iso8859_7", "iso_8859_7", {}, "ISO-8859-7"},
    {Encoding::ISO_8859_8, "iso8859-8", "iso8859_8", "iso_8859_8", {}, "ISO-8859-8"},
    {Encoding::WIN1250, "cp1250", "cp1250", "cp1250", {}, "windows-1250"},
    {Encoding::WIN1253, "cp1253", "cp1253", "cp1253", {}, "windows-1253"},
    {Encoding::WIN1254, "cp1254", "cp1254", "cp1254", {}, "windows-1254"},
    {Encoding::WIN1255, "cp1255", "cp1255", "cp1255", {}, "windows-1255"},
    {Encoding::WIN1257, "cp1257", "cp1257", "cp1257", {}, "windows-1257"},
    {Encoding::KOI8U, "koi8-u", "koi8_u", "koi8_u", o_koi8u, "KOI8-U"},
    {Encoding::SJIS, "shift_jis", "cp932", "shift_jis", o_sjis, "windows-31j"},
    {Encoding::BIG5, "big5", "big5", "big5", o_big5, "windows-950"},
    {Encoding::GBK, "gbk", "gbk", "gbk", o_gbk, "GBK"},
    {Encoding::UHC, "cp949", "cp949", "uhc", o_uhc, "windows-949"},
    {Encoding::GB18030, "gb18030", "gb18030", "gb18030", {}, "GB18030"},
    {Encoding::JOHAB, "johab", "johab", "johab", {}, ""},
    {Encoding::SHIFT_JIS_2004, "shift_jis_2004", "shift_jis_2004", "euc_jis_2004", o_shift_jis_2004, ""},
}};

}  // namespace

std::span<const ReferenceNames> reference_names() noexcept { return kNames; }

const ReferenceNames& reference_names(Encoding e) noexcept {
  return kNames[static_cast<std::size_t>(to_int(e))];
}

}  // namespace pgcodec::oracle
