// Throughput of pgcodec's cached path (a `const Codec&` resolved once), of
// the by-name path (pgcodec::decode("WIN1252", ...), a lookup per call), and
// of ICU and glibc iconv on exactly the same inputs, so the ratios can be
// read from one run:
//
//   build/release/bench/pgcodec_bench --benchmark_min_time=0.2
//
// Names are <direction>/<encoding>/<text>/<size>/<implementation>. Bytes/s
// always counts *input* bytes (the encoded bytes for decode, the UTF-8 for
// encode), so every implementation of a case is measured against the same
// figure. Every implementation converts the case's input once before its
// timing loop and its output is checked against pgcodec's; a mismatch skips
// the benchmark with an error rather than comparing unequal work. All output
// buffers are allocated before the timing loop; errors are Strict everywhere
// (ICU's callbacks are set to STOP, iconv stops by itself).
//
// The multibyte encodings (SJIS, EUC_JP, GBK, GB18030, BIG5, UHC) are
// measured on 64 KiB of text in their own script, cached path only.
//
// With the console format a summary follows the usual table: MB/s (10^6
// input bytes per second) per implementation, and pgcodec's ratio to ICU and
// to iconv.
#include <benchmark/benchmark.h>
#include <iconv.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#ifdef PGCODEC_BENCH_HAVE_ICU
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unicode/utypes.h>
#endif

#include "pgcodec/codec.hpp"
#include "pgcodec/encoding.hpp"

