// Texts, inputs, peers' names and adapters shared by the benchmark files.
#include "common.hpp"

#include "core/text.hpp"

#include <unicode/ustring.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <random>
#include <tuple>
#include <stdexcept>
#include <utility>

#include "oracle/names.hpp"

namespace pgbench {
namespace {

// ---------------------------------------------------------------------------
// One realistic paragraph per script: prose with digits, names and ASCII
// punctuation between the words, as rows of an application hold them.
// Characters an encoding lacks are dropped from its native text
// (representable()), so one sample serves several encodings of a script.

struct Sample {
  std::string_view script;
  std::string_view text;
};

constexpr Sample kSamples[] = {
    {"english",
     "The quick brown fox jumps over the lazy dog. Customer #4711 placed an order "
     "for 3 items on 2024-03-15 at 10:42:07; shipping to 221B Baker Street, London. "
     "PostgreSQL converts every string between the client and the server encoding, "
     "so a driver that does it fast saves work on every row it reads or writes. "
     "SELECT id, name, email FROM users WHERE created_at > now() - interval '7 days' "
     "ORDER BY name LIMIT 100;\n"
     "Error reports should quote the offending bytes exactly, as the server does, "
     "and name both encodings involved in the failed conversion.\n"},
    // Russian, Greek, Chinese and Japanese with ASCII between them: 2- and
    // 3-byte UTF-8, few ASCII runs.
    {"mixed",
     "Съешь же ещё этих мягких французских булок, да выпей чаю. "
     "Заказ № 4711 отправлен 15 марта 2024 года в 10:42 по московскому времени. "
     "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Η παραγγελία σας θα παραδοθεί αύριο το πρωί. "
     "我们的数据库每天处理数百万条记录，编码转换必须又快又正确。"
     "天气预报说明天会下雨，请记得带伞。"
     "いろはにほへと ちりぬるを わかよたれそ つねならむ。"
     "東京の本社は来週から新しいシステムに移行します。\n"
     "Пользователь Иван Петров (ivan@example.ru) изменил пароль. "
     "Ο χρήστης Γιώργος Παπαδόπουλος συνδέθηκε από την Αθήνα. "
     "用户张伟于北京时间上午九点登录。\n"},
    // French, German, Spanish, Portuguese, Italian with the euro sign, curly
    // quotes and dashes: all of it in WIN1252.
    {"western",
     "Le cœur a ses raisons que la raison ne connaît point. "
     "« Où est la gare ? » demanda-t-elle — il était déjà très tard… "
     "Die Straße führt über die Brücke nach Köln; Größe: 42 m², Preis: 1.299,00 €. "
     "„Grüß Gott“, sagte der Bäcker, und ‚natürlich‘ gab es Brötchen. "
     "El niño comió piñas y jalapeños en la montaña; ¿cuánto cuesta? ¡Sólo 3 €! "
     "A ação da organização foi não só rápida, mas também eficaz. "
     "Perché la città è così bella? Però, caffè e più tè per tutti. "
     "“Smart quotes” and ‘single ones’ – en dash, em dash — bullet • trade™ ‰.\n"},
    // Polish, Czech, Slovak, Hungarian, Croatian, Slovenian.
    {"central",
     "Zażółć gęślą jaźń. Zamówienie nr 4711 wysłano 15 marca 2024 r. do Łodzi. "
     "Příliš žluťoučký kůň úpěl ďábelské ódy. Objednávka byla odeslána do Brna. "
     "Kŕdeľ šťastných ďatľov učí pri ústí Váhu mĺkveho koňa obhrýzať kôru. "
     "Árvíztűrő tükörfúrógép; a rendelés 2024. március 15-én érkezett Győrbe. "
     "Đurđevak i čokolada, šišmiš i žaba; narudžba je poslana u Zagreb. "
     "Ščuka v potoku, čaj in žgance za vse goste iz Ljubljane.\n"},
    // Esperanto, Maltese, Turkish (ISO 8859-3's languages).
    {"southern",
     "Eĥoŝanĝo ĉiuĵaŭde. Laŭ Ludoviko Zamenhof bongustas freŝa ĉeĥa manĝaĵo kun spicoj. "
     "Il-Ħadd filgħodu, ġurnata sabiħa; żewġ ħbieb marru l-Belt Valletta. "
     "Mendoza, 4711 numaralı sipariş 15 Mart 2024 tarihinde gönderildi. "
     "Ĝis revido, kara amiko; ĉu vi ŝatas la ĥoron de Ŭrugvajo?\n"},
    // Lithuanian, Latvian, Estonian.
    {"baltic",
     "Įlinkdama fechtuotojo špaga sublykčiojusi pragręžė apvalų arbūzą. "
     "Užsakymas Nr. 4711 išsiųstas 2024 m. kovo 15 d. į Vilnių. "
     "Glāžšķūņa rūķīši dzērumā čiepj Baha koncertflīģeļu vākus. "
     "Pasūtījums tika nosūtīts uz Rīgu 15. martā. "
     "Põdur Zagrebi tšellomängija-följetonist Ciqo külmetas kehvas garaažis. "
     "Tellimus saadeti Tallinnasse; aitäh, et valisite meid!\n"},
    // Turkish.
    {"turkish",
     "Pijamalı hasta yağız şoföre çabucak güvendi. "
     "Müşteri numarası 4711 olan siparişiniz 15 Mart 2024 tarihinde İstanbul'dan gönderildi. "
     "Öğrenciler ılık süt içti; öğretmen Ayşe Hanım çocuklara güzel bir şarkı öğretti. "
     "Ankara, İzmir ve Eskişehir arasında hızlı tren seferleri başladı.\n"},
    // Icelandic, Danish, Norwegian, Swedish, Finnish, Sami (ISO 8859-10).
    {"nordic",
     "Kæmi ný öxi hér, ykist þjófum nú bæði víl og ádrepa. "
     "Høj bør og blåbær på fjeldet; ordren nr. 4711 blev sendt til Århus den 15. marts. "
     "Flygande bäckasiner söka hwila på mjuka tuvor. "
     "Törkylempijävongahdus; tilaus lähetettiin Ouluun. "
     "Sámegiella: Čáppa ŋálggas ja đuolbba sátni, ŧ ja ž.\n"},
    // Welsh and Irish (ISO 8859-14).
    {"celtic",
     "Parciais fy jac codi baw hud llawn dŵr ger tŷ Mabon. "
     "Anfonwyd archeb rhif 4711 i Gaerdydd ar 15 Mawrth 2024; diolch yn fawr, Ŵyn ac Ŷvonne. "
     "D'fhuascail Íosa, Úrmhac na hÓighe Beannaithe, pór Éava agus Ádhaimh. "
     "Seoladh an t-ordú go Baile Átha Cliath; Ḃ, Ḋ, Ḟ, Ṁ, Ṗ, Ṡ agus Ṫ sa seanchló.\n"},
    // Romanian (ISO 8859-16).
    {"romanian",
     "Înjurând pițigăiat, zoofobul comandă vexat whisky și tequila. "
     "Comanda nr. 4711 a fost expediată pe 15 martie 2024 către Timișoara. "
     "Țara noastră are munți frumoși, iar școala începe în septembrie; mulțumim!\n"},
    // Russian and Ukrainian.
    {"cyrillic",
     "Съешь же ещё этих мягких французских булок, да выпей чаю. "
     "Заказ № 4711 отправлен 15 марта 2024 года в 10:42 по московскому времени. "
     "Пользователь Иван Петров (ivan@example.ru) изменил пароль. "
     "База данных ежедневно обрабатывает миллионы записей, и перекодировка должна быть быстрой. "
     "Чуєш їх, доцю, га? Кумедна ж ти, прощайся без ґольфів! "
     "Замовлення відправлено до Києва.\n"},
    {"greek",
     "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Η παραγγελία σας με αριθμό 4711 θα παραδοθεί αύριο το πρωί. "
     "Ο χρήστης Γιώργος Παπαδόπουλος συνδέθηκε από την Αθήνα στις 10:42. "
     "Η βάση δεδομένων επεξεργάζεται εκατομμύρια εγγραφές κάθε μέρα· η μετατροπή πρέπει να είναι γρήγορη.\n"},
    {"hebrew",
     "דג סקרן שט בים מאוכזב ולפתע מצא חברה. "
     "ההזמנה מספר 4711 נשלחה ב-15 במרץ 2024 לתל אביב. "
     "המשתמש דוד כהן (david@example.co.il) שינה את הסיסמה שלו. "
     "מסד הנתונים מעבד מיליוני רשומות בכל יום, ולכן ההמרה חייבת להיות מהירה.\n"},
    {"arabic",
     "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر ومغلف بجلد أزرق. "
     "تم شحن الطلب رقم 4711 في 15 مارس 2024 إلى القاهرة. "
     "قام المستخدم أحمد علي بتغيير كلمة المرور الخاصة به. "
     "تعالج قاعدة البيانات ملايين السجلات كل يوم، لذلك يجب أن يكون التحويل سريعا.\n"},
    {"thai",
     "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า กว่าบรรดาฝูงสัตว์เดรัจฉาน "
     "คำสั่งซื้อหมายเลข 4711 จัดส่งแล้วเมื่อวันที่ 15 มีนาคม 2024 ไปยังกรุงเทพมหานคร "
     "ฐานข้อมูลประมวลผลระเบียนนับล้านรายการทุกวัน การแปลงรหัสอักขระจึงต้องรวดเร็วและถูกต้อง "
     "ขอบคุณที่ใช้บริการของเรา\n"},
    {"vietnamese",
     "Tiếng Việt có dấu rất đẹp. Đơn hàng số 4711 đã được gửi vào ngày 15 tháng 3 năm 2024 tới Hà Nội. "
     "Người dùng Nguyễn Văn An đã đổi mật khẩu. "
     "Cơ sở dữ liệu xử lý hàng triệu bản ghi mỗi ngày, vì vậy việc chuyển mã phải nhanh và chính xác.\n"},
    // Japanese: kanji, hiragana, katakana; clear of the characters whose
    // mappings differ between PostgreSQL, ICU and glibc (wave dash,
    // fullwidth tilde and minus, middle dots, yen sign).
    {"japanese",
     "東京の本社は来週から新しいシステムに移行します。"
     "データベースは毎日数百万件の記録を処理しており、文字コードの変換は速く正確でなければなりません。"
     "注文番号 4711 は 2024年3月15日 10:42 に発送されました。"
     "お問い合わせは support@example.jp までご連絡ください。"
     "山田太郎さん (yamada@example.jp) がパスワードを変更しました。"
     "いろはにほへと ちりぬるを わかよたれそ つねならむ うゐのおくやま けふこえて あさきゆめみし ゑひもせす。"
     "天気予報によると、明日は雨が降るそうです。傘を忘れないでください。\n"},
    {"schinese",
     "我们的数据库每天处理数百万条记录，编码转换必须又快又正确。"
     "天气预报说明天会下雨，请记得带伞。"
     "用户张伟于北京时间上午九点登录，订单号 4711 已于 2024年3月15日 10:42 发货。"
     "如有疑问，请发送邮件至 support@example.cn 联系我们的客服团队。"
     "中华人民共和国是一个历史悠久的国家，长城和故宫吸引了来自世界各地的游客。\n"},
    {"tchinese",
     "我們的資料庫每天處理數百萬筆記錄，編碼轉換必須又快又正確。"
     "天氣預報說明天會下雨，請記得帶傘。"
     "使用者張偉於臺北時間上午九點登入，訂單編號 4711 已於 2024年3月15日 10:42 出貨。"
     "如有疑問，請寄電子郵件至 support@example.tw 與我們的客服團隊聯絡。"
     "臺灣位於東亞，擁有豐富的文化與美麗的自然風景，吸引了來自世界各地的遊客。\n"},
    // Hangul syllables, some outside KS X 1001 (UHC's extension).
    {"korean",
     "우리 데이터베이스는 매일 수백만 건의 기록을 처리하며, 인코딩 변환은 빠르고 정확해야 합니다. "
     "내일은 비가 온다고 하니 우산을 꼭 챙기세요. "
     "사용자 김민수(minsu@example.kr)가 오전 9시에 로그인했습니다. "
     "주문 번호 4711은 2024년 3월 15일 10:42에 발송되었습니다. "
     "다람쥐 헌 쳇바퀴에 타고파. "
     "서울은 대한민국의 수도이며 아름다운 궁궐과 현대적인 건물이 함께 있습니다.\n"},
};

// ---------------------------------------------------------------------------
// glibc iconv's names, first choice first (the first whose output equals
// pgcodec's is timed). CP932 before SHIFT_JIS: glibc's SHIFT_JIS maps 0x5C
// and 0x7E to the yen sign and overline, PostgreSQL's SJIS to ASCII.
struct IconvRow {
  Encoding e;
  std::initializer_list<const char*> names;
};
const IconvRow kIconv[] = {
    {Encoding::SQL_ASCII, {}},
    {Encoding::EUC_JP, {"EUC-JP", "EUC-JP-MS"}},
    {Encoding::EUC_CN, {"EUC-CN"}},
    {Encoding::EUC_KR, {"EUC-KR"}},
    {Encoding::EUC_TW, {"EUC-TW"}},
    {Encoding::EUC_JIS_2004, {"EUC-JISX0213"}},
    {Encoding::UTF8, {"UTF-8"}},
    {Encoding::MULE_INTERNAL, {}},
    {Encoding::LATIN1, {"ISO-8859-1"}},
    {Encoding::LATIN2, {"ISO-8859-2"}},
    {Encoding::LATIN3, {"ISO-8859-3"}},
    {Encoding::LATIN4, {"ISO-8859-4"}},
    {Encoding::LATIN5, {"ISO-8859-9"}},
    {Encoding::LATIN6, {"ISO-8859-10"}},
    {Encoding::LATIN7, {"ISO-8859-13"}},
    {Encoding::LATIN8, {"ISO-8859-14"}},
    {Encoding::LATIN9, {"ISO-8859-15"}},
    {Encoding::LATIN10, {"ISO-8859-16"}},
    {Encoding::WIN1256, {"CP1256"}},
    {Encoding::WIN1258, {"CP1258"}},
    {Encoding::WIN866, {"CP866"}},
    {Encoding::WIN874, {"CP874"}},
    {Encoding::KOI8R, {"KOI8-R"}},
    {Encoding::WIN1251, {"CP1251"}},
    {Encoding::WIN1252, {"CP1252"}},
    {Encoding::ISO_8859_5, {"ISO-8859-5"}},
    {Encoding::ISO_8859_6, {"ISO-8859-6"}},
    {Encoding::ISO_8859_7, {"ISO-8859-7"}},
    {Encoding::ISO_8859_8, {"ISO-8859-8"}},
    {Encoding::WIN1250, {"CP1250"}},
    {Encoding::WIN1253, {"CP1253"}},
    {Encoding::WIN1254, {"CP1254"}},
    {Encoding::WIN1255, {"CP1255"}},
    {Encoding::WIN1257, {"CP1257"}},
    {Encoding::KOI8U, {"KOI8-U"}},
    {Encoding::SJIS, {"CP932", "SHIFT_JIS"}},
    {Encoding::BIG5, {"BIG5", "CP950", "BIG5-HKSCS"}},
    {Encoding::GBK, {"GBK", "CP936"}},
    {Encoding::UHC, {"CP949", "UHC"}},
    {Encoding::GB18030, {"GB18030"}},
    {Encoding::JOHAB, {"JOHAB"}},
    {Encoding::SHIFT_JIS_2004, {"SHIFT_JISX0213"}},
};

// ICU converters tried after harness/oracle's closest converter.
std::vector<std::string> icu_extras(Encoding e) {
  switch (e) {
    case Encoding::SJIS: return {"Shift_JIS", "ibm-943_P15A-2003"};
    case Encoding::BIG5: return {"Big5", "Big5-HKSCS"};
    case Encoding::GBK: return {"windows-936"};
    case Encoding::UHC: return {"ibm-1363"};
    case Encoding::EUC_JP: return {"ibm-33722"};
    case Encoding::LATIN10: return {"iso-8859-16"};
    case Encoding::SHIFT_JIS_2004: return {};
    case Encoding::JOHAB: return {"ibm-1361"};
    default: return {};
  }
}

}  // namespace

std::string_view sample(std::string_view script) {
  for (const Sample& s : kSamples)
    if (s.script == script) return s.text;
  throw std::invalid_argument("no sample for script " + std::string(script));
}

std::string_view native_script(Encoding e) {
  switch (e) {
    case Encoding::SQL_ASCII: return "english";
    case Encoding::UTF8: return "mixed";
    case Encoding::EUC_JP:
    case Encoding::EUC_JIS_2004:
    case Encoding::SJIS:
    case Encoding::SHIFT_JIS_2004:
    case Encoding::MULE_INTERNAL: return "japanese";
    case Encoding::EUC_CN:
    case Encoding::GBK:
    case Encoding::GB18030: return "schinese";
    case Encoding::EUC_TW:
    case Encoding::BIG5: return "tchinese";
    case Encoding::EUC_KR:
    case Encoding::UHC:
    case Encoding::JOHAB: return "korean";
    case Encoding::LATIN1:
    case Encoding::LATIN9:
    case Encoding::WIN1252: return "western";
    case Encoding::LATIN2:
    case Encoding::WIN1250: return "central";
    case Encoding::LATIN3: return "southern";
    case Encoding::LATIN4:
    case Encoding::LATIN7:
    case Encoding::WIN1257: return "baltic";
    case Encoding::LATIN5:
    case Encoding::WIN1254: return "turkish";
    case Encoding::LATIN6: return "nordic";
    case Encoding::LATIN8: return "celtic";
    case Encoding::LATIN10: return "romanian";
    case Encoding::WIN1256:
    case Encoding::ISO_8859_6: return "arabic";
    case Encoding::WIN1258: return "vietnamese";
    case Encoding::WIN866:
    case Encoding::KOI8R:
    case Encoding::KOI8U:
    case Encoding::WIN1251:
    case Encoding::ISO_8859_5: return "cyrillic";
    case Encoding::WIN874: return "thai";
    case Encoding::ISO_8859_7:
    case Encoding::WIN1253: return "greek";
    case Encoding::ISO_8859_8:
    case Encoding::WIN1255: return "hebrew";
  }
  return "english";
}

std::string repeat_to(std::string_view unit, std::size_t size) {
  auto boundary = [&unit](std::size_t n) {
    while (n > 0 && n < unit.size() && (static_cast<unsigned char>(unit[n]) & 0xC0) == 0x80) --n;
    return n;
  };
  std::string s;
  while (s.size() + unit.size() <= size) s.append(unit);
  s.append(unit.substr(0, boundary(size - s.size())));
  return s;
}

std::vector<char32_t> code_points(std::string_view s) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? b : n == 2 ? (b & 0x1Fu) : n == 3 ? (b & 0x0Fu) : (b & 0x07u);
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    out.push_back(cp);
    i += n;
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  pgcodec::harness::append_utf8(out, static_cast<std::uint32_t>(cp));
}

