// encoding_rs's adapter and labels (bench/encoding_rs.hpp); compiled only
// when bench/CMakeLists.txt builds the crate in bench/encoding_rs/.
#include "encoding_rs.hpp"

#include <cstddef>
#include <cstdint>

// bench/encoding_rs/src/lib.rs. `enc` is the pointer pgbench_ers_for_label
// returned; results (Rust's isize) are bytes written or -1.
extern "C" {
const void* pgbench_ers_for_label(const char* label, std::size_t len, std::int32_t encode);
std::ptrdiff_t pgbench_ers_decode(const void* enc, const char* src, std::size_t src_len, char* dst,
                                  std::size_t dst_len);
std::ptrdiff_t pgbench_ers_encode(const void* enc, const char* src, std::size_t src_len, char* dst,
                                  std::size_t dst_len);
}

namespace pgbench {

// Some places where the standard's tables differ from PostgreSQL's (the
// random-text rows are skipped with the difference; the native texts
// agree): shift_jis encodes NEC-selected IBM extensions to NEC row 13
// (U+2161 87 55, PostgreSQL FA 4B); gbk decodes 80 (PostgreSQL encodes
// U+20AC to 80 but rejects 80 in decode); gb2312 decodes A1 A4 to U+00B7
// (PostgreSQL U+30FB); koi8-u is KOI8-RU (AE and BE are ў and Ў, not box
// drawing); big5 is Big5-HKSCS.
std::vector<std::string> encoding_rs_names(Encoding e) {
  switch (e) {
    case Encoding::UTF8: return {"utf-8"};
    case Encoding::SJIS: return {"shift_jis"};  // windows-31j
    case Encoding::EUC_JP: return {"euc-jp"};
    case Encoding::GBK: return {"gbk"};
    case Encoding::GB18030: return {"gb18030"};
    case Encoding::EUC_CN: return {"gb2312"};  // GBK, a superset of GB2312's EUC form
    case Encoding::BIG5: return {"big5"};
    case Encoding::UHC:
    case Encoding::EUC_KR: return {"euc-kr"};  // windows-949 (UHC), a superset of EUC-KR
    case Encoding::WIN866: return {"ibm866"};
    case Encoding::WIN874: return {"windows-874"};
    case Encoding::WIN1250: return {"windows-1250"};
    case Encoding::WIN1251: return {"windows-1251"};
    case Encoding::WIN1252: return {"windows-1252"};
    case Encoding::WIN1253: return {"windows-1253"};
    case Encoding::WIN1254: return {"windows-1254"};
    case Encoding::WIN1255: return {"windows-1255"};
    case Encoding::WIN1256: return {"windows-1256"};
    case Encoding::WIN1257: return {"windows-1257"};
    case Encoding::WIN1258: return {"windows-1258"};
    case Encoding::KOI8R: return {"koi8-r"};
    case Encoding::KOI8U: return {"koi8-u"};
    case Encoding::LATIN2: return {"iso-8859-2"};
    case Encoding::LATIN3: return {"iso-8859-3"};
    case Encoding::LATIN4: return {"iso-8859-4"};
    case Encoding::LATIN6: return {"iso-8859-10"};
    case Encoding::LATIN7: return {"iso-8859-13"};
    case Encoding::LATIN8: return {"iso-8859-14"};
    case Encoding::LATIN9: return {"iso-8859-15"};
    case Encoding::LATIN10: return {"iso-8859-16"};
    case Encoding::ISO_8859_5: return {"iso-8859-5"};
    case Encoding::ISO_8859_6: return {"iso-8859-6"};
    case Encoding::ISO_8859_7: return {"iso-8859-7"};
    case Encoding::ISO_8859_8: return {"iso-8859-8"};
    // LATIN1 and LATIN5: the standard's iso-8859-1 and iso-8859-9 labels
    // name windows-1252 and windows-1254 (80..9F differ). No EUC_TW, JOHAB,
    // EUC_JIS_2004, SHIFT_JIS_2004, MULE_INTERNAL; SQL_ASCII is no charset.
    default: return {};
  }
}

EncodingRs::EncodingRs(Dir dir, const std::string& label) noexcept
    : dir_(dir), enc_(pgbench_ers_for_label(label.data(), label.size(), dir == Dir::Encode)) {}

std::size_t EncodingRs::operator()(std::string_view in, std::span<char> out) const noexcept {
  const std::ptrdiff_t n =
      dir_ == Dir::Decode ? pgbench_ers_decode(enc_, in.data(), in.size(), out.data(), out.size())
                          : pgbench_ers_encode(enc_, in.data(), in.size(), out.data(), out.size());
  return n < 0 ? kFailed : static_cast<std::size_t>(n);
}

}  // namespace pgbench
