// Unit tests for the code-unit API (Codec::decode_units / encode_units and
// the typed UTF-16 / UTF-32 forms, pgcodec_decode_units /
// pgcodec_encode_units): named cases a reader can check by hand. The
// properties (props/ CodeUnitsEqualUtf8, harness/core/check_units.cpp)
// compare every form with the UTF-8 path on generated input.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernels.hpp"
#include "pgcodec/codec.hpp"
#include "pgcodec/pgcodec.h"
#include "test_util.hpp"

namespace pgcodec {
namespace {

const Codec& named(std::string_view name) { return *find_codec(name); }

TEST(Units, DecodeUtf16AndUtf32) {
  std::u16string u16(8, u'\0');
  Result r = named("SJIS").decode_utf16("\x82\xa0" "a", u16);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.consumed, 3u);
  EXPECT_EQ(u16.substr(0, r.written), u"\u3042a");
  // A code point beyond the BMP: a UTF-16 pair, one UTF-32 unit
  // (GB18030 90 30 81 30 is U+10000).
  r = named("GB18030").decode_utf16("\x90\x30\x81\x30", u16);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(u16.substr(0, r.written), std::u16string(u"\U00010000"));
  std::u32string u32(8, U'\0');
  r = named("GB18030").decode_utf32("\x90\x30\x81\x30", u32);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(u32.substr(0, r.written), U"\U00010000");
}

// UTF-8 into a buffer with exactly the room the text needs (as a host that
// counts the UTF-16 length first sizes it), and one unit less: the same
// units, status and error as into a buffer with a unit for every byte,
// under every kernel, in every form the text fits, nothing stored past the
// buffer. (With less room than bytes left the fast loop runs on cuts of the
// input: src/codecs/utf8.cpp, decode_to; a cut can split a character.)
TEST(Units, Utf8IntoAnExactBufferIsTheSame) {
  const Codec& c = named("UTF8");
  // Characters of 1 to 4 bytes in an order that puts every length at every
  // position relative to a cut, then text that is one length only.
  const std::string pieces[] = {"a", "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80"};
  std::vector<std::string> texts;
  for (int kinds : {1, 2, 3, 4}) {
    std::string mixed, one;
    for (int i = 0; i < 1500; ++i) mixed += pieces[(i * 7 + i / 5) % kinds];
    for (int i = 0; i < 700; ++i) one += pieces[kinds - 1];
    texts.push_back(mixed);
    texts.push_back(one);
    texts.push_back(mixed + "\xff" + one);  // an error far in
  }
  for (const kernels::Kernel& k : kernels::available()) {
    test::ActiveKernel on(k);
    for (const std::string& text : texts) {
      for (const UnitForm f : {UnitForm::Utf16, UnitForm::Utf32, UnitForm::Ucs2, UnitForm::Latin1}) {
        const std::size_t z = f == UnitForm::Latin1 ? 1 : f == UnitForm::Utf32 ? 4 : 2;
        const char32_t limit = f == UnitForm::Latin1 ? 0xFF : f == UnitForm::Ucs2 ? 0xFFFF : 0x10FFFF;
        std::vector<char> big(text.size() * z);
        const Result want = c.decode_units(text, {big.data(), text.size(), f, limit});
        if (want.status == Status::Wider) continue;  // the text does not fit the form
        for (const std::size_t room : {want.written, want.written - 1}) {
          std::vector<char> buf((room + 16) * z, '\x5a');
          const Result got = c.decode_units(text, {buf.data(), room, f, limit});
          const std::string what = std::string(k.name) + " form " + std::to_string(static_cast<int>(f)) +
                                   " room " + std::to_string(room) + " of " + std::to_string(want.written);
          ASSERT_LE(got.written, room) << what;
          EXPECT_EQ(std::string(buf.data(), got.written * z), std::string(big.data(), got.written * z)) << what;
          for (std::size_t b = room * z; b < buf.size(); ++b) ASSERT_EQ(buf[b], '\x5a') << what << " byte " << b;
          if (room == want.written) {
            EXPECT_EQ(got.status, want.status) << what;
            EXPECT_EQ(got.consumed, want.consumed) << what;
            EXPECT_EQ(got.written, want.written) << what;
            EXPECT_EQ(got.error.offset, want.error.offset) << what;
          } else if (want.status == Status::Ok) {
            EXPECT_EQ(got.status, Status::OutputFull) << what;
          }
        }
      }
    }
  }
}

TEST(Units, DecodeErrorsAreTheUtf8Paths) {
  std::u16string u16(8, u'\0');
  const Result r = named("SJIS").decode_utf16("a\x82\x20", u16);
  ASSERT_EQ(r.status, Status::Error);
  EXPECT_EQ(r.consumed, 1u);
  EXPECT_EQ(r.written, 1u);
  EXPECT_EQ(r.error.offset, 1u);
  EXPECT_EQ(r.error.message(), "invalid byte sequence for encoding \"SJIS\": 0x82 0x20");
  const Result x = named("SJIS").decode_utf16("a\x82\x20", u16, ErrorMode::Replace);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(u16.substr(0, x.written), u"a\uFFFD ");
}

TEST(Units, WiderStopsBeforeTheFirstCodePointAboveTheLimit) {
  // WIN1252: 'a', e9 (U+00E9), 80 (U+20AC).
  const Codec& c = named("WIN1252");
  std::uint8_t latin1[8];
  Result r = c.decode_units("a\xe9\x80", {latin1, 8, UnitForm::Latin1, 0x7F});
  EXPECT_EQ(r.status, Status::Wider);
  EXPECT_EQ(r.consumed, 1u);
  EXPECT_EQ(r.written, 1u);
  r = c.decode_units("a\xe9\x80", {latin1, 8, UnitForm::Latin1, 0xFF});
  EXPECT_EQ(r.status, Status::Wider);
  EXPECT_EQ(r.consumed, 2u);
  EXPECT_EQ(latin1[1], 0xE9);
  char16_t ucs2[8];
  r = c.decode_units("a\xe9\x80", {ucs2, 8, UnitForm::Ucs2, 0xFFFF});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ucs2[2], u'\u20AC');
  // Replace mode's U+FFFD is above a Latin-1 limit too.
  r = named("SJIS").decode_units("\xff", {latin1, 8, UnitForm::Latin1, 0xFF}, ErrorMode::Replace);
  EXPECT_EQ(r.status, Status::Wider);
  EXPECT_EQ(r.consumed, 0u);
}