bool round_trips(Encoding e, char32_t cp) {
  if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
  std::string u;
  append_utf8(u, cp);
  const pgcodec::Codec& c = pgcodec::codec(e);
  char enc[16];
  char dec[32];
  const pgcodec::Result r = c.encode(u, enc);
  if (!r.ok()) return false;
  const pgcodec::Result d = c.decode(std::string_view(enc, r.written), dec);
  return d.ok() && std::string_view(dec, d.written) == u;
}

std::string representable(Encoding e, std::string_view utf8) {
  std::string out;
  for (const char32_t cp : code_points(utf8))
    if (cp < 0x80 || round_trips(e, cp)) append_utf8(out, cp);
  return out;
}

const std::vector<char32_t>& repertoire(Encoding e, char32_t lo, char32_t hi) {
  static std::map<std::tuple<int, char32_t, char32_t>, std::vector<char32_t>> cache;
  static std::mutex m;
  const std::lock_guard<std::mutex> lock(m);
  auto [it, fresh] = cache.try_emplace({pgcodec::to_int(e), lo, hi});
  if (fresh)
    for (char32_t cp = lo; cp <= hi; ++cp)
      if (round_trips(e, cp)) it->second.push_back(cp);
  return it->second;
}

std::string random_text(Encoding e, std::size_t chars, std::uint64_t seed, char32_t lo,
                        char32_t hi) {
  const std::vector<char32_t>& rep = repertoire(e, lo, hi);
  if (rep.empty()) throw std::runtime_error("empty repertoire");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> pick(0, rep.size() - 1);
  std::string out;
  for (std::size_t i = 0; i < chars; ++i) append_utf8(out, rep[pick(rng)]);
  return out;
}

