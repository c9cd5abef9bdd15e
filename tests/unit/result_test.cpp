// Error's SQLSTATE and message, and make_error() (src/result.cpp).
#include "pgcodec/result.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <string_view>

#include "codecs/codec_ops.hpp"

namespace {

using pgcodec::Encoding;
using pgcodec::Error;
using pgcodec::ErrorKind;
using pgcodec::detail::make_error;

TEST(Result, InvalidByteSequenceMessageAndSqlstate) {
  const Error e = make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8, Encoding::UTF8,
                             "ab\xC3\x28", 2, 1);
  EXPECT_EQ(e.offset, 2u);
  EXPECT_EQ(e.length, 2u);  // the lead byte counts two bytes, both quoted
  EXPECT_EQ(e.skip, 1u);
  EXPECT_STREQ(e.sqlstate(), "22021");
  EXPECT_EQ(e.message(), "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28");
}

TEST(Result, NoEquivalentMessageAndSqlstate) {
  const Error e = make_error(ErrorKind::NoEquivalent, Encoding::UTF8, Encoding::LATIN1,
                             "\xE2\x82\xAC", 0, 3);
  EXPECT_EQ(e.length, 3u);
  EXPECT_EQ(e.skip, 3u);
  EXPECT_STREQ(e.sqlstate(), "22P05");
  EXPECT_EQ(e.message(),
            "character with byte sequence 0xe2 0x82 0xac in encoding \"UTF8\" has no equivalent "
            "in encoding \"LATIN1\"");
}

TEST(Result, QuotedBytesCappedAtWhatIsLeft) {
  // EUC_TW's SS2 lead claims 4 bytes; only 2 are left.
  const Error e = make_error(ErrorKind::InvalidByteSequence, Encoding::EUC_TW, Encoding::UTF8,
                             "x\x8E\xA1", 1, 1);
  EXPECT_EQ(e.length, 2u);
  EXPECT_EQ(e.message(), "invalid byte sequence for encoding \"EUC_TW\": 0x8e 0xa1");
}

TEST(Result, FormatTruncatesLikeSnprintf) {
  const Error e = make_error(ErrorKind::InvalidByteSequence, Encoding::UTF8, Encoding::UTF8,
                             "\xFF", 0, 1);
  const std::string full = e.message();
  EXPECT_EQ(e.format(nullptr, 0), full.size());
  char small[10];
  std::memset(small, 'X', sizeof small);
  EXPECT_EQ(e.format(small, sizeof small), full.size());
  EXPECT_EQ(std::string(small), full.substr(0, sizeof small - 1));
  char exact[128];
  EXPECT_EQ(e.format(exact, full.size() + 1), full.size());
  EXPECT_EQ(std::string(exact), full);
}

TEST(Result, ConversionErrorCarriesTheError) {
  const Error e = make_error(ErrorKind::NoEquivalent, Encoding::WIN1252, Encoding::UTF8, "\x81",
                             0, 1);
  const pgcodec::ConversionError ex(e);
  EXPECT_EQ(std::string(ex.what()), e.message());
  EXPECT_EQ(ex.error().offset, 0u);
  pgcodec::Result r;
  EXPECT_TRUE(r.ok());
  r.status = pgcodec::Status::OutputFull;
  EXPECT_FALSE(r.ok());
}

}  // namespace
