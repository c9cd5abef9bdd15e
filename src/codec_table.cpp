#include "codec_table.hpp"

#include "pgcodec/codec.hpp"
#include "tables/generated/dense/dense_index.hpp"

namespace pgcodec::detail {
namespace {

using E = Encoding;
using G = Grammar;

constexpr CodecRow identity(E e, G g) { return {e, g, &utf8_ops, {}}; }
constexpr CodecRow single_byte(E e, const SingleByteDense& d) {
  return {e, G::single_byte, &single_byte_ops, {&d, nullptr}};
}
constexpr CodecRow multibyte(E e, G g, const MultibyteDense& d) {
  return {e, g, &multibyte_ops, {nullptr, &d}};
}

}  // namespace

constexpr std::array<CodecRow, encoding_count> codec_table{{
    identity(E::SQL_ASCII, G::single_byte),
    multibyte(E::EUC_JP, G::euc_jp, dense::euc_jp),
    multibyte(E::EUC_CN, G::euc_cn, dense::euc_cn),
    multibyte(E::EUC_KR, G::euc_kr, dense::euc_kr),
    multibyte(E::EUC_TW, G::euc_tw, dense::euc_tw),
    multibyte(E::EUC_JIS_2004, G::euc_jp, dense::euc_jis_2004),
    identity(E::UTF8, G::utf8),
    multibyte(E::MULE_INTERNAL, G::mule, dense::mule_internal),
    single_byte(E::LATIN1, dense::latin1),
    single_byte(E::LATIN2, dense::latin2),
    single_byte(E::LATIN3, dense::latin3),
    single_byte(E::LATIN4, dense::latin4),
    single_byte(E::LATIN5, dense::latin5),
    single_byte(E::LATIN6, dense::latin6),
    single_byte(E::LATIN7, dense::latin7),
    single_byte(E::LATIN8, dense::latin8),
    single_byte(E::LATIN9, dense::latin9),
    single_byte(E::LATIN10, dense::latin10),
    single_byte(E::WIN1256, dense::win1256),
    single_byte(E::WIN1258, dense::win1258),
    single_byte(E::WIN866, dense::win866),
    single_byte(E::WIN874, dense::win874),
    single_byte(E::KOI8R, dense::koi8r),
    single_byte(E::WIN1251, dense::win1251),
    single_byte(E::WIN1252, dense::win1252),
    single_byte(E::ISO_8859_5, dense::iso_8859_5),
    single_byte(E::ISO_8859_6, dense::iso_8859_6),
    single_byte(E::ISO_8859_7, dense::iso_8859_7),
    single_byte(E::ISO_8859_8, dense::iso_8859_8),
    single_byte(E::WIN1250, dense::win1250),
    single_byte(E::WIN1253, dense::win1253),
    single_byte(E::WIN1254, dense::win1254),
    single_byte(E::WIN1255, dense::win1255),
    single_byte(E::WIN1257, dense::win1257),
    single_byte(E::KOI8U, dense::koi8u),
    multibyte(E::SJIS, G::sjis, dense::sjis),
    multibyte(E::BIG5, G::big5_like, dense::big5),
    multibyte(E::GBK, G::big5_like, dense::gbk),
    multibyte(E::UHC, G::big5_like, dense::uhc),
    multibyte(E::GB18030, G::gb18030, dense::gb18030),
    multibyte(E::JOHAB, G::johab, dense::johab),
    multibyte(E::SHIFT_JIS_2004, G::sjis, dense::shift_jis_2004),
}};

// A row out of pg_enc order would give an encoding another's codec.
constexpr bool in_order() {
  for (std::size_t i = 0; i < codec_table.size(); ++i)
    if (static_cast<std::size_t>(codec_table[i].encoding) != i) return false;
  return true;
}
static_assert(in_order(), "codec_table rows must be in pg_enc order");

// The Codec objects, one per row, built at compile time: codec() is an
// index, with no initialisation guard.
struct CodecFactory {
  template <std::size_t... I>
  static constexpr std::array<Codec, encoding_count> all(std::index_sequence<I...>) noexcept {
    return {{Codec(codec_table[I].encoding, &codec_table[I])...}};
  }
};

constinit const std::array<Codec, encoding_count> codecs =
    CodecFactory::all(std::make_index_sequence<encoding_count>{});

}  // namespace pgcodec::detail

namespace pgcodec {

const Codec& codec(Encoding e) noexcept {
  const auto i = static_cast<std::size_t>(e);
  return detail::codecs[i < detail::codecs.size() ? i : 0];
}

}  // namespace pgcodec