std::string pg_convert(Dir d, Encoding e, std::string_view in) {
  const pgcodec::Codec& c = pgcodec::codec(e);
  std::string out(out_size(in.size()), '\0');
  const pgcodec::Result r = d == Dir::Decode ? c.decode(in, out) : c.encode(in, out);
  if (!r.ok()) {
    throw std::runtime_error(std::string(dir_name(d)) + " in " + std::string(c.name()) + ": " +
                             (r.status == pgcodec::Status::Error ? r.error.message()
                                                                 : std::string("output full")));
  }
  out.resize(r.written);
  return out;
}

std::size_t char_boundary(Encoding e, std::string_view bytes, std::size_t size) {
  const pgcodec::Codec& c = pgcodec::codec(e);
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::size_t n = c.char_length(bytes, at);
    if (n == 0 || at + n > size) break;
    at += n;
  }
  return at;
}

std::string encoded_to_size(Encoding e, std::string_view text, std::size_t size) {
  // Every character's encoding is at least a third of its UTF-8 (a 3-byte
  // character in a single-byte encoding): three times the size is enough.
  return rotation(Dir::Decode, e, repeat_to(text, 3 * size + 8), size, 0, 1).inputs.front();
}

std::vector<std::string> icu_names(Encoding e) {
  std::vector<std::string> out;
  const std::string_view oracle = pgcodec::oracle::reference_names(e).icu;
  if (!oracle.empty()) out.emplace_back(oracle);
  for (std::string& n : icu_extras(e))
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
  return out;
}

