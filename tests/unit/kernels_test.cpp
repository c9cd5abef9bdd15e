// The kernel list (src/kernels/kernels.cpp): order, lookup, the active
// kernel and PGCODEC_FORCE_IMPL.
#include "kernels/kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>
#include <set>
#include <string>

#include "codecs/codec_ops.hpp"
#include "core/page_end.hpp"
#include "pgcodec/codec.hpp"
#include "rules/utf8.hpp"
#include "test_util.hpp"

namespace {

namespace kernels = pgcodec::kernels;

TEST(Kernels, ScalarFirstNamesUniqueAndFindable) {
  const auto all = kernels::available();
  ASSERT_FALSE(all.empty());
  EXPECT_STREQ(all.front().name, "scalar");
  EXPECT_FALSE(all.front().table_shortcuts) << "scalar is the plain twin of every fast path";
  std::set<std::string> names;
  for (const auto& k : all) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_EQ(kernels::find(k.name), &k);
    EXPECT_NE(k.ascii_run, nullptr);
  }
  for (const auto& k : all.subspan(1)) EXPECT_TRUE(k.table_shortcuts) << k.name;
  for (const auto& k : all) EXPECT_NE(k.utf8_valid_run, nullptr) << k.name;
#if defined(__SSE2__)
  ASSERT_NE(kernels::find("sse2"), nullptr);
  EXPECT_TRUE(kernels::find("sse2")->table_shortcuts);
#endif
#if defined(__x86_64__)
  // Listed exactly when the CPU (and the OS) can run them.
  EXPECT_EQ(kernels::find("avx2") != nullptr, __builtin_cpu_supports("avx2") != 0);
  EXPECT_EQ(kernels::find("avx512") != nullptr,
            __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"));
#endif
  EXPECT_EQ(kernels::find("no-such-kernel"), nullptr);
  EXPECT_EQ(kernels::find(""), nullptr);
}

// Run by ctest with PGCODEC_FORCE_IMPL set to each kernel's name (and to a
// bad name, which must abort with a message); without it, the last kernel.
TEST(Kernels, InOrderOfPreference) {
  const std::string order[] = {"scalar", "sse2", "avx2", "avx512"};
  std::size_t at = 0;
  for (const auto& k : kernels::available()) {
    while (at < std::size(order) && order[at] != k.name) ++at;
    ASSERT_LT(at, std::size(order)) << k.name << " out of order or unknown";
  }
}

TEST(Kernels, ActiveFollowsForceImpl) {
  const char* force = std::getenv("PGCODEC_FORCE_IMPL");
  const auto& active = kernels::active();
  if (force && *force) {
    EXPECT_STREQ(active.name, force);
  } else {
    EXPECT_EQ(&active, &kernels::available().back());
  }
}

TEST(Kernels, SetActiveSwitchesEveryConversion) {
  const auto& saved = kernels::active();
  for (const auto& k : kernels::available()) {
    pgcodec::test::ActiveKernel scope(k);
    EXPECT_EQ(&kernels::active(), &k);
    EXPECT_EQ(pgcodec::codec(pgcodec::Encoding::SJIS).decode("a\x82\xa0"), "a\xe3\x81\x82");
  }
  EXPECT_EQ(&kernels::active(), &saved);
}

// Kernel::copy_until_nul (LATIN1's copy) stops at a NUL anywhere: in the
// head before the output's 64-byte (AVX-512) or 32-byte (AVX2) boundary,
// in each of the four blocks of the unrolled loop, in the one-block loop
// and in the tail (the AVX2 kernel's last block, the 32 bytes that end at
// n), at every output alignment, from inputs too short for the unrolled
// loop up; nothing is stored at or after the NUL.
TEST(Kernels, CopyUntilNulStopsAtEveryNul) {
  for (const auto& k : kernels::available()) {
    if (!k.copy_until_nul) continue;
    for (const std::size_t n : {std::size_t{100}, std::size_t{300}, std::size_t{700}}) {
      std::vector<unsigned char> src(n);
      for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<unsigned char>(1 + i % 255);
      for (const std::size_t shift : {std::size_t{0}, std::size_t{8}, std::size_t{63}}) {
        for (std::size_t at = 0; at <= n; ++at) {
          std::vector<unsigned char> in = src;
          if (at < n) in[at] = 0;
          std::vector<unsigned char> out(n + 128, 0xEE);
          unsigned char* dst = out.data() + ((64 - reinterpret_cast<std::uintptr_t>(out.data()) % 64) % 64) + shift;
          ASSERT_EQ(k.copy_until_nul(in.data(), dst, n), at) << k.name << " n=" << n << " shift=" << shift;
          ASSERT_EQ(std::memcmp(dst, in.data(), at), 0) << k.name << " at=" << at;
          for (std::size_t i = at; i < n; ++i) ASSERT_EQ(dst[i], 0xEE) << k.name << " at=" << at << " i=" << i;
        }
      }
    }
  }
}

// single_byte_units against the loop it stands for, on a table with every
// kind of entry (ASCII as itself, high bytes mapped at most U+00FF, above
// it, unmapped as 0): inputs of 0 to 100 bytes (whole 32-byte blocks and
// masked tails) with a NUL, an unmapped byte or one above the limit at every
// position, into 1-, 2- and 4-byte units and each limit a form has. It
// converts exactly the bytes before the first such byte, each to its table
// entry, and stores nothing after them.
TEST(Kernels, SingleByteUnitsStopsWhereTheLoopDoes) {
  char16_t cp[256];
  for (int b = 0; b < 256; ++b)
    cp[b] = static_cast<char16_t>(b < 0x80 ? b : b % 7 == 0 ? 0 : b % 3 == 0 ? 0x2000 + b : 0xA0 + b % 0x60);
  constexpr unsigned char kStops[] = {0x00, 0x85 /* unmapped */, 0x81 /* U+2081 */};
  for (const auto& k : kernels::available()) {
    if (!k.single_byte_units) continue;
    for (const unsigned unit : {1u, 2u, 4u}) {
      for (const char32_t limit : {char32_t{0xFF}, char32_t{0xFFFF}, char32_t{0x10FFFF}}) {
        if (unit == 1 && limit > 0xFF) continue;
        for (std::size_t n = 0; n <= 100; ++n) {
          std::vector<unsigned char> src(n);
          // Text the limit lets through: ASCII and entries at most U+00FF,
          // or every mapped byte when the limit allows U+2000 and up.
          for (std::size_t i = 0; i < n; ++i) {
            unsigned b = 0x80 + static_cast<unsigned>(i * 37 % 128);
            if (cp[b] == 0 || cp[b] > limit) b = 0x20 + static_cast<unsigned>(i % 0x5F);
            src[i] = static_cast<unsigned char>(b);
          }
          for (const unsigned char stop : kStops) {
            if (stop == 0x81 && limit >= 0xFFFF) continue;  // not a stop there
            for (std::size_t at = 0; at <= n; ++at) {
              std::vector<unsigned char> in = src;
              if (at < n) in[at] = stop;
              std::vector<unsigned char> out((n + 8) * unit, 0xEE);
              const std::size_t got = k.single_byte_units(cp, in.data(), n, out.data(), unit, limit);
              ASSERT_EQ(got, at) << k.name << " unit=" << unit << " n=" << n << " stop=" << int{stop};
              for (std::size_t i = 0; i < at; ++i) {
                std::uint32_t u = 0;
                std::memcpy(&u, out.data() + i * unit, unit);  // little-endian
                ASSERT_EQ(u, std::uint32_t{cp[in[i]]}) << k.name << " unit=" << unit << " i=" << i;
              }
              for (std::size_t i = at * unit; i < out.size(); ++i)
                ASSERT_EQ(out[i], 0xEE) << k.name << " unit=" << unit << " n=" << n << " at=" << at;
            }
          }
        }
      }
    }
  }
}

// utf8_to_units32 on valid UTF-8 mixing one- to four-byte characters in
// proportions from all-ASCII to all-emoji: it decodes whole characters
// only, each to its code point, and leaves fewer than a block's 67 bytes.
TEST(Kernels, Utf8ToUnits32DecodesWholeCharacters) {
  std::uint32_t seed = 12345;
  const auto next = [&seed] { return seed = seed * 1103515245u + 12345u, seed >> 8; };
  for (const auto& k : kernels::available()) {
    if (!k.utf8_to_units32) continue;
    for (int round = 0; round < 400; ++round) {
      const unsigned weights = next();  // each length's share of the characters
      std::string s;
      std::vector<std::size_t> starts;
      std::vector<char32_t> cps;
      const std::size_t want = next() % 400;
      while (s.size() < want) {
        starts.push_back(s.size());
        const unsigned kind = (next() % 16) < (weights & 15) ? 0 : 1 + next() % 3;  // ASCII or 2-4 bytes
        const char32_t c = kind == 0   ? 1 + next() % 0x7F
                           : kind == 1 ? 0x80 + next() % 0x780
                           : kind == 2 ? 0x800 + next() % 0xD000  // below the surrogates
                                       : 0x10000 + next() % 0x100000;
        pgcodec::detail::append_utf8(s, c);
        cps.push_back(c);
      }
      starts.push_back(s.size());
      std::vector<char32_t> out(s.size() + 16, 0xEEEEEEEE);
      std::size_t written = 0;
      const std::size_t took = k.utf8_to_units32(reinterpret_cast<const unsigned char*>(s.data()), s.size(),
                                                 out.data(), written);
      const auto at = std::find(starts.begin(), starts.end(), took);
      ASSERT_NE(at, starts.end()) << k.name << " stopped inside a character at " << took;
      const auto chars = static_cast<std::size_t>(at - starts.begin());
      ASSERT_EQ(written, chars) << k.name;
      for (std::size_t i = 0; i < chars; ++i) ASSERT_EQ(out[i], cps[i]) << k.name << " unit " << i;
      ASSERT_LT(s.size() - took, 67u) << k.name << " left a whole block";
    }
  }
}

// units32_to_utf8 on code points of every UTF-8 length, with a unit that is
// no character (NUL, a surrogate, above U+10FFFF) at every position of
// 0-100 units or none: it encodes whole blocks before that unit, up to the
// last block before it, each unit's UTF-8 exactly, and stores nothing after
// the bytes it reports.
TEST(Kernels, Units32ToUtf8StopsBeforeNoCharacter) {
  std::uint32_t seed = 777;
  const auto next = [&seed] { return seed = seed * 1103515245u + 12345u, seed >> 8; };
  constexpr char32_t kNoCharacter[] = {0, 0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF};
  for (const auto& k : kernels::available()) {
    if (!k.units32_to_utf8) continue;
    for (std::size_t n = 0; n <= 100; ++n) {
      std::vector<char32_t> src(n);
      for (auto& c : src) {
        const unsigned kind = next() % 4;
        c = kind == 0 ? 1 + next() % 0x7F
            : kind == 1 ? 0x80 + next() % 0x780
            : kind == 2 ? 0xE000 + next() % 0x2000
                        : 0x10000 + next() % 0x100000;
      }
      for (std::size_t at = 0; at <= n; ++at) {
        std::vector<char32_t> in = src;
        if (at < n) in[at] = kNoCharacter[next() % std::size(kNoCharacter)];
        std::vector<char> out(4 * n + 64, '\x5A');
        std::size_t written = 0;
        const std::size_t took = k.units32_to_utf8(in.data(), n, out.data(), written);
        // Whole blocks (16 units in the AVX-512 kernel, 8 in the AVX2 one)
        // up to the unit that is no character, and no further.
        ASSERT_LE(took, std::min(at, n)) << k.name << " n=" << n << " at=" << at;
        ASSERT_LT(std::min(at, n) - took, 16u) << k.name << " n=" << n << " at=" << at;
        ASSERT_EQ(took % 8, 0u) << k.name << " n=" << n << " at=" << at;
        std::string want;
        for (std::size_t i = 0; i < took; ++i) pgcodec::detail::append_utf8(want, in[i]);
        ASSERT_EQ(std::string(out.data(), written), want) << k.name << " n=" << n << " at=" << at;
        for (std::size_t i = written; i < out.size(); ++i) ASSERT_EQ(out[i], '\x5A') << k.name << " i=" << i;
      }
    }
  }
}

// utf8_to_units16 on valid UTF-8 mixing one- to three-byte characters in
// proportions from all-ASCII to all-CJK, now and then a four-byte one: it
// decodes whole characters only, each to its code point, stops before a
// four-byte character, and leaves fewer than a block and its lookahead
// (64 + 2 bytes) before one or before the end.
TEST(Kernels, Utf8ToUnits16DecodesWholeCharacters) {
  std::uint32_t seed = 4242;
  const auto next = [&seed] { return seed = seed * 1103515245u + 12345u, seed >> 8; };
  for (const auto& k : kernels::available()) {
    if (!k.utf8_to_units16) continue;
    for (int round = 0; round < 600; ++round) {
      const unsigned weights = next();  // each length's share of the characters
      const bool emoji = round % 3 == 0;
      std::string s;
      std::vector<std::size_t> starts;
      std::vector<char32_t> cps;
      const std::size_t want = next() % 400;
      while (s.size() < want) {
        starts.push_back(s.size());
        const unsigned kind = (next() % 16) < (weights & 15) ? 0 : 1 + next() % 2;  // ASCII or 2-3 bytes
        char32_t c = kind == 0   ? 1 + next() % 0x7F
                     : kind == 1 ? 0x80 + next() % 0x780
                                 : 0x800 + next() % 0xD000;  // below the surrogates
        if (emoji && next() % 64 == 0) c = 0x10000 + next() % 0x100000;
        pgcodec::detail::append_utf8(s, c);
        cps.push_back(c);
      }
      starts.push_back(s.size());
      std::vector<char16_t> out(s.size() + 16, 0xEEEE);
      std::size_t written = 0;
      const std::size_t took =
          k.utf8_to_units16(reinterpret_cast<const unsigned char*>(s.data()), s.size(), out.data(), written);
      const auto at = std::find(starts.begin(), starts.end(), took);
      ASSERT_NE(at, starts.end()) << k.name << " stopped inside a character at " << took;
      const auto chars = static_cast<std::size_t>(at - starts.begin());
      ASSERT_EQ(written, chars) << k.name;
      for (std::size_t i = 0; i < chars; ++i) {
        ASSERT_LT(cps[i], 0x10000u) << k.name << " took a four-byte character at unit " << i;
        ASSERT_EQ(out[i], cps[i]) << k.name << " unit " << i;
      }
      std::size_t stop = s.size();  // the first four-byte character's start, or the end
      for (std::size_t c = chars; c < cps.size(); ++c)
        if (cps[c] >= 0x10000) {
          stop = starts[c];
          break;
        }
      ASSERT_LT(stop - took, 66u) << k.name << " left a whole block";
    }
  }
}

// units16_to_utf8 on units of every UTF-8 length below U+10000, with a unit
// that is no character (NUL, a surrogate) at every position of 0-100 units
// or none: it encodes whole blocks before that unit, up to the last block
// before it, each unit's UTF-8 exactly, and stores nothing after the bytes
// it reports.
TEST(Kernels, Units16ToUtf8StopsBeforeNoCharacter) {
  std::uint32_t seed = 991;
  const auto next = [&seed] { return seed = seed * 1103515245u + 12345u, seed >> 8; };
  constexpr char16_t kNoCharacter[] = {0, 0xD800, 0xDBFF, 0xDC00, 0xDFFF};
  for (const auto& k : kernels::available()) {
    if (!k.units16_to_utf8) continue;
    for (std::size_t n = 0; n <= 100; ++n) {
      std::vector<char16_t> src(n);
      const unsigned mix = next() % 4;  // all three-byte (CJK) now and then, else a mix
      for (auto& c : src) {
        const unsigned kind = mix == 0 ? 2 : next() % 3;
        c = static_cast<char16_t>(kind == 0   ? 1 + next() % 0x7F
                                  : kind == 1 ? 0x80 + next() % 0x780
                                              : (next() % 2 ? 0x800 + next() % 0xD000 : 0xE000 + next() % 0x2000));
      }
      for (std::size_t at = 0; at <= n; ++at) {
        std::vector<char16_t> in = src;
        if (at < n) in[at] = kNoCharacter[next() % std::size(kNoCharacter)];
        std::vector<char> out(3 * n + 64, '\x5A');
        std::size_t written = 0;
        const std::size_t took = k.units16_to_utf8(in.data(), n, out.data(), written);
        ASSERT_LE(took, std::min(at, n)) << k.name << " n=" << n << " at=" << at;
        ASSERT_LT(std::min(at, n) - took, 16u) << k.name << " n=" << n << " at=" << at;
        ASSERT_EQ(took % 8, 0u) << k.name << " n=" << n << " at=" << at;
        std::string want;
        for (std::size_t i = 0; i < took; ++i) pgcodec::detail::append_utf8(want, in[i]);
        ASSERT_EQ(std::string(out.data(), written), want) << k.name << " n=" << n << " at=" << at;
        for (std::size_t i = written; i < out.size(); ++i) ASSERT_EQ(out[i], '\x5A') << k.name << " i=" << i;
      }
    }
  }
}

// The multibyte family's blocks (Kernel::two_byte_decode, or the fast
// loop's scalar block where a kernel has none) against the scalar kernel,
// which has neither: texts of ASCII words and two-byte characters (SJIS's
// half-width katakana too) shifted by 0-69 bytes, so that leads fall on
// every byte of a 64-byte block (62 and 63, whose trails are in the next;
// EUC_JP's three-byte codes likewise), with a character the blocks do not
// take (NUL, a four-byte code, an invalid pair or triple, a lead with no
// row, a wide entry, a code point above a Latin-1 limit) at a place near
// a block's edge or none, decoded to UTF-8 and to Latin-1, UCS-2 and
// UTF-32 units, strict and replacing, with room for all or part of the
// output: the same Result and output.
TEST(Kernels, TwoByteBlocksDecodeAsTheLoop) {
  struct Case {
    pgcodec::Encoding e;
    const char* chars;  // UTF-8 of the two-byte (and single) characters to mix
    std::vector<std::string> stops;  // encoded bytes the blocks stop before
  };
  using pgcodec::Encoding;
  const std::vector<Case> cases = {
      {Encoding::SJIS, "日本語の文字ｶﾀｶﾅ表能ソ", {std::string("\0", 1), "\x85\x40", "\xFF", "\x81"}},
      {Encoding::EUC_JP, "日本語の文字表能ソ丂丄ｶ",  // 丂 丄: JIS X 0212, 8F and two bytes
       {std::string("\0", 1), "\xA9\xA1", "\x8E\xB6", "\x8F\xB0", "\x8F\x8F\xB0\xA1", "\xB0\x8F\xB0\xA1",
        "\x8F\xA1\xA1" /* no character */, std::string("\x8F\xB0\0", 3)}},
      {Encoding::EUC_JIS_2004, "日本語の文字表能ソ𠂉丂ｶ",  // 𠂉 丂: plane 2, 8F and two bytes
       {std::string("\0", 1), "\x8F\xA1", "\xA4\xAB\xA1\xF0" /* a pair, two code points */, "\x8F\xFE\xFE"}},
      {Encoding::BIG5, "中文字資料庫表", {std::string("\0", 1), "\xF9\xFE", "\xA3\x40\x80", "\xFF"}},
      {Encoding::GB18030, "中文字资料库", {std::string("\0", 1), "\x81\x30\x81\x30", "\x95\x32\x82\x36", "\x80"}},
      {Encoding::EUC_KR, "한국어자료", {std::string("\0", 1), "\xA1\x41", "\xC9\xA1"}},
      {Encoding::UHC, "한국어자료똠", {std::string("\0", 1), "\xC9\xA1\x20", "\x80"}},
  };
  std::uint32_t seed = 4242;
  const auto next = [&seed] { return seed = seed * 1103515245u + 12345u, seed >> 8; };
  const auto& scalar = kernels::available().front();
  for (const Case& c : cases) {
    const pgcodec::Codec& codec = pgcodec::codec(c.e);
    std::vector<std::string> chars;  // each character's encoded bytes
    for (std::size_t i = 0; i < std::strlen(c.chars);) {
      std::size_t len = 1;
      while (i + len < std::strlen(c.chars) && (c.chars[i + len] & 0xC0) == 0x80) ++len;
      chars.push_back(codec.encode(std::string_view(c.chars + i, len)));
      i += len;
    }
    std::string base;
    while (base.size() < 400) {
      const unsigned words = 1 + next() % 6;
      for (unsigned j = 0; j < words; ++j) base += chars[next() % chars.size()];
      base += next() % 3 ? " " : ", ab ";
    }
    for (std::size_t shift = 0; shift < 70; ++shift) {
      for (std::size_t stop = 0; stop <= c.stops.size(); ++stop) {
        std::string in = std::string(shift, 'a') + base;
        if (stop < c.stops.size()) in.insert(shift + 60 + next() % 90, c.stops[stop]);
        for (const auto mode : {pgcodec::ErrorMode::Strict, pgcodec::ErrorMode::Replace}) {
          std::string want_utf8;
          pgcodec::Result want;
          {
            pgcodec::test::ActiveKernel scope(scalar);
            want_utf8.assign(in.size() * 3 + 8, '\0');
            want = codec.decode(in, want_utf8, mode);
          }
          for (const auto& k : kernels::available().subspan(1)) {
            pgcodec::test::ActiveKernel scope(k);
            const std::string what = std::string(k.name) + " " + std::string(codec.name()) + " shift=" +
                                     std::to_string(shift) + " stop=" + std::to_string(stop);
            for (const std::size_t room : {in.size() * 3 + 8, std::size_t{150}, std::size_t{230}}) {
              std::string got(room, '\0');
              pgcodec::Result r;
              std::string ref = want_utf8;
              pgcodec::Result rr = want;
              if (room != in.size() * 3 + 8) {
                pgcodec::test::ActiveKernel plain(scalar);
                ref.assign(room, '\0');
                rr = codec.decode(in, ref, mode);
              }
              r = codec.decode(in, got, mode);
              ASSERT_EQ(r.status, rr.status) << what << " room=" << room;
              ASSERT_EQ(r.consumed, rr.consumed) << what << " room=" << room;
              ASSERT_EQ(r.written, rr.written) << what << " room=" << room;
              ASSERT_EQ(r.error.offset, rr.error.offset) << what;
              ASSERT_EQ(got.substr(0, r.written), ref.substr(0, rr.written)) << what << " room=" << room;
            }
            for (const auto form : {pgcodec::UnitForm::Latin1, pgcodec::UnitForm::Ucs2, pgcodec::UnitForm::Utf32}) {
              const char32_t limit = form == pgcodec::UnitForm::Latin1 ? 0xFF
                                     : form == pgcodec::UnitForm::Ucs2 ? 0xFFFF
                                                                       : 0x10FFFF;
              for (const std::size_t room : {in.size() + 8, std::size_t{100}}) {
                std::vector<char32_t> got(room + 1, 0xEEEEEEEE), ref(room + 1, 0xEEEEEEEE);
                pgcodec::Result r, rr;
                {
                  pgcodec::test::ActiveKernel plain(scalar);
                  rr = codec.decode_units(in, {ref.data(), room, form, limit}, mode);
                }
                r = codec.decode_units(in, {got.data(), room, form, limit}, mode);
                ASSERT_EQ(r.status, rr.status) << what << " form=" << int(form) << " room=" << room;
                ASSERT_EQ(r.consumed, rr.consumed) << what << " form=" << int(form) << " room=" << room;
                ASSERT_EQ(r.written, rr.written) << what << " form=" << int(form) << " room=" << room;
                const std::size_t unit = form == pgcodec::UnitForm::Latin1 ? 1 : form == pgcodec::UnitForm::Ucs2 ? 2 : 4;
                ASSERT_EQ(std::memcmp(got.data(), ref.data(), r.written * unit), 0)
                    << what << " form=" << int(form) << " room=" << room;
              }
            }
          }
        }
      }
    }
  }
}

// The multibyte family's encode blocks (Kernel::two_byte_encode) against
// the scalar kernel, which has none: code units of ASCII words and
// characters with one-, two- and three-byte codes, shifted by 0-40 units
// so that every character falls on every lane of a 32-unit block, with a
// unit the blocks do not take (NUL, a lone surrogate, a character with no
// code or with a code outside the pages, one above U+FFFF, the second of
// a pair after any character) near a block's edge or none, from UCS-2,
// UTF-16 and UTF-32, strict and replacing, with room for all or part of
// the output: the same Result and bytes.
TEST(Kernels, TwoByteBlocksEncodeAsTheLoop) {
  struct Case {
    pgcodec::Encoding e;
    std::u32string chars;  // characters with codes in the pages
    std::u32string stops;  // units the blocks stop before
  };
  using pgcodec::Encoding;
  const std::vector<Case> cases = {
      {Encoding::SJIS, U"日本語の文字ｶﾀｶﾅ表能ソ", {0, 0xD800, U'한', U'😀'}},
      {Encoding::EUC_JP, U"日本語の文字表能ソ丂丄", {0, 0xDC00, U'한', U'ｶ'}},  // 丂 丄: JIS X 0212, 3 bytes
      {Encoding::EUC_JIS_2004, U"かきくけこ日本語𠂉丂ｶ", {0, 0x309A, 0x300, 0xDC00}},  // 𠂉 丂: plane 2, 3 bytes
      {Encoding::SHIFT_JIS_2004, U"かきくけこ日本語𠂉丂ｶ", {0, 0x309A, 0x2E9, U'😀'}},
      {Encoding::BIG5, U"中文字資料庫表", {0, U'한', U'€'}},
      {Encoding::GB18030, U"中文字资料库", {0, U'한' /* four bytes */, U'😀', 0xDFFF}},
      {Encoding::EUC_TW, U"中文字資料庫乂乜丏", {0, U'한', 0xD800}},  // 乂 乜 丏: CNS plane 2, 4 bytes
      {Encoding::EUC_KR, U"한국어자료", {0, U'똠' /* no code */, U'日'}},
      {Encoding::UHC, U"한국어자료똠", {0, U'😀'}},
  };
  std::uint32_t seed = 99;
  const auto next = [&seed] { return seed = seed * 1103515245u + 12345u, seed >> 8; };
  const auto& scalar = kernels::available().front();
  for (const Case& c : cases) {
    const pgcodec::Codec& codec = pgcodec::codec(c.e);
    std::u32string base;
    while (base.size() < 300) {
      const unsigned words = 1 + next() % 8;
      for (unsigned j = 0; j < words; ++j) base += c.chars[next() % c.chars.size()];
      base += next() % 3 ? U" " : U", ab ";
    }
    for (std::size_t shift = 0; shift < 40; ++shift) {
      for (std::size_t stop = 0; stop <= c.stops.size(); ++stop) {
        std::u32string text = std::u32string(shift, U'a') + base;
        if (stop < c.stops.size()) text.insert(shift + 20 + next() % 100, 1, c.stops[stop]);
        std::u16string ucs2;
        for (const char32_t cp : text) {
          if (cp > 0xFFFF) {
            ucs2 += static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
            ucs2 += static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
          } else {
            ucs2 += static_cast<char16_t>(cp);
          }
        }
        for (const auto form : {pgcodec::UnitForm::Ucs2, pgcodec::UnitForm::Utf16, pgcodec::UnitForm::Utf32}) {
          const pgcodec::UnitText units = form == pgcodec::UnitForm::Utf32
                                              ? pgcodec::UnitText{text.data(), text.size(), form}
                                              : pgcodec::UnitText{ucs2.data(), ucs2.size(), form};
          for (const auto mode : {pgcodec::ErrorMode::Strict, pgcodec::ErrorMode::Replace}) {
            for (const std::size_t room : {text.size() * 4 + 8, std::size_t{90}, std::size_t{200}}) {
              std::string want(room, '\0');
              pgcodec::Result rw;
              {
                pgcodec::test::ActiveKernel plain(scalar);
                rw = codec.encode_units(units, want, mode);
              }
              for (const auto& k : kernels::available().subspan(1)) {
                pgcodec::test::ActiveKernel scope(k);
                std::string got(room, '\0');
                const pgcodec::Result r = codec.encode_units(units, got, mode);
                const std::string what = std::string(k.name) + " " + std::string(codec.name()) +
                                         " shift=" + std::to_string(shift) + " stop=" + std::to_string(stop) +
                                         " form=" + std::to_string(int(form)) + " room=" + std::to_string(room);
                ASSERT_EQ(r.status, rw.status) << what;
                ASSERT_EQ(r.consumed, rw.consumed) << what;
                ASSERT_EQ(r.written, rw.written) << what;
                ASSERT_EQ(r.error.offset, rw.error.offset) << what;
                ASSERT_EQ(got.substr(0, r.written), want.substr(0, rw.written)) << what;
              }
            }
          }
        }
      }
    }
  }
}

// GB18030's four-byte codes, which the AVX2 encode blocks compute (the
// linear index from a table or the supplementary run, then the bytes with
// float-estimated quotients corrected by their remainders): every BMP code
// point that has one and every 7th above U+FFFF, in UTF-32, eight at a time
// between ASCII, two-byte characters and spaces, through every kernel: the
// scalar kernel's Result and bytes.
TEST(Kernels, TwoByteBlocksEncodeEveryGb18030FourByteCode) {
  const pgcodec::Codec& codec = pgcodec::codec(pgcodec::Encoding::GB18030);
  std::u32string fours;
  for (char32_t cp = 0x80; cp < 0x110000; cp += cp < 0x10000 ? 1 : 7) {
    if (cp >= 0xD800 && cp < 0xE000) continue;
    const char32_t one[1] = {cp};
    char out[8];
    const pgcodec::Result r = codec.encode_units({one, 1, pgcodec::UnitForm::Utf32}, {out, sizeof out});
    if (r.status == pgcodec::Status::Ok && r.written == 4) fours += cp;
  }
  ASSERT_GT(fours.size(), 39000u + 1048576u / 7);
  std::u32string text;
  for (std::size_t k = 0; k < fours.size(); ++k) {
    text += fours[k];
    if (k % 8 == 7) text += k % 16 == 7 ? U" " : U"中a";
  }
  const auto& scalar = kernels::available().front();
  std::string want(text.size() * 4 + 8, '\0');
  pgcodec::Result rw;
  {
    pgcodec::test::ActiveKernel plain(scalar);
    rw = codec.encode_units({text.data(), text.size(), pgcodec::UnitForm::Utf32}, want);
  }
  ASSERT_EQ(rw.status, pgcodec::Status::Ok);
  for (const auto& k : kernels::available().subspan(1)) {
    pgcodec::test::ActiveKernel scope(k);
    std::string got(want.size(), '\0');
    const pgcodec::Result r = codec.encode_units({text.data(), text.size(), pgcodec::UnitForm::Utf32}, got);
    ASSERT_EQ(r.status, rw.status) << k.name;
    ASSERT_EQ(r.written, rw.written) << k.name;
    if (got != want) {
      std::size_t at = 0;
      while (got[at] == want[at]) ++at;
      FAIL() << k.name << ": the bytes differ from byte " << at;
    }
  }
}

// The multibyte family's one-read kernel tables are built for input of 128
// bytes and more only: decoding every encoding's bytes 01..FF in chunks of
// 64 (what Python's import does) into every unit form, under every kernel,
// builds none (the count is taken before). Then, where a kernel has the
// GB18030 run kernel, 1 KB of four-byte codes with BMP ones decoded into
// UTF-32 builds the BMP table (in a process that had built no table yet,
// as each test's under ctest: else it may be built already).
TEST(Kernels, ShortInputBuildsNoKernelTable) {
  const unsigned before = pgcodec::detail::kernel_tables_built();
  std::string bytes;
  for (int b = 1; b < 256; ++b) bytes += static_cast<char>(b);
  for (const auto& k : kernels::available()) {
    pgcodec::test::ActiveKernel scope(k);
    for (int e = 0; e < pgcodec::encoding_count; ++e) {
      const pgcodec::Codec& codec = pgcodec::codec(static_cast<pgcodec::Encoding>(e));
      for (const auto form : {pgcodec::UnitForm::Latin1, pgcodec::UnitForm::Ucs2, pgcodec::UnitForm::Utf32}) {
        const char32_t limit = form == pgcodec::UnitForm::Latin1 ? 0xFF
                               : form == pgcodec::UnitForm::Ucs2 ? 0xFFFF
                                                                 : 0x10FFFF;
        // As python/src/text.cpp's init_identities: a character cut off at
        // a chunk's end starts the next chunk.
        char32_t out[255];
        std::size_t written = 0;
        for (std::size_t at = 0; at < bytes.size();) {
          const std::size_t n = std::min<std::size_t>(64, bytes.size() - at);
          const pgcodec::Result r = codec.decode_units(std::string_view(bytes).substr(at, n),
                                                       {out + written, 255 - written, form, limit},
                                                       pgcodec::ErrorMode::Replace, at + n == bytes.size());
          written += r.written;
          if (r.status != pgcodec::Status::Ok || r.consumed == 0) break;
          at += r.consumed;
        }
      }
    }
  }
  ASSERT_EQ(pgcodec::detail::kernel_tables_built(), before);
  const pgcodec::Codec& gb = pgcodec::codec(pgcodec::Encoding::GB18030);
  std::string text;
  while (text.size() < 1000) text += "\x90\x30\x81\x30 \x81\x30\x81\x30 ";  // U+10000, U+0080
  bool any = false;
  for (const auto& k : kernels::available()) {
    if (!k.gb18030_run_decode) continue;
    any = true;
    pgcodec::test::ActiveKernel scope(k);
    std::vector<char32_t> out(text.size());
    ASSERT_EQ(gb.decode_units(text, {out.data(), out.size(), pgcodec::UnitForm::Utf32, 0x10FFFF}).status,
              pgcodec::Status::Ok);
  }
  // (Only in a process that had built none: ctest runs each test alone.)
  if (any && before == 0) {
    EXPECT_GT(pgcodec::detail::kernel_tables_built(), before);
  }
}

// GB18030's run kernel (Kernel::gb18030_run_decode: ASCII and four-byte
// codes, to UTF-32) against the scalar kernel, which has none: words of
// four-byte characters (U+10000, U+10FFFF and others, and of the BMP)
// between spaces, digits and punctuation, shifted by 0-69 bytes so that
// leads fall on every byte of a 64-byte window (61-63, whose codes end in
// the next, too), with a character the kernel does not take (NUL, a
// two-byte code, four-byte codes past the BMP's or the run, malformed ones,
// a lone byte) near a window's edge or none; decoded to UTF-32 (and UCS-2,
// where it never runs), strict and replacing, with room for all or part of
// the output: the same Result and units; and the text cut at each of its
// last 100 bytes, final or not. Then every code point from U+0080 that has
// a code, eight a word: through every kernel, the code points encoded.
TEST(Kernels, Gb18030RunDecodesAsTheLoop) {
  using pgcodec::Encoding;
  const pgcodec::Codec& codec = pgcodec::codec(Encoding::GB18030);
  // (U+0080, U+00A5 and U+FFFF: BMP code points with four-byte codes.)
  const std::u32string chars =
      U"\U00010000\U0010FFFF\U0001F600\U00020000\U0002A6D6\U000E0001\U00010400\u0080\u00A5\uFFFF";
  const std::vector<std::string> stops = {
      std::string("\0", 1), "\xD6\xD0" /* 中 */, "\x81\x30\x81\x30" /* U+0080 */,
      "\x84\x31\xA4\x39" /* U+FFFF */, "\xE3\x32\x9A\x36" /* past U+10FFFF */, "\x84\x31\xA5\x30" /* past U+FFFF */, "\xFE\x39\xFE\x39",
      "\x90\x30\x81" "a", "\x90\x30\xFF\x30", "\x90\x3A\x81\x30", "\x80", "\xFF", "\x90\x30\x81\x30\x81"};
  std::uint32_t seed = 1848;
  const auto next = [&seed] { return seed = seed * 1103515245u + 12345u, seed >> 8; };
  const auto encode = [&](const std::u32string& s) {
    std::string out(s.size() * 4 + 8, '\0');
    const pgcodec::Result r = codec.encode_units({s.data(), s.size(), pgcodec::UnitForm::Utf32}, out);
    EXPECT_EQ(r.status, pgcodec::Status::Ok);
    out.resize(r.written);
    return out;
  };
  std::u32string text;
  while (text.size() < 200) {
    const unsigned word = 1 + next() % 9;
    for (unsigned j = 0; j < word; ++j) text += chars[next() % chars.size()];
    text += next() % 3 ? U" " : next() % 2 ? U", 1990 " : U"; ";
  }
  const std::string base = encode(text);
  const auto& scalar = kernels::available().front();
  const auto decode = [&](const std::string& in, pgcodec::UnitForm form, std::size_t room, pgcodec::ErrorMode mode) {
    std::vector<char32_t> out(room + 1, 0xEEEEEEEE);
    const pgcodec::Result r = codec.decode_units(
        in, {out.data(), room, form, form == pgcodec::UnitForm::Ucs2 ? char32_t{0xFFFF} : char32_t{0x10FFFF}}, mode);
    const std::size_t unit = form == pgcodec::UnitForm::Ucs2 ? 2 : 4;
    return std::to_string(static_cast<int>(r.status)) + " " + std::to_string(r.consumed) + " " +
           std::to_string(r.written) + " " + std::to_string(r.error.offset) + " " +
           std::to_string(static_cast<int>(r.error.kind)) + "|" +
           std::string(reinterpret_cast<const char*>(out.data()), r.written * unit);
  };
  for (std::size_t shift = 0; shift < 70; ++shift) {
    for (std::size_t stop = 0; stop <= stops.size(); ++stop) {
      std::string in = std::string(shift, 'a') + base;
      if (stop < stops.size()) in.insert(shift + 40 + next() % 150, stops[stop]);
      // The insertion may split a character: the kernels must agree anyway.
      for (const auto mode : {pgcodec::ErrorMode::Strict, pgcodec::ErrorMode::Replace}) {
        for (const auto form : {pgcodec::UnitForm::Utf32, pgcodec::UnitForm::Ucs2}) {
          for (const std::size_t room : {in.size() + 8, std::size_t{61}, std::size_t{100}}) {
            std::string want;
            {
              pgcodec::test::ActiveKernel plain(scalar);
              want = decode(in, form, room, mode);
            }
            for (const auto& k : kernels::available().subspan(1)) {
              pgcodec::test::ActiveKernel scope(k);
              ASSERT_EQ(decode(in, form, room, mode), want)
                  << k.name << " shift=" << shift << " stop=" << stop << " form=" << int(form) << " room=" << room;
            }
          }
        }
      }
    }
  }
  // The end at every byte of the last 100 (the kernel's last window,
  // padded with NUL, and codes cut off by it), final and not.
  for (std::size_t len = base.size() - 100; len <= base.size(); ++len) {
    const std::string in = base.substr(0, len);
    for (const bool final : {true, false}) {
      const auto cut = [&] {
        std::vector<char32_t> out(len + 1, 0xEEEEEEEE);
        const pgcodec::Result r =
            codec.decode_units(in, {out.data(), len, pgcodec::UnitForm::Utf32, 0x10FFFF}, pgcodec::ErrorMode::Strict, final);
        return std::to_string(static_cast<int>(r.status)) + " " + std::to_string(r.consumed) + " " +
               std::to_string(r.written) + "|" + std::string(reinterpret_cast<const char*>(out.data()), r.written * 4);
      };
      std::string want;
      {
        pgcodec::test::ActiveKernel plain(scalar);
        want = cut();
      }
      for (const auto& k : kernels::available().subspan(1)) {
        pgcodec::test::ActiveKernel scope(k);
        ASSERT_EQ(cut(), want) << k.name << " len=" << len << " final=" << final;
      }
    }
  }
  std::u32string all;
  for (char32_t cp = 0x80; cp < 0x110000; ++cp) {
    if (cp < 0x10000) {  // the BMP's characters with a code (two or four bytes)
      const char32_t one[1] = {cp};
      char code[8];
      if (codec.encode_units({one, 1, pgcodec::UnitForm::Utf32}, {code, sizeof code}).status != pgcodec::Status::Ok)
        continue;
    }
    all += cp;
    if (cp % 8 == 7) all += cp % 16 == 7 ? U" " : U"9.";
  }
  const std::string bytes = encode(all);
  for (const auto& k : kernels::available()) {
    pgcodec::test::ActiveKernel scope(k);
    std::u32string got(all.size() + 8, U'\0');
    const pgcodec::Result r = codec.decode_units(bytes, {got.data(), got.size(), pgcodec::UnitForm::Utf32, 0x10FFFF});
    ASSERT_EQ(r.status, pgcodec::Status::Ok) << k.name;
    ASSERT_EQ(r.written, all.size()) << k.name;
    got.resize(r.written);
    ASSERT_TRUE(got == all) << k.name;
  }
}

}  // namespace