namespace {

constexpr std::size_t kFailed = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kLarge = 64 * 1024;
constexpr std::size_t kSmall = 100;

// ---------------------------------------------------------------------------
// Texts (UTF-8). Realistic prose, repeated to the sizes measured.

// Plain English, the common case for most applications' data.
constexpr std::string_view kAsciiText =
    "The quick brown fox jumps over the lazy dog. Customer #4711 placed an order "
    "for 3 items on 2024-03-15 at 10:42:07; shipping to 221B Baker Street, London. "
    "PostgreSQL converts every string between the client and the server encoding, "
    "so a driver that does it fast saves work on every row it reads or writes. "
    "SELECT id, name, email FROM users WHERE created_at > now() - interval '7 days' "
    "ORDER BY name LIMIT 100;\n"
    "Error reports should quote the offending bytes exactly, as the server does, "
    "and name both encodings involved in the failed conversion.\n";

// Russian, Greek, Chinese and Japanese sentences with ASCII punctuation and
// digits between them: 2- and 3-byte UTF-8, few ASCII runs.
constexpr std::string_view kMixedText =
    "Съешь же ещё этих мягких французских булок, да выпей чаю. "
    "Заказ № 4711 отправлен 15 марта 2024 года в 10:42 по московскому времени. "
    "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Η παραγγελία σας θα παραδοθεί αύριο το πρωί. "
    "我们的数据库每天处理数百万条记录，编码转换必须又快又正确。"
    "天气预报说明天会下雨，请记得带伞。"
    "いろはにほへと ちりぬるを わかよたれそ つねならむ。"
    "東京の本社は来週から新しいシステムに移行します。\n"
    "Пользователь Иван Петров (ivan@example.ru) изменил пароль. "
    "Ο χρήστης Γιώργος Παπαδόπουλος συνδέθηκε από την Αθήνα. "
    "用户张伟于北京时间上午九点登录。\n";

// Western European prose: French, German, Spanish, Portuguese, Italian, with
// €, curly quotes, dashes and an ellipsis -- every character is in WIN1252.
constexpr std::string_view kWesternText =
    "Le cœur a ses raisons que la raison ne connaît point. "
    "« Où est la gare ? » demanda-t-elle — il était déjà très tard… "
    "Die Straße führt über die Brücke nach Köln; Größe: 42 m², Preis: 1.299,00 €. "
    "„Grüß Gott“, sagte der Bäcker, und ‚natürlich‘ gab es Brötchen. "
    "El niño comió piñas y jalapeños en la montaña; ¿cuánto cuesta? ¡Sólo 3 €! "
    "A ação da organização foi não só rápida, mas também eficaz. "
    "Perché la città è così bella? Però, caffè e più tè per tutti. "
    "“Smart quotes” and ‘single ones’ – en dash, em dash — bullet • trade™ ‰.\n";

// CJK prose for the multibyte encodings, each in its own script, with ASCII
// digits, spaces and punctuation between the sentences. Every character is
// in the encodings it is used with (checked at setup: pgcodec must encode all
// of it), and the texts stay clear of the few characters whose mappings
// differ between PostgreSQL, ICU and glibc (wave dash, fullwidth tilde and
// minus, middle dots, em dash, yen sign, backslash and tilde in SJIS).

// Japanese (SJIS, EUC_JP): kanji, hiragana and katakana.
constexpr std::string_view kJapaneseText =
    "東京の本社は来週から新しいシステムに移行します。"
    "データベースは毎日数百万件の記録を処理しており、文字コードの変換は速く正確でなければなりません。"
    "注文番号 4711 は 2024年3月15日 10:42 に発送されました。"
    "お問い合わせは support@example.jp までご連絡ください。"
    "山田太郎さん (yamada@example.jp) がパスワードを変更しました。"
    "いろはにほへと ちりぬるを わかよたれそ つねならむ うゐのおくやま けふこえて あさきゆめみし ゑひもせす。"
    "天気予報によると、明日は雨が降るそうです。傘を忘れないでください。\n";

// Simplified Chinese (GBK, GB18030).
constexpr std::string_view kSimplifiedChineseText =
    "我们的数据库每天处理数百万条记录，编码转换必须又快又正确。"
    "天气预报说明天会下雨，请记得带伞。"
    "用户张伟于北京时间上午九点登录，订单号 4711 已于 2024年3月15日 10:42 发货。"
    "如有疑问，请发送邮件至 support@example.cn 联系我们的客服团队。"
    "中华人民共和国是一个历史悠久的国家，长城和故宫吸引了来自世界各地的游客。\n";

// Traditional Chinese (BIG5).
constexpr std::string_view kTraditionalChineseText =
    "我們的資料庫每天處理數百萬筆記錄，編碼轉換必須又快又正確。"
    "天氣預報說明天會下雨，請記得帶傘。"
    "使用者張偉於臺北時間上午九點登入，訂單編號 4711 已於 2024年3月15日 10:42 出貨。"
    "如有疑問，請寄電子郵件至 support@example.tw 與我們的客服團隊聯絡。"
    "臺灣位於東亞，擁有豐富的文化與美麗的自然風景，吸引了來自世界各地的遊客。\n";

// Korean (UHC): Hangul syllables, some outside KS X 1001 (UHC's extension).
constexpr std::string_view kKoreanText =
    "우리 데이터베이스는 매일 수백만 건의 기록을 처리하며, 인코딩 변환은 빠르고 정확해야 합니다. "
    "내일은 비가 온다고 하니 우산을 꼭 챙기세요. "
    "사용자 김민수(minsu@example.kr)가 오전 9시에 로그인했습니다. "
    "주문 번호 4711은 2024년 3월 15일 10:42에 발송되었습니다. "
    "다람쥐 헌 쳇바퀴에 타고파. "
    "서울은 대한민국의 수도이며 아름다운 궁궐과 현대적인 건물이 함께 있습니다.\n";

// `unit` repeated while the result stays within `size` bytes (so a cut never
// splits a character); a unit longer than `size` is cut at a UTF-8 character
// boundary instead.
std::string repeat_to(std::string_view unit, std::size_t size) {
  std::string s;
  if (unit.size() <= size) {
    while (s.size() + unit.size() <= size) s.append(unit);
    // Fill the remainder with a prefix of the unit, at a character boundary.
    std::size_t rest = size - s.size();
    while (rest > 0 && (static_cast<unsigned char>(unit[rest]) & 0xC0) == 0x80) --rest;
    s.append(unit.substr(0, rest));
    return s;
  }
  std::size_t n = size;
  while (n > 0 && (static_cast<unsigned char>(unit[n]) & 0xC0) == 0x80) --n;
  return std::string(unit.substr(0, n));
}

// ---------------------------------------------------------------------------
// One measured case: the input and what pgcodec makes of it.

enum class Direction { Decode, Encode };

struct Case {
  std::string name;      // e.g. "decode/WIN1252/western/64KiB"
  Direction dir;
  pgcodec::Encoding enc;
  std::string input;     // encoded bytes (decode) or UTF-8 (encode)
  std::string expected;  // pgcodec's output, what every other must produce
  std::size_t out_size;  // an output buffer large enough for every implementation
};

std::vector<std::unique_ptr<Case>>& cases() {
  static std::vector<std::unique_ptr<Case>> all;
  return all;
}

std::string pg_convert(Direction dir, pgcodec::Encoding enc, std::string_view in) {
  const pgcodec::Codec& c = pgcodec::codec(enc);
  return dir == Direction::Decode ? c.decode(in) : c.encode(in);
}

const Case& add_case(Direction dir, pgcodec::Encoding enc, std::string_view text,
                     std::string_view size, std::string input) {
  auto c = std::make_unique<Case>();
  const pgcodec::Codec& codec = pgcodec::codec(enc);
  c->name = std::string(dir == Direction::Decode ? "decode/" : "encode/") +
            std::string(codec.name()) + "/" + std::string(text) + "/" + std::string(size);
  c->dir = dir;
  c->enc = enc;
  c->expected = pg_convert(dir, enc, input);
  const auto pg_max = dir == Direction::Decode ? codec.max_decoded_size(input.size())
                                               : codec.max_encoded_size(input.size());
  // UTF-8 output is at most 3 bytes per input byte for every case here; a
  // little slack on top for iconv's and ICU's flushes.
  c->out_size = std::max(pg_max.value_or(0), 4 * input.size() + 64);
  c->input = std::move(input);
  cases().push_back(std::move(c));
  return *cases().back();
}

// ---------------------------------------------------------------------------
// The timing loop, shared by every implementation. `conv` returns the bytes
// written, or kFailed.

template <class Conv>
void run(benchmark::State& state, const Case& c, std::span<char> out, Conv&& conv) {
  const std::string_view in = c.input;
  const std::size_t w = conv(in, out);
  if (w == kFailed) {
    state.SkipWithError("conversion failed");
    return;
  }
  if (std::string_view(out.data(), w) != c.expected) {
    state.SkipWithError("output differs from pgcodec's");
    return;
  }
  for (auto _ : state) {
    const char* p = in.data();
    benchmark::DoNotOptimize(p);
    std::size_t n = conv(std::string_view(p, in.size()), out);
    benchmark::DoNotOptimize(n);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(in.size()));
}

std::size_t written_or_failed(const pgcodec::Result& r) noexcept {
  return r.ok() ? r.written : kFailed;
}

void bench_pgcodec(benchmark::State& state, const Case* c) {
  std::vector<char> out(c->out_size);
  const pgcodec::Codec& codec = pgcodec::codec(c->enc);  // resolved once
  if (c->dir == Direction::Decode) {
    run(state, *c, out, [&codec](std::string_view in, std::span<char> o) {
      return written_or_failed(codec.decode(in, o));
    });
  } else {
    run(state, *c, out, [&codec](std::string_view in, std::span<char> o) {
      return written_or_failed(codec.encode(in, o));
    });
  }
}

void bench_pgcodec_by_name(benchmark::State& state, const Case* c) {
  std::vector<char> out(c->out_size);
  const std::string name(pgcodec::codec(c->enc).name());  // looked up on every call
  const std::string_view nv = name;
  if (c->dir == Direction::Decode) {
    run(state, *c, out, [nv](std::string_view in, std::span<char> o) {
      return written_or_failed(pgcodec::decode(nv, in, o));
    });
  } else {
    run(state, *c, out, [nv](std::string_view in, std::span<char> o) {
      return written_or_failed(pgcodec::encode(nv, in, o));
    });
  }
}

// glibc's names for the encodings measured here.
const char* iconv_name(pgcodec::Encoding e) {
  switch (e) {
    case pgcodec::Encoding::UTF8: return "UTF-8";
    case pgcodec::Encoding::WIN1252: return "WINDOWS-1252";
    // CP932 rather than SHIFT_JIS: glibc's SHIFT_JIS maps 0x5C and 0x7E to
    // the yen sign and overline, PostgreSQL's SJIS (like CP932) to ASCII.
    case pgcodec::Encoding::SJIS: return "CP932";
    case pgcodec::Encoding::EUC_JP: return "EUC-JP";
    case pgcodec::Encoding::GBK: return "GBK";
    case pgcodec::Encoding::BIG5: return "BIG5";
    case pgcodec::Encoding::UHC: return "CP949";
    case pgcodec::Encoding::GB18030: return "GB18030";
    default: return nullptr;
  }
}

void bench_iconv(benchmark::State& state, const Case* c) {
  const char* enc = iconv_name(c->enc);
  if (!enc) {
    state.SkipWithError("no iconv name for this encoding");
    return;
  }
  const char* to = c->dir == Direction::Decode ? "UTF-8" : enc;
  const char* from = c->dir == Direction::Decode ? enc : "UTF-8";
  iconv_t cd = iconv_open(to, from);
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    state.SkipWithError("iconv_open failed");
    return;
  }
  std::vector<char> out(c->out_size);
  run(state, *c, out, [cd](std::string_view in, std::span<char> o) -> std::size_t {
    char* ip = const_cast<char*>(in.data());
    std::size_t il = in.size();
    char* op = o.data();
    std::size_t ol = o.size();
    if (iconv(cd, &ip, &il, &op, &ol) == static_cast<std::size_t>(-1) || il != 0)
      return kFailed;
    // Flush, which also returns the descriptor to its initial state.
    if (iconv(cd, nullptr, nullptr, &op, &ol) == static_cast<std::size_t>(-1)) return kFailed;
    return static_cast<std::size_t>(op - o.data());
  });
  iconv_close(cd);
}