std::vector<std::string> iconv_names(Encoding e) {
  for (const IconvRow& r : kIconv)
    if (r.e == e) return {r.names.begin(), r.names.end()};
  return {};
}

std::string describe_difference(std::string_view ours, std::string_view theirs) {
  std::size_t i = 0;
  while (i < ours.size() && i < theirs.size() && ours[i] == theirs[i]) ++i;
  // Back to the start of a UTF-8 character when both sides are UTF-8-like.
  std::size_t at = i;
  for (int k = 0; k < 3 && at > 0 && at < ours.size() &&
                  (static_cast<unsigned char>(ours[at]) & 0xC0) == 0x80;
       ++k)
    --at;
  auto bytes = [at](std::string_view s) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string h;
    for (std::size_t k = at; k < s.size() && k < at + 4; ++k) {
      const auto b = static_cast<unsigned char>(s[k]);
      if (!h.empty()) h += ' ';
      h += digits[b >> 4];
      h += digits[b & 15];
    }
    return h.empty() ? std::string("(end)") : h;
  };
  return "at output byte " + std::to_string(at) + ": pgcodec " + bytes(ours) + ", peer " +
         bytes(theirs);
}

// ---------------------------------------------------------------------------

Iconv::Iconv(const char* to, const char* from) noexcept : cd_(iconv_open(to, from)) {}
Iconv::~Iconv() {
  if (ok()) iconv_close(cd_);
}