TEST(Units, EncodeFromEveryForm) {
  std::string out(16, '\0');
  Result r = named("SJIS").encode_utf16(u"\u3042a", out);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(out.substr(0, r.written), "\x82\xa0" "a");
  r = named("GB18030").encode_utf32(U"\U00010000", out);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(out.substr(0, r.written), "\x90\x30\x81\x30");
  const std::uint8_t latin1[] = {'a', 0xE9};
  r = named("WIN1252").encode_units({latin1, 2, UnitForm::Latin1}, out);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(out.substr(0, r.written), "a\xe9");
}

TEST(Units, EncodeErrorsCountUnitsAndQuoteUtf8) {
  std::string out(16, '\0');
  // U+10000 has no LATIN1 byte: offset 0, skip its two units.
  Result r = named("LATIN1").encode_utf16(u"\U00010000\u20AC", out);
  ASSERT_EQ(r.status, Status::Error);
  EXPECT_EQ(r.error.kind, ErrorKind::NoEquivalent);
  EXPECT_EQ(r.error.offset, 0u);  // U+10000 comes first and has no LATIN1 byte either
  EXPECT_EQ(r.error.skip, 2u);    // its two units
  EXPECT_EQ(r.error.message(),
            "character with byte sequence 0xf0 0x90 0x80 0x80 in encoding \"UTF8\" has no equivalent in "
            "encoding \"LATIN1\"");
  // A lone surrogate is the invalid UTF-8 PostgreSQL would be sent for it.
  const char16_t lone[] = {u'a', 0xD800, u'b'};
  r = named("SJIS").encode_utf16(std::u16string_view(lone, 3), out);
  ASSERT_EQ(r.status, Status::Error);
  EXPECT_EQ(r.error.offset, 1u);
  EXPECT_EQ(r.error.skip, 1u);
  EXPECT_EQ(r.error.message(), "invalid byte sequence for encoding \"UTF8\": 0xed 0xa0 0x80");
  // Replace mode: one '?' for it.
  r = named("SJIS").encode_utf16(std::u16string_view(lone, 3), out, ErrorMode::Replace);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(out.substr(0, r.written), "a?b");
}