#ifdef PGCODEC_BENCH_HAVE_ICU
const char* icu_name(pgcodec::Encoding e) {
  switch (e) {
    case pgcodec::Encoding::UTF8: return "UTF-8";
    case pgcodec::Encoding::WIN1252: return "windows-1252";
    case pgcodec::Encoding::SJIS: return "windows-31j";
    case pgcodec::Encoding::EUC_JP: return "EUC-JP";
    case pgcodec::Encoding::GBK: return "GBK";
    case pgcodec::Encoding::BIG5: return "windows-950";
    case pgcodec::Encoding::UHC: return "windows-949";
    case pgcodec::Encoding::GB18030: return "GB18030";
    default: return nullptr;
  }
}

// A converter that stops at the first error, as PostgreSQL (and Strict) do.
UConverter* icu_open(const char* name) {
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

// ucnv_convertEx: bytes -> bytes through ICU's UTF-16 pivot, the same
// conversion (and the same output) as pgcodec's.
void bench_icu(benchmark::State& state, const Case* c) {
  const char* enc = icu_name(c->enc);
  if (!enc) {
    state.SkipWithError("no ICU name for this encoding");
    return;
  }
  UConverter* target = icu_open(c->dir == Direction::Decode ? "UTF-8" : enc);
  UConverter* source = icu_open(c->dir == Direction::Decode ? enc : "UTF-8");
  if (target && source) {
    std::vector<char> out(c->out_size);
    std::array<UChar, 1024> pivot{};  // ICU's own default pivot size
    run(state, *c, out,
        [target, source, &pivot](std::string_view in, std::span<char> o) -> std::size_t {
          UErrorCode err = U_ZERO_ERROR;
          char* t = o.data();
          const char* s = in.data();
          UChar* ps = pivot.data();
          UChar* pt = pivot.data();
          ucnv_convertEx(target, source, &t, o.data() + o.size(), &s, in.data() + in.size(),
                         pivot.data(), &ps, &pt, pivot.data() + pivot.size(),
                         /*reset=*/true, /*flush=*/true, &err);
          return U_SUCCESS(err) ? static_cast<std::size_t>(t - o.data()) : kFailed;
        });
  } else {
    state.SkipWithError("ucnv_open failed");
  }
  ucnv_close(target);
  ucnv_close(source);
}

// ucnv_toUChars: bytes -> UTF-16, ICU's native form. Not the same output as
// the others (checked by converting it to UTF-8 once, outside the loop), but
// what an ICU-based application would actually call.
void bench_icu_utf16(benchmark::State& state, const Case* c) {
  const char* enc = icu_name(c->enc);
  UConverter* cnv = enc ? icu_open(enc) : nullptr;
  if (!cnv) {
    state.SkipWithError("ucnv_open failed");
    return;
  }
  // One UChar per input byte is enough for UTF-8, single-byte and the
  // multibyte encodings (a 4-byte GB18030 sequence is at most 2 UChars).
  std::vector<UChar> u16(c->input.size() + 16);
  const auto cap = static_cast<std::int32_t>(u16.size());
  auto to_u16 = [cnv, &u16, cap](std::string_view in) -> std::int32_t {
    UErrorCode err = U_ZERO_ERROR;
    const std::int32_t n = ucnv_toUChars(cnv, u16.data(), cap, in.data(),
                                         static_cast<std::int32_t>(in.size()), &err);
    return U_SUCCESS(err) ? n : -1;
  };
  const std::int32_t n = to_u16(c->input);
  std::string check(c->expected.size() + 16, '\0');
  UErrorCode err = U_ZERO_ERROR;
  std::int32_t len = 0;
  if (n >= 0)
    u_strToUTF8(check.data(), static_cast<std::int32_t>(check.size()), &len, u16.data(), n, &err);
  if (n < 0 || U_FAILURE(err) || std::string_view(check.data(), static_cast<std::size_t>(len)) != c->expected) {
    state.SkipWithError("ucnv_toUChars failed or differs from pgcodec");
  } else {
    const std::string_view in = c->input;
    for (auto _ : state) {
      const char* p = in.data();
      benchmark::DoNotOptimize(p);
      std::int32_t m = to_u16(std::string_view(p, in.size()));
      benchmark::DoNotOptimize(m);
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(in.size()));
  }
  ucnv_close(cnv);
}
#endif

// ---------------------------------------------------------------------------
// Registration.

// `utf8` encoded by pgcodec, which must represent every character of it.
std::string encode_all(pgcodec::Encoding enc, std::string_view text_name, std::string_view utf8) {
  const pgcodec::Codec& c = pgcodec::codec(enc);
  std::string out(c.max_encoded_size(utf8.size()).value(), '\0');
  const pgcodec::Result r = c.encode(utf8, out);
  if (!r.ok()) {
    throw std::runtime_error("text \"" + std::string(text_name) + "\" in " +
                             std::string(c.name()) + ": " +
                             (r.status == pgcodec::Status::Error ? r.error.message()
                                                                 : std::string("encode failed")));
  }
  out.resize(r.written);
  return out;
}

// The longest prefix of `bytes` (in `enc`) of at most `size` bytes that ends
// at a character boundary.
std::size_t char_boundary(pgcodec::Encoding enc, std::string_view bytes, std::size_t size) {
  const pgcodec::Codec& c = pgcodec::codec(enc);
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::size_t n = c.char_length(bytes, at);
    if (n == 0 || at + n > size) break;
    at += n;
  }
  return at;
}