std::size_t Iconv::operator()(std::string_view in, std::span<char> out) const noexcept {
  char* ip = const_cast<char*>(in.data());
  std::size_t il = in.size();
  char* op = out.data();
  std::size_t ol = out.size();
  if (iconv(cd_, &ip, &il, &op, &ol) == static_cast<std::size_t>(-1) || il != 0) {
    iconv(cd_, nullptr, nullptr, nullptr, nullptr);  // back to the initial state
    return kFailed;
  }
  // Flush, which also returns the descriptor to its initial state.
  if (iconv(cd_, nullptr, nullptr, &op, &ol) == static_cast<std::size_t>(-1)) return kFailed;
  return static_cast<std::size_t>(op - out.data());
}

UConverter* icu_open(const char* name) noexcept {
  UErrorCode err = U_ZERO_ERROR;
  UConverter* cnv = ucnv_open(name, &err);
  if (U_FAILURE(err)) return nullptr;
  ucnv_setToUCallBack(cnv, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &err);
  ucnv_setFromUCallBack(cnv, UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &err);
  if (U_FAILURE(err)) {
    ucnv_close(cnv);
    return nullptr;
  }
  return cnv;
}

Icu::Icu(const char* to, const char* from) noexcept : to_(icu_open(to)), from_(icu_open(from)) {}
Icu::~Icu() {
  if (to_) ucnv_close(to_);
  if (from_) ucnv_close(from_);
}

