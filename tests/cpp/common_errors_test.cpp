// Error messages quote the input's bytes; they must reach the user whatever those bytes are, keeping FILE:LINE.
#include "common/Errors.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace mpisim;

// Well-formed UTF-8 passes unchanged (ASCII, 2-, 3- and 4-byte sequences: é, €, 𝄞); any other byte becomes \xNN.
TEST(Errors, PrintableTextEscapesOnlyBytesThatAreNotUtf8)
{
  EXPECT_EQ(printable_text("plain ascii"), "plain ascii");
  EXPECT_EQ(printable_text("caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e");
  EXPECT_EQ(printable_text("1e6\xff"), "1e6\\xff");
  EXPECT_EQ(printable_text("\xc3"), "\\xc3");                            // truncated sequence
  EXPECT_EQ(printable_text("\xc0\xaf"), "\\xc0\\xaf");                   // overlong '/'
  EXPECT_EQ(printable_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");          // a surrogate, which Python refuses too
  EXPECT_EQ(printable_text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); // above U+10FFFF
  EXPECT_EQ(printable_text(std::string("a\0b", 3)), std::string("a\0b", 3));
  EXPECT_EQ(printable_text(printable_text("\xfe")), "\\xfe"); // idempotent: escaping twice changes nothing more
}

// An InputError's what() and message() are printable; the location stays in front.
TEST(Errors, InputErrorsQuotingBadBytesKeepTheirLocation)
{
  const InputError error("trace.txt", 2, "'1e6\xff' is not a number");
  EXPECT_STREQ(error.what(), "trace.txt:2: '1e6\\xff' is not a number");
  EXPECT_EQ(error.message(), "'1e6\\xff' is not a number");
  EXPECT_EQ(error.line(), 2);
}
