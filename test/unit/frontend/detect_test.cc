// mayUseDialect and findFalseGroups (frontend/detect.h): which files the
// driver hands to the frontend, and the `#if 0` groups the frontend skips.
#include <gtest/gtest.h>

#include <dirent.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "detect.h"
#include "frontend_test_util.h"

namespace wuc::test {
namespace {

bool may(const std::string &s) { return mayUseDialect(s); }

TEST(Detect, PlainC) {
  EXPECT_FALSE(may(""));
  EXPECT_FALSE(may("int main(void) { return 0; }\n"));
  EXPECT_FALSE(may("int waituntil_count, xwaituntil, channels(int), futures (int);\n"));
  EXPECT_FALSE(may("int channel; int future = channel + 1; s.channel[2] = 0;\n"));
  EXPECT_FALSE(may("#include <stdio.h>\n#define X 1\nint y = X;\n"));
  // Directives other than #define: header names, pragmas, messages.
  EXPECT_FALSE(may("#include <wuc/waituntil.h>\n#include \"channel(x).h\"\n"));
  EXPECT_FALSE(may("#pragma waituntil\n# error don't use channel(x) here /* a\n b */\n"));
  EXPECT_FALSE(may("#line 3 \"`\"\n#ifdef waituntil\n#endif\n#if future(x)\n#endif\n"));
  EXPECT_TRUE(may("#pragma once\nwaituntil"));
}

TEST(Detect, DialectConstructs) {
  EXPECT_TRUE(may("void f(void) { waituntil (c) ; }\n"));
  EXPECT_TRUE(may("waituntil"));
  EXPECT_TRUE(may("int d = 10`ms;"));
  EXPECT_TRUE(may("`"));
  EXPECT_TRUE(may("channel(int) c;"));
  EXPECT_TRUE(may("static future (int) f;"));
  EXPECT_TRUE(may("channel /* a comment */\n  // another\n (int) c;"));
  // The detector says "may": whether a channel( is the type form is the
  // frontend's call (docs/language.md, 'Types').
  EXPECT_TRUE(may("static int channel(int n) { return n; }"));
  EXPECT_TRUE(may("x = s.future(1);"));
  // A directive's text counts.
  EXPECT_TRUE(may("#define TICK 10`ms\n"));
  EXPECT_TRUE(may("#define INTCHAN channel(int)\n"));
}

TEST(Detect, CommentsAndLiterals) {
  EXPECT_FALSE(may("/* waituntil 10`ms channel(int) */"));
  EXPECT_FALSE(may("// waituntil\n"));
  EXPECT_FALSE(may("const char *s = \"waituntil ` channel(int)\";"));
  EXPECT_FALSE(may("char c = '`';"));
  EXPECT_FALSE(may("char c = '\\'', d = '`';")); // an escaped quote
  EXPECT_FALSE(may("const char *s = \"a\\\"waituntil\";"));
  EXPECT_FALSE(may("f(L\"`\", u8\"waituntil\", U'`');"));
  // An unterminated comment runs to the end; an unterminated literal to the
  // end of its line only.
  EXPECT_FALSE(may("/* waituntil"));
  EXPECT_TRUE(may("// don't\nwaituntil"));
  EXPECT_TRUE(may("char c = 'x;\nwaituntil"));
  EXPECT_TRUE(may("puts(\"x);\nint d = 1`s;"));
  EXPECT_FALSE(may("puts(\"x); waituntil"));
  // A quote inside an unterminated literal hides a comment opener.
  EXPECT_TRUE(may("doesn't /* see\nwaituntil */"));
}

TEST(Detect, LineContinuations) {
  EXPECT_TRUE(may("wait\\\nuntil"));
  EXPECT_TRUE(may("wait\\\r\nuntil"));
  EXPECT_TRUE(may("chan\\\nnel\\\n(int) c;"));
  EXPECT_FALSE(may("// a comment \\\n waituntil\n"));
  EXPECT_FALSE(may("\"a string \\\n waituntil\""));
  EXPECT_TRUE(may("/\\\n* c *\\\n/ waituntil"));
  EXPECT_FALSE(may("/\\\n* waituntil *\\\n/"));
  EXPECT_FALSE(may("x\\\n"));
  EXPECT_FALSE(may("\\"));
}

TEST(Detect, PpNumbers) {
  // Letters inside a pp-number are not identifiers.
  EXPECT_FALSE(may("int x = 0xwaituntil;"));
  EXPECT_FALSE(may("int x = 1'000'waituntil;")); // digit separators (C23)
  EXPECT_TRUE(may("int x = 1'000; waituntil"));
  EXPECT_TRUE(may("int x = u8'a'; waituntil"));
  // "may": after a sign inside a pp-number, the detector errs towards yes.
  EXPECT_TRUE(may("double d = 1e+waituntil;"));
  EXPECT_FALSE(may("double d = .5waituntil;"));
  EXPECT_TRUE(may("int x = 1 + waituntil;"));
  // A pp-number may start after an identifier and a dot: the quote in
  // `arra.5'5` is a separator (found by the fuzzer: the frontend lowered
  // .5'5`us, the detector had read a character literal).
  EXPECT_TRUE(may("x = arra.5'5`us;"));
  EXPECT_TRUE(may("x = a.b'c'; waituntil"));
  EXPECT_TRUE(may("x = 'a'5'6`us;"));
  // Line continuations go before tokens: `8'\<newline>1` is the pp-number
  // 8'1 (found by the fuzzer: the frontend lowered 8'1`s, the detector had
  // read a character literal), and so is `8\<newline>'1`.
  EXPECT_TRUE(may("8'\\\n1`s"));
  EXPECT_TRUE(may("x = 8\\\n'1`s;"));
  EXPECT_TRUE(may("x = .5'\\\r\n5`us;"));
  EXPECT_FALSE(may("int x = 1'\\\n000'waituntil;"));
  // A quote not followed by a digit or nondigit ends the pp-number: 2 '' 'p' ( 0`s.
  EXPECT_TRUE(may("2'''p'(0`s"));
  // A pp-number does not reach back over a literal: ' ' then 8'J.
  EXPECT_TRUE(may("' '8'J(channel(l)g"));
}

TEST(Detect, IfZeroGroups) {
  EXPECT_FALSE(may("#if 0\nwaituntil (x) ;\n#endif\n"));
  EXPECT_FALSE(may("  #  if  0  /* never */ // really\n10`ms\n# endif\n"));
  EXPECT_FALSE(may("%:if 0\nwaituntil\n%:endif\n"));
  EXPECT_FALSE(may("#if 0\nwaituntil")); // no #endif: to the end
  // Nested conditionals are counted.
  EXPECT_FALSE(may("#if 0\n#ifdef X\n#else\nwaituntil\n#endif\nwaituntil\n#endif\n"));
  EXPECT_TRUE(may("#if 0\n#ifdef X\n#endif\n#endif\nwaituntil\n"));
  // #else / #elif of the group are live again; #elif 0 is skipped.
  EXPECT_TRUE(may("#if 0\n#else\nwaituntil\n#endif\n"));
  EXPECT_TRUE(may("#if 0\n#elif X\nwaituntil\n#endif\n"));
  EXPECT_TRUE(may("#if 0\n#elif 0\n#elifdef Y\nwaituntil\n#endif\n"));
  EXPECT_FALSE(may("#if 0\n#elif 0\nwaituntil\n#endif\n"));
  EXPECT_FALSE(may("#ifdef X\n#elif 0\nwaituntil\n#endif\n"));
  // Only the constant 0 alone.
  EXPECT_TRUE(may("#if 00\nwaituntil\n#endif\n"));
  EXPECT_TRUE(may("#if 0 || X\nwaituntil\n#endif\n"));
  EXPECT_TRUE(may("#if X\nwaituntil\n#endif\n"));
  EXPECT_TRUE(may("#ifdef NEVER\nwaituntil\n#endif\n"));
  // Not a directive: `#` not first on its line.
  EXPECT_TRUE(may("x; #if 0\nwaituntil\n#endif\n"));
  // Prose: quotes end at the end of their line; comments still count.
  EXPECT_TRUE(may("#if 0\nThis doesn't work /* yet\n#endif\nwaituntil\n"));
  EXPECT_FALSE(may("#if 0\n/*\n#endif\n*/\nwaituntil\n#endif\n"));
  EXPECT_TRUE(may("#if 0\n/*\n#endif\n*/\n#endif\nwaituntil\n"));
  // A continued directive line.
  EXPECT_FALSE(may("#if \\\n 0\nwaituntil\n#endif\n"));
  EXPECT_TRUE(may("#if 0\n#define X \\\n#endif\nwaituntil\n#endif\nwaituntil\n"));
}

TEST(Detect, AnyBytes) {
  std::string nuls("int a;\0\0\0 waituntil", 19);
  EXPECT_TRUE(may(nuls));
  EXPECT_FALSE(may(std::string("\0\0\0\xff\xfe\x80", 6)));
  // A UTF-8 identifier that contains the word is not the word.
  EXPECT_FALSE(may("int \xc3\xa9waituntil;"));
  std::mt19937 rng(7);
  const char alphabet[] = "waituntilchanefr()/*\\\n\r'\"#%:`0 \t\xff";
  for (int iter = 0; iter < 20000; iter++) {
    std::string s;
    for (int k = int(rng() % 40); k > 0; k--) s += alphabet[rng() % (sizeof alphabet - 1)];
    may(s); // no crash, no hang, no read out of bounds (ASan builds)
    std::vector<std::pair<size_t, size_t>> groups;
    fe::findFalseGroups(s, groups);
    for (auto &g : groups) {
      EXPECT_LE(g.first, g.second);
      EXPECT_LE(g.second, s.size());
    }
  }
}

TEST(Detect, HugeLines) {
  std::string line(8u << 20, 'x');
  EXPECT_FALSE(may(line));
  EXPECT_TRUE(may(line + " waituntil"));
  std::string comment = "/*" + std::string(4u << 20, '*');
  EXPECT_FALSE(may(comment + " waituntil"));
  EXPECT_TRUE(may(comment + "*/ waituntil"));
  std::string literal = "\"" + std::string((4u << 20) + 1, '\\'); // the last escapes the quote
  EXPECT_FALSE(may(literal + "\" waituntil\""));
}

// Whatever the detector says no to, the frontend finds nothing in: no
// statement and no edit (so plain C goes to the back end unchanged).
TEST(Detect, AgreesWithTheFrontend) {
  const char *pieces[] = {
      "waituntil", "(",      ")",   "{",       "}",        ";",       "`",    "10", "ms",
      "channel",   "future", "int", "\"s\"",   "'c'",      "'",       "\"",   "/*", "*/",
      "//",        "\n",     "#",   "#if 0\n", "#endif\n", "#else\n", "\\\n", "x",  "void f(void)",
      "don't",     "%:",     "0",   "if",      "elif",     ".",       "L"};
  std::mt19937 rng(99);
  for (int iter = 0; iter < 4000; iter++) {
    std::string src;
    for (int k = int(rng() % 40); k > 0; k--) {
      src += pieces[rng() % (sizeof pieces / sizeof *pieces)];
      src += rng() % 3 ? " " : "";
    }
    if (mayUseDialect(src)) continue;
    Parsed p = parse(src);
    if (!p.ok) continue; // an unterminated comment, reported by the back end too
    EXPECT_TRUE(p.fe.statements.empty()) << src;
    EXPECT_TRUE(p.fe.edits.empty()) << src;
  }
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The repository's own files: every example in the dialect is a dialect
// file, the plain C ones are not (they use WUC_CHANNEL(T)); the runtime's C
// (which includes <wuc/waituntil.h> and names waituntil in comments and
// strings) is plain C.
TEST(Detect, RepositoryFiles) {
  const std::string root = WUC_SOURCE_DIR;
  DIR *dir = opendir((root + "/examples").c_str());
  ASSERT_NE(dir, nullptr);
  int dialect = 0, plain = 0;
  while (const dirent *e = readdir(dir)) {
    const std::string name = e->d_name;
    const bool wc = name.size() > 3 && name.compare(name.size() - 3, 3, ".wc") == 0;
    const bool c = name.size() > 2 && name.compare(name.size() - 2, 2, ".c") == 0;
    if (!wc && !c) continue;
    EXPECT_EQ(mayUseDialect(readFile(root + "/examples/" + name)), wc) << name;
    (wc ? dialect : plain)++;
  }
  closedir(dir);
  EXPECT_GE(dialect, 5);
  EXPECT_GE(plain, 1);
  for (const char *f : {"waituntil.c", "select.c", "channel.c", "future.c", "scheduler.c"}) {
    const std::string text = readFile(root + "/runtime/" + f);
    ASSERT_FALSE(text.empty()) << f;
    EXPECT_FALSE(mayUseDialect(text)) << f;
  }
}

TEST(FalseGroups, Ranges) {
  std::vector<std::pair<size_t, size_t>> g;
  const std::string s = "a\n#if 0\nx'\n#if 1\n#endif\n#else\nb\n#endif\n#elif 0\nc\n#endif\n";
  fe::findFalseGroups(s, g);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(s.substr(g[0].first, g[0].second - g[0].first), "\nx'\n#if 1\n#endif\n");
  EXPECT_EQ(s.substr(g[1].first, g[1].second - g[1].first), "\nc\n");
  fe::findFalseGroups("int x;\n", g);
  EXPECT_TRUE(g.empty());
}

// Throughput on the repository's own C and C++ sources, repeated to a few
// MB (not a test: run it by name, frontend/README.md says how).
TEST(Detect, DISABLED_Speed) {
  std::string corpus;
  for (const char *f : {"/runtime/select.c", "/runtime/channel.c", "/runtime/scheduler.c",
                        "/frontend/frontend.cpp", "/frontend/edits.cpp", "/sema/sema.cpp"}) {
    std::ifstream in(std::string(WUC_SOURCE_DIR) + f, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    corpus += ss.str();
  }
  ASSERT_FALSE(corpus.empty());
  std::string text;
  while (text.size() < (4u << 20)) text += corpus;
  // Without the words the detector stops at, so that it reads everything.
  for (const char *w : {"waituntil", "channel", "future", "`"})
    for (size_t at = text.find(w); at != std::string::npos; at = text.find(w, at)) text[at] = 'W';
  ASSERT_FALSE(mayUseDialect(text));
  const int rounds = 50;
  auto t0 = std::chrono::steady_clock::now();
  bool any = false;
  for (int r = 0; r < rounds; r++) any |= mayUseDialect(text);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("mayUseDialect: %.1f MB x %d in %.3f s: %.0f MB/s%s\n", double(text.size()) / 1e6,
              rounds, s, double(text.size()) * rounds / s / 1e6, any ? "!" : "");
}

} // namespace
} // namespace wuc::test