TEST(Units, EncodePartialHoldsBackWhatAPairCouldTake) {
  // SHIFT_JIS_2004: U+304B U+309A is one code, 82 F5; U+304B alone is 82 A9.
  std::string out(16, '\0');
  const Codec& c = named("SHIFT_JIS_2004");
  Result r = c.encode_units({u"\u304B", 1, UnitForm::Utf16}, out, ErrorMode::Strict, false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.consumed, 0u);  // held back: the next chunk may start with U+309A
  r = c.encode_utf16(u"\u304B\u309A", out);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(out.substr(0, r.written), "\x82\xf5");
}

// encode_fuzzer/b9d91e4cd783e65e: a UTF-16 chunk of tone letters U+02E9
// after U+2A61A held back 12 units where encode_partial of the same text
// held back 28 characters; both now hold back only the last letter, which a
// following U+02E5 could still take.
TEST(Regression, ToneLettersHoldBackOnlyTheOpenEnd) {
  for (const char* name : {"EUC_JIS_2004", "SHIFT_JIS_2004"}) {
    const Codec& c = named(name);
    std::u16string text = u"a";
    std::string utf8 = "a";
    for (int i = 0; i < 30; ++i) text += u'\u02E9', utf8 += "\xCB\xA9";
    text += u"\U0002A61A";
    utf8 += "\xF0\xAA\x98\x9A";
    for (int i = 0; i < 28; ++i) text += u'\u02E9', utf8 += "\xCB\xA9";
    std::string out(256, '\0');
    const Result u = c.encode_units({text.data(), text.size(), UnitForm::Utf16}, out, ErrorMode::Strict, false);
    ASSERT_TRUE(u.ok()) << name;
    EXPECT_EQ(u.consumed, text.size() - 1) << name;
    const Result p = c.encode_partial(utf8, out);
    ASSERT_TRUE(p.ok()) << name;
    EXPECT_EQ(p.consumed, utf8.size() - 2) << name;
  }
}

TEST(Units, CApi) {
  const pgcodec_codec* c = pgcodec_find("SJIS");
  char16_t u16[4];
  pgcodec_result r = pgcodec_decode_units(c, "\x82\xa0", 2, u16, 4, PGCODEC_UTF16, 0x10FFFF, PGCODEC_STRICT, 1);
  ASSERT_EQ(r.status, PGCODEC_OK);
  EXPECT_EQ(r.written, 1u);
  EXPECT_EQ(u16[0], u'\u3042');
  r = pgcodec_decode_units(c, "\x82\xa0", 2, u16, 4, PGCODEC_LATIN1, 0xFF, PGCODEC_STRICT, 1);
  EXPECT_EQ(r.status, PGCODEC_WIDER);
  r = pgcodec_decode_units(c, "\x82\xa0", 2, u16, 4, 7, 0xFF, PGCODEC_STRICT, 1);
  EXPECT_EQ(r.status, PGCODEC_INVALID_ARGUMENT);
  // Misaligned UTF-16 output is refused, not written.
  alignas(4) unsigned char raw[16];
  r = pgcodec_decode_units(c, "\x82\xa0", 2, raw + 1, 4, PGCODEC_UTF16, 0x10FFFF, PGCODEC_STRICT, 1);
  EXPECT_EQ(r.status, PGCODEC_INVALID_ARGUMENT);
  char out[8];
  r = pgcodec_encode_units(c, u"\u3042", 1, PGCODEC_UTF16, out, sizeof out, PGCODEC_STRICT, 1);
  ASSERT_EQ(r.status, PGCODEC_OK);
  EXPECT_EQ(std::string(out, r.written), "\x82\xa0");
}

}  // namespace
}  // namespace pgcodec