std::size_t Icu::operator()(std::string_view in, std::span<char> out) const noexcept {
  UErrorCode err = U_ZERO_ERROR;
  char* target = out.data();
  const char* source = in.data();
  // reset = true: each call starts from the initial state; flush = true:
  // the input is complete. The pivot buffer is ICU's own (on its stack).
  ucnv_convertEx(to_, from_, &target, out.data() + out.size(), &source, in.data() + in.size(),
                 nullptr, nullptr, nullptr, nullptr, true, true, &err);
  if (U_FAILURE(err) || source != in.data() + in.size()) return kFailed;
  return static_cast<std::size_t>(target - out.data());
}

IcuTwoStep::IcuTwoStep(Dir d, const char* name) noexcept : dir_(d), cnv_(icu_open(name)) {}
IcuTwoStep::~IcuTwoStep() {
  if (cnv_) ucnv_close(cnv_);
}

std::size_t IcuTwoStep::operator()(std::string_view in, std::span<char> out) const noexcept {
  // One UTF-16 unit per input byte is enough both ways (a byte of the
  // encoding is at most one character, a UTF-8 byte at most one unit); kept
  // between calls, grown outside the timed loop (the first call of a size).
  if (u16_.size() < in.size() + 1) u16_.resize(in.size() + 1);
  const auto cap = static_cast<std::int32_t>(u16_.size());
  UErrorCode err = U_ZERO_ERROR;
  std::int32_t units = 0;
  std::int32_t len = 0;
  if (dir_ == Dir::Decode) {
    units = ucnv_toUChars(cnv_, u16_.data(), cap, in.data(), static_cast<std::int32_t>(in.size()), &err);
    if (U_FAILURE(err)) return kFailed;
    u_strToUTF8(out.data(), static_cast<std::int32_t>(out.size()), &len, u16_.data(), units, &err);
  } else {
    u_strFromUTF8(u16_.data(), cap, &units, in.data(), static_cast<std::int32_t>(in.size()), &err);
    if (U_FAILURE(err)) return kFailed;
    len = ucnv_fromUChars(cnv_, out.data(), static_cast<std::int32_t>(out.size()), u16_.data(), units, &err);
  }
  // (A string that just fills `out` is reported as not terminated: not a failure.)
  if (U_FAILURE(err)) return kFailed;
  return static_cast<std::size_t>(len);
}