void register_case(const Case& c, bool by_name) {
  const Case* p = &c;
  auto reg = [&c](const char* impl, void (*fn)(benchmark::State&, const Case*), const Case* cp) {
    benchmark::RegisterBenchmark((c.name + "/" + impl).c_str(), fn, cp);
  };
  reg("pgcodec", bench_pgcodec, p);
  if (by_name) reg("pgcodec_by_name", bench_pgcodec_by_name, p);
#ifdef PGCODEC_BENCH_HAVE_ICU
  reg("icu", bench_icu, p);
  if (c.dir == Direction::Decode) reg("icu_utf16", bench_icu_utf16, p);
#endif
  reg("iconv", bench_iconv, p);
}

void register_all() {
  using pgcodec::Encoding;
  struct Text {
    std::string_view name;
    std::string_view unit;
    bool win1252;  // representable in WIN1252
  };
  const Text texts[] = {
      {"ascii", kAsciiText, true},
      {"mixed", kMixedText, false},  // Russian/Greek/CJK
      {"western", kWesternText, true},
  };
  const std::pair<std::string_view, std::size_t> sizes[] = {{"64KiB", kLarge}, {"100B", kSmall}};

  for (const Direction dir : {Direction::Decode, Direction::Encode}) {
    for (const Encoding enc : {Encoding::UTF8, Encoding::WIN1252}) {
      for (const Text& t : texts) {
        if (enc == Encoding::WIN1252 && !t.win1252) continue;
        for (const auto& [size_name, size] : sizes) {
          std::string input;
          if (enc == Encoding::UTF8) {
            input = repeat_to(t.unit, size);
          } else {
            // The WIN1252 bytes are made by pgcodec itself: the UTF-8 text
            // encoded, then cut to the size (any cut is a character boundary).
            std::string bytes = pgcodec::codec(Encoding::WIN1252)
                                    .encode(repeat_to(t.unit, 2 * size));
            bytes.resize(size);
            input = dir == Direction::Decode
                        ? std::move(bytes)
                        : pgcodec::codec(Encoding::WIN1252).decode(bytes);
          }
          const Case& c = add_case(dir, enc, t.name, size_name, std::move(input));
          register_case(c, size == kSmall);  // the lookup cost shows on short strings
        }
      }
    }

    // The multibyte encodings, each on text in its own script, 64 KiB of
    // encoded bytes made by pgcodec (the text encoded, then cut at a
    // character boundary); encode converts the UTF-8 of those same bytes.
    const struct {
      Encoding enc;
      Text text;
    } multibyte[] = {
        {Encoding::SJIS, {"japanese", kJapaneseText, false}},
        {Encoding::EUC_JP, {"japanese", kJapaneseText, false}},
        {Encoding::GBK, {"schinese", kSimplifiedChineseText, false}},
        {Encoding::GB18030, {"schinese", kSimplifiedChineseText, false}},
        {Encoding::BIG5, {"tchinese", kTraditionalChineseText, false}},
        {Encoding::UHC, {"korean", kKoreanText, false}},
    };
    for (const auto& [enc, t] : multibyte) {
      // Each character's encoding is at least 2/3 the length of its UTF-8,
      // so twice the size in UTF-8 is always enough.
      std::string bytes = encode_all(enc, t.name, repeat_to(t.unit, 2 * kLarge));
      bytes.resize(char_boundary(enc, bytes, kLarge));
      std::string input =
          dir == Direction::Decode ? std::move(bytes) : pgcodec::codec(enc).decode(bytes);
      const Case& c = add_case(dir, enc, t.name, "64KiB", std::move(input));
      register_case(c, false);
    }
  }
}

