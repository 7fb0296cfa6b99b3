// macros.cpp: the uses of a dialect file's own macros expanded in place
// (docs/language.md, "Macros"), and the diagnostics' fix-it line.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "diag.h"
#include "frontend.h"
#include "source.h"

namespace wuc::test {
namespace {

std::string expanded(const std::string &text) { return SourceFile("t.wc", text).text(); }

TEST(Macros, ChannelOfAParameter) {
  EXPECT_EQ(expanded("#define Q(T, n) static channel(T) n\nQ(int, q);\n"),
            "#define Q(T, n) static channel(T) n\nstatic channel ( int ) q;\n");
}

TEST(Macros, WaituntilInTheBody) {
  EXPECT_EQ(expanded("#define R(x, c) waituntil (x << c) {}\nvoid f(void) { R(a, b); }\n"),
            "#define R(x, c) waituntil (x << c) {}\n"
            "void f(void) { waituntil ( a << b ) { }; }\n");
}

TEST(Macros, WaituntilInAnArgument) {
  EXPECT_EQ(expanded("#define T(s) s s\nT(waituntil (x << c) {})\n"),
            "#define T(s) s s\nwaituntil ( x << c ) { } waituntil ( x << c ) { }\n");
  // Another macro, without waituntil in its arguments, is left alone.
  const std::string plain = "#define T(s) s s\nT(f(x);) waituntil (x << c) {}\n";
  EXPECT_EQ(expanded(plain), plain);
}

TEST(Macros, StringizePasteVariadic) {
  EXPECT_EQ(expanded("#define W(c, ...) waituntil (c) g(#c, x##c __VA_OPT__(,) __VA_ARGS__)\n"
                     "W(k, 1, 2) W(k)\n"),
            "#define W(c, ...) waituntil (c) g(#c, x##c __VA_OPT__(,) __VA_ARGS__)\n"
            "waituntil ( k ) g ( \"k\" , xk , 1 , 2 ) waituntil ( k ) g ( \"k\" , xk )\n");
  EXPECT_EQ(expanded("#define W(c, a...) waituntil (c) g(1, ## a)\nW(k)\n"),
            "#define W(c, a...) waituntil (c) g(1, ## a)\nwaituntil ( k ) g ( 1 )\n");
}

TEST(Macros, NestedUsesAndLines) {
  // A macro using a dialect macro is expanded too; a use over two lines
  // keeps both (the second empty).
  EXPECT_EQ(expanded("#define Q(T, n) static channel(T) n\n#define TWO(T) Q(T, a); Q(T, b)\n"
                     "TWO(\nlong);\nint z;\n"),
            "#define Q(T, n) static channel(T) n\n#define TWO(T) Q(T, a); Q(T, b)\n"
            "static channel ( long ) a ; static channel ( long ) b\n;\nint z;\n");
}

TEST(Macros, SelfReferenceUndefAndOrder) {
  // A macro naming itself stops, as in the preprocessor.
  EXPECT_EQ(expanded("#define R(x) waituntil (x) R(x)\nR(a)\n"),
            "#define R(x) waituntil (x) R(x)\nwaituntil ( a ) R ( a )\n");
  // Before the definition and after #undef: not a use.
  const std::string text = "R(a)\n#define R(x) waituntil (x) {}\n#undef R\nR(b)\n";
  EXPECT_EQ(expanded(text), text);
  // Nothing to expand: the very same text.
  const std::string c = "#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint x = MAX(1, 2);\n";
  EXPECT_EQ(expanded(c), c);
}

TEST(Macros, ArgumentThatExpandsToWaituntil) {
  // D's argument holds a use of W, which gives a waituntil: D is expanded.
  EXPECT_EQ(expanded("#define D(x) x x\n#define W(x) waituntil (x) {}\nD(W(c))\n"),
            "#define D(x) x x\n#define W(x) waituntil (x) {}\n"
            "waituntil ( c ) { } waituntil ( c ) { }\n");
}

TEST(Macros, ExponentialUseStops) {
  std::string use = "W(c)";
  for (int i = 0; i < 40; i++) use = "D(" + use + ")";
  const std::string text = "#define D(x) x x\n#define W(x) waituntil (x) {}\n" + use + "\n";
  EXPECT_LT(expanded(text).size(), text.size() + (1u << 24)); // and it returns
}

TEST(Macros, HeadersNextToTheFileAndInTheSearchDirectories) {
  char dir[] = "/tmp/wuc_macros_testXXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string d = dir;
  ASSERT_EQ(mkdir((d + "/inc").c_str(), 0700), 0);
  std::ofstream(d + "/near.h") << "#define NEAR(x) waituntil (x) {}\n";
  std::ofstream(d + "/inc/far.h") << "#include \"farther.h\"\n";
  std::ofstream(d + "/inc/farther.h") << "#define FAR(T) channel(T) q\n";
  const std::string text =
      "#include \"near.h\"\n#include \"far.h\"\n#include <far.h>\nNEAR(a) FAR(int);\n";
  // Without search directories only near.h is found.
  EXPECT_EQ(SourceFile(d + "/t.wc", text).text(),
            "#include \"near.h\"\n#include \"far.h\"\n#include <far.h>\n"
            "waituntil ( a ) { } FAR(int);\n");
  setMacroSearchDirs({d + "/inc"});
  EXPECT_EQ(SourceFile(d + "/t.wc", text).text(),
            "#include \"near.h\"\n#include \"far.h\"\n#include <far.h>\n"
            "waituntil ( a ) { } channel ( int ) q;\n");
  // <...> is looked for in the search directories only.
  EXPECT_EQ(SourceFile(d + "/t.wc", "#include <near.h>\nNEAR(a)\n").text(),
            "#include <near.h>\nNEAR(a)\n");
  EXPECT_EQ(SourceFile(d + "/t.wc", "#include <far.h>\nFAR(long);\n").text(),
            "#include <far.h>\nchannel ( long ) q;\n");
  setMacroSearchDirs({});
  for (const char *f : {"/near.h", "/inc/far.h", "/inc/farther.h"}) std::remove((d + f).c_str());
  rmdir((d + "/inc").c_str());
  rmdir(dir);
}

TEST(Macros, UnterminatedUseIsLeftAlone) {
  const std::string text = "#define R(x) waituntil (x) {}\nR(a\n";
  EXPECT_EQ(expanded(text), text);
}

TEST(Diagnostics, FixItLine) {
  SourceFile f("t.wc", "x;\n\ttimeout(2);\n");
  DiagEngine d(f);
  d.warning(12, "w", 13, "`ms");
  std::ostringstream os;
  d.print(os);
  EXPECT_EQ(os.str(), "t.wc:2:10: warning: w\n\ttimeout(2);\n\t        ^\n\t         `ms\n");
}

} // namespace
} // namespace wuc::test