// ---------------------------------------------------------------------------

std::string shuffled(std::string_view utf8, std::size_t bytes, std::uint64_t seed) {
  const std::vector<char32_t> cps = code_points(utf8);
  const auto spaces = static_cast<std::size_t>(std::count(cps.begin(), cps.end(), U' '));
  const bool spaced = spaces * 20 >= cps.size();  // one space in 20 characters or more
  std::mt19937_64 rng(seed);
  std::vector<std::string> words;
  std::string w;
  std::uniform_int_distribution<int> run(1, 4);
  int left = run(rng);
  for (const char32_t cp : cps) {
    const bool gap = cp == U' ' || cp == U'\n';
    if (!gap) append_utf8(w, cp);
    if ((spaced && gap) || (!spaced && (gap || --left == 0))) {
      if (!w.empty()) words.push_back(std::move(w));
      w.clear();
      left = run(rng);
    }
  }
  if (!w.empty()) words.push_back(std::move(w));
  if (words.empty()) throw std::runtime_error("shuffled: no words");
  std::uniform_int_distribution<std::size_t> pick(0, words.size() - 1);
  std::string out;
  while (out.size() < bytes) {
    if (spaced && !out.empty()) out += ' ';
    out += words[pick(rng)];
  }
  return out;
}

std::size_t Rotation::largest_input() const noexcept {
  std::size_t m = 0;
  for (const std::string& s : inputs) m = std::max(m, s.size());
  return m;
}