// ---------------------------------------------------------------------------
// The summary after the console table.

class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  using ConsoleReporter::ConsoleReporter;

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    // With --benchmark_repetitions the median is used when it is reported,
    // else the mean of the repetitions.
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      if (r.run_type != Run::RT_Iteration && !median) continue;
      const auto it = r.counters.find("bytes_per_second");
      if (it == r.counters.end()) continue;
      const std::string name = r.run_name.str();
      const std::size_t slash = name.rfind('/');
      if (slash == std::string::npos) continue;
      const std::string key = name.substr(0, slash);
      if (std::find(order_.begin(), order_.end(), key) == order_.end()) order_.push_back(key);
      Cell& cell = rows_[key][name.substr(slash + 1)];
      if (median) {
        cell.median = it->second.value;
      } else {
        cell.sum += it->second.value;
        cell.count += 1;
      }
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    auto& os = GetOutputStream();
    const char* impls[] = {"pgcodec", "pgcodec_by_name", "icu", "icu_utf16", "iconv"};
    char line[256];
    os << "\nSummary: MB/s = 10^6 input bytes per second; ratios = pgcodec (cached) / other\n";
    std::snprintf(line, sizeof line, "%-30s %10s %10s %10s %10s %10s %8s %8s %8s\n", "case",
                  "pgcodec", "by_name", "icu", "icu_utf16", "iconv", "/by_name", "/icu",
                  "/iconv");
    os << line;
    for (const std::string& k : order_) {
      const auto& row = rows_[k];
      auto mbs = [&row](const char* impl) {
        const auto it = row.find(impl);
        if (it == row.end()) return 0.0;
        const Cell& c = it->second;
        return (c.median > 0 ? c.median : c.count ? c.sum / c.count : 0.0) / 1e6;
      };
      double v[5];
      for (std::size_t i = 0; i < 5; ++i) v[i] = mbs(impls[i]);
      std::snprintf(line, sizeof line, "%-30s", k.c_str());
      os << line;
      for (double x : v) {
        if (x > 0) std::snprintf(line, sizeof line, " %10.1f", x);
        else std::snprintf(line, sizeof line, " %10s", "-");
        os << line;
      }
      for (std::size_t i : {std::size_t{1}, std::size_t{2}, std::size_t{4}}) {
        if (v[0] > 0 && v[i] > 0) std::snprintf(line, sizeof line, " %7.2fx", v[0] / v[i]);
        else std::snprintf(line, sizeof line, " %8s", "-");
        os << line;
      }
      os << "\n";
    }
    os.flush();
  }

 private:
  struct Cell {
    double sum = 0;
    int count = 0;
    double median = 0;
  };
  std::map<std::string, std::map<std::string, Cell>> rows_;
  std::vector<std::string> order_;
};

}  // namespace

int main(int argc, char** argv) {
  // Look at the format and colour flags before Initialize consumes them: the
  // summary goes with the console format only, other formats run as usual.
  bool console = true;
  bool color = isatty(STDOUT_FILENO) != 0;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value = [&a](std::string_view flag) -> std::optional<std::string_view> {
      if (a.starts_with(flag) && a.size() > flag.size() && a[flag.size()] == '=')
        return a.substr(flag.size() + 1);
      return std::nullopt;
    };
    if (auto v = value("--benchmark_format")) console = *v == "console";
    if (auto v = value("--benchmark_color"))
      color = *v == "true" || *v == "yes" || *v == "1" || (*v == "auto" && color);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    register_all();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pgcodec_bench: setting up the inputs failed: %s\n", e.what());
    return 1;
  }
  if (console) {
    SummaryReporter reporter(color ? benchmark::ConsoleReporter::OO_ColorTabular
                                   : benchmark::ConsoleReporter::OO_Tabular);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  return 0;
}
