// Index of the generated mapping tables (tools/gentables, PostgreSQL 15.18 (Debian 15.18-0+deb12u1)). Do not edit.
#include "tables/table.hpp"

namespace pgcodec::detail {
namespace tables {
extern const MappingTable sql_ascii;
extern const MappingTable euc_jp;
extern const MappingTable euc_cn;
extern const MappingTable euc_kr;
extern const MappingTable euc_tw;
extern const MappingTable euc_jis_2004;
extern const MappingTable utf8;
extern const MappingTable mule_internal;
extern const MappingTable latin1;
extern const MappingTable latin2;
extern const MappingTable latin3;
extern const MappingTable latin4;
extern const MappingTable latin5;
extern const MappingTable latin6;
extern const MappingTable latin7;
extern const MappingTable latin8;
extern const MappingTable latin9;
extern const MappingTable latin10;
extern const MappingTable win1256;
extern const MappingTable win1258;
extern const MappingTable win866;
extern const MappingTable win874;
extern const MappingTable koi8r;
extern const MappingTable win1251;
extern const MappingTable win1252;
extern const MappingTable iso_8859_5;
extern const MappingTable iso_8859_6;
extern const MappingTable iso_8859_7;
extern const MappingTable iso_8859_8;
extern const MappingTable win1250;
extern const MappingTable win1253;
extern const MappingTable win1254;
extern const MappingTable win1255;
extern const MappingTable win1257;
extern const MappingTable koi8u;
extern const MappingTable sjis;
extern const MappingTable big5;
extern const MappingTable gbk;
extern const MappingTable uhc;
extern const MappingTable gb18030;
extern const MappingTable johab;
extern const MappingTable shift_jis_2004;
}  // namespace tables

const MappingTable* mapping_table(Encoding e) noexcept {
  static const MappingTable* const all[] = {
      &tables::sql_ascii,
      &tables::euc_jp,
      &tables::euc_cn,
      &tables::euc_kr,
      &tables::euc_tw,
      &tables::euc_jis_2004,
      &tables::utf8,
      &tables::mule_internal,
      &tables::latin1,
      &tables::latin2,
      &tables::latin3,
      &tables::latin4,
      &tables::latin5,
      &tables::latin6,
      &tables::latin7,
      &tables::latin8,
      &tables::latin9,
      &tables::latin10,
      &tables::win1256,
      &tables::win1258,
      &tables::win866,
      &tables::win874,
      &tables::koi8r,
      &tables::win1251,
      &tables::win1252,
      &tables::iso_8859_5,
      &tables::iso_8859_6,
      &tables::iso_8859_7,
      &tables::iso_8859_8,
      &tables::win1250,
      &tables::win1253,
      &tables::win1254,
      &tables::win1255,
      &tables::win1257,
      &tables::koi8u,
      &tables::sjis,
      &tables::big5,
      &tables::gbk,
      &tables::uhc,
      &tables::gb18030,
      &tables::johab,
      &tables::shift_jis_2004,
  };
  return all[static_cast<int>(e)];
}

}  // namespace pgcodec::detail