namespace {

// Every encoding's text: words of the characters it encodes, from a pool of
// many scripts (so that each encoding's own letters, its two-, three- and
// four-byte codes and its pairs are there), with spaces and punctuation.
std::string SampleUtf8(const pgcodec::Codec& codec, std::uint32_t seed, std::size_t chars) {
  static const char* const kPool[] = {
      "a", "Z", "7", "é", "ü", "ß", "ñ", "Å", "ő", "ł", "Ž", "Ω", "λ", "Ж", "щ", "Ї", "א", "ש", "ع", "ب", "ก", "ไ",
      "€", "“", "”", "…", "–", "あ", "カ", "ｶ", "ﾟ", "日", "本", "語", "表", "能", "ソ", "丂", "丄", "𠂉", "中", "资",
      "資", "庫", "乂", "한", "국", "똠", "😀", "か゚", "ㇷ゚", "˥˩", "¥", "©", "·"};
  std::vector<std::string> usable;
  for (const char* c : kPool) {
    std::string out(32, '\0');
    if (codec.encode(c, out).ok()) usable.push_back(c);
  }
  std::string s;
  std::size_t n = 0;
  while (n < chars) {
    seed = seed * 1103515245u + 12345u;
    const unsigned word = 1 + (seed >> 8) % 7;
    for (unsigned j = 0; j < word && !usable.empty(); ++j, ++n) {
      seed = seed * 1103515245u + 12345u;
      s += usable[(seed >> 8) % usable.size()];
    }
    s += (seed >> 20) % 4 ? " " : ", ";
  }
  return s;
}

template <class U>
std::vector<U> UnitsOf(std::string_view utf8) {
  std::vector<U> out(utf8.size() + 1);
  const pgcodec::Codec& u8 = pgcodec::codec(pgcodec::Encoding::UTF8);
  const auto form = sizeof(U) == 2 ? pgcodec::UnitForm::Utf16 : pgcodec::UnitForm::Utf32;
  const pgcodec::Result r = u8.decode_units(utf8, {out.data(), out.size(), form, 0x10FFFF});
  out.resize(r.written);
  return out;
}

std::string Describe(const pgcodec::Result& r) {
  return std::to_string(static_cast<int>(r.status)) + " " + std::to_string(r.consumed) + " " +
         std::to_string(r.written) + " " + std::to_string(r.error.offset);
}

// Each conversion of `in` into fresh buffers: results and output as one
// string, to compare between kernels.
std::string DecodeAll(const pgcodec::Codec& codec, std::string_view in) {
  std::string all;
  for (const auto mode : {pgcodec::ErrorMode::Strict, pgcodec::ErrorMode::Replace}) {
    std::string out(in.size() * 4 + 8, '\0');
    pgcodec::Result r = codec.decode(in, out, mode);
    all += Describe(r) + ":" + out.substr(0, r.written) + "|";
    r = codec.decode_partial(in, out, mode);
    all += Describe(r) + ":" + out.substr(0, r.written) + "|";
    for (const auto form : {pgcodec::UnitForm::Latin1, pgcodec::UnitForm::Ucs2, pgcodec::UnitForm::Utf32}) {
      const char32_t limit = form == pgcodec::UnitForm::Latin1 ? 0xFF : form == pgcodec::UnitForm::Ucs2 ? 0xFFFF : 0x10FFFF;
      std::vector<char32_t> units(in.size() + 1);
      r = codec.decode_units(in, {units.data(), units.size(), form, limit}, mode, false);
      const std::size_t size = form == pgcodec::UnitForm::Latin1 ? 1 : form == pgcodec::UnitForm::Ucs2 ? 2 : 4;
      all += Describe(r) + ":" + std::string(reinterpret_cast<const char*>(units.data()), r.written * size) + "|";
    }
  }
  return all;
}

template <class U>
std::string EncodeUnits(const pgcodec::Codec& codec, const void* data, std::size_t n) {
  std::string all;
  const auto form = sizeof(U) == 2 ? pgcodec::UnitForm::Utf16 : pgcodec::UnitForm::Utf32;
  for (const auto mode : {pgcodec::ErrorMode::Strict, pgcodec::ErrorMode::Replace}) {
    for (const bool final : {true, false}) {
      std::string out(n * 4 + 8, '\0');
      const pgcodec::Result r = codec.encode_units({data, n, form}, out, mode, final);
      all += Describe(r) + ":" + out.substr(0, r.written) + "|";
    }
  }
  return all;
}

}  // namespace