std::size_t Rotation::input_bytes() const noexcept {
  std::size_t n = 0;
  for (const std::string& s : inputs) n += s.size();
  return n;
}

Rotation rotation(Dir d, Encoding e, std::string_view text, std::size_t size, std::size_t total,
                  std::size_t least) {
  const std::string bytes = pg_convert(Dir::Encode, e, text);
  const std::size_t want = std::max(least, total / size);
  const pgcodec::Codec& c = pgcodec::codec(e);
  std::vector<char> out(out_size(size));
  Rotation r;
  std::string_view rest = bytes;
  while (r.inputs.size() < want && !rest.empty()) {
    std::size_t n = char_boundary(e, rest, size);
    // SQL_ASCII's characters are bytes, yet it checks UTF-8 after all: a
    // cut through a UTF-8 sequence fails; shorten to where it does not.
    while (n > 0 && !c.decode(rest.substr(0, n), out).ok()) n = char_boundary(e, rest, n - 1);
    if (n == 0) break;
    std::string piece(rest.substr(0, n));
    rest.remove_prefix(n);
    std::string utf8 = pg_convert(Dir::Decode, e, piece);
    if (d == Dir::Decode) {
      r.inputs.push_back(std::move(piece));
      r.expected.push_back(std::move(utf8));
    } else {
      r.inputs.push_back(std::move(utf8));
      r.expected.push_back(std::move(piece));
    }
  }
  if (r.inputs.empty()) throw std::runtime_error("rotation: no input of " + std::to_string(size) + " bytes");
  return r;
}

}  // namespace pgbench
