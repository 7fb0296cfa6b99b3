// quote.h: the compiler's one quoting and escaping module.
#include <gtest/gtest.h>

#include "quote.h"

namespace wuc::test {
namespace {

using namespace std::string_literals;

TEST(Quote, CStringLiteral) {
  EXPECT_EQ(cStringLiteral("a.wc"), "\"a.wc\"");
  EXPECT_EQ(cStringLiteral("say \"hi\"\\"), "\"say \\\"hi\\\"\\\\\"");
  // A raw newline would end a #line directive.
  EXPECT_EQ(cStringLiteral("a\nb.wc"), "\"a\\nb.wc\"");
}

TEST(Quote, CommentText) {
  EXPECT_EQ(commentText("  x  <<\n\t c  "), "x << c");
  EXPECT_EQ(commentText("a */ b /* c"), "a * / b / * c");
  EXPECT_EQ(commentText("abcdefgh", 6), "abc...");
}

TEST(Quote, OneLine) { EXPECT_EQ(oneLine("a\nb\tc\rd\\e"), "a\\nb\\tc\\rd\\\\e"); }

TEST(Quote, Printable) {
  EXPECT_EQ(printable("ok x"), "ok x");
  EXPECT_EQ(printable("\x01\x7f\xff\n"s), "\\x01\\x7f\\xff\\x0a");
  EXPECT_EQ(printable("a\0b"s), "a\\x00b");
}

TEST(Quote, IdentifierSafe) {
  EXPECT_EQ(identifierSafe("x_1$"), "x_1$");
  EXPECT_EQ(identifierSafe("a.b-c"), "ax2ebx2dc");
  EXPECT_EQ(identifierSafe("\xc3\xa9"), "\xc3\xa9"); // UTF-8 stays
}

TEST(Quote, AppendHex) {
  std::string s;
  appendHex(s, 0xcbf29ce484222325ull, 16);
  EXPECT_EQ(s, "cbf29ce484222325");
  s.clear();
  appendHex(s, 0xab, 4);
  EXPECT_EQ(s, "00ab");
  s.clear();
  appendHex(s, 0x1ff, 2);
  EXPECT_EQ(s, "ff");
}

TEST(Quote, ShellQuoted) {
  EXPECT_EQ(shellQuoted("/tmp/wucc-x"), "'/tmp/wucc-x'");
  EXPECT_EQ(shellQuoted("it's"), "'it'\\''s'");
  EXPECT_EQ(shellQuoted(""), "''");
}

} // namespace
} // namespace wuc::test