// Every encoding, every kernel: the text cut at every length (a character
// cut off included) and placed to end where an unreadable page begins,
// decoded (to UTF-8, partially, to each unit form) and encoded (from UTF-8,
// partially, from UTF-16 and UTF-32), strict and replacing. No kernel reads
// past its input (a read faults, and the test with it), and each gives the
// scalar kernel's results and output.
TEST(Kernels, NoKernelReadsPastTheEnd) {
  const auto& scalar = kernels::available().front();
  for (int e = 0; e < pgcodec::encoding_count; ++e) {
    const pgcodec::Codec& codec = pgcodec::codec(static_cast<pgcodec::Encoding>(e));
    const std::string utf8 = SampleUtf8(codec, 1000u + static_cast<unsigned>(e), 150);
    std::string bytes(utf8.size() * 4 + 8, '\0');
    bytes.resize(codec.encode(utf8, bytes, pgcodec::ErrorMode::Replace).written);
    const std::vector<char16_t> u16 = UnitsOf<char16_t>(utf8);
    const std::vector<char32_t> u32 = UnitsOf<char32_t>(utf8);
    for (std::size_t len = 0; len <= bytes.size(); ++len) {
      const pgcodec::harness::PageEnd in(std::string_view(bytes).substr(0, len));
      std::string want;
      {
        pgcodec::test::ActiveKernel plain(scalar);
        want = DecodeAll(codec, in.view());
      }
      for (const auto& k : kernels::available().subspan(1)) {
        pgcodec::test::ActiveKernel scope(k);
        ASSERT_EQ(DecodeAll(codec, in.view()), want) << k.name << " " << codec.name() << " decode of " << len;
      }
    }
    for (std::size_t len = 0; len <= utf8.size(); ++len) {
      const pgcodec::harness::PageEnd in(std::string_view(utf8).substr(0, len));
      const auto encode_all = [&] {
        std::string all;
        for (const auto mode : {pgcodec::ErrorMode::Strict, pgcodec::ErrorMode::Replace}) {
          std::string out(len * 4 + 8, '\0');
          pgcodec::Result r = codec.encode(in.view(), out, mode);
          all += Describe(r) + ":" + out.substr(0, r.written) + "|";
          r = codec.encode_partial(in.view(), out, mode);
          all += Describe(r) + ":" + out.substr(0, r.written) + "|";
        }
        return all;
      };
      std::string want;
      {
        pgcodec::test::ActiveKernel plain(scalar);
        want = encode_all();
      }
      for (const auto& k : kernels::available().subspan(1)) {
        pgcodec::test::ActiveKernel scope(k);
        ASSERT_EQ(encode_all(), want) << k.name << " " << codec.name() << " encode of " << len;
      }
    }
    for (std::size_t n = 0; n <= u16.size(); ++n) {
      const std::size_t len16 = n, len = std::min(n, u32.size());  // (UTF-16 cut inside a pair too)
      const pgcodec::harness::PageEnd in32(
          std::string_view(reinterpret_cast<const char*>(u32.data()), len * sizeof(char32_t)));
      const pgcodec::harness::PageEnd in16(
          std::string_view(reinterpret_cast<const char*>(u16.data()), len16 * sizeof(char16_t)));
      std::string want32, want16;
      {
        pgcodec::test::ActiveKernel plain(scalar);
        want32 = EncodeUnits<char32_t>(codec, in32.data(), len);
        want16 = EncodeUnits<char16_t>(codec, in16.data(), len16);
      }
      for (const auto& k : kernels::available().subspan(1)) {
        pgcodec::test::ActiveKernel scope(k);
        ASSERT_EQ(EncodeUnits<char32_t>(codec, in32.data(), len), want32) << k.name << " " << codec.name() << " " << len;
        ASSERT_EQ(EncodeUnits<char16_t>(codec, in16.data(), len16), want16) << k.name << " " << codec.name() << " " << len;
      }
    }
  }
}
