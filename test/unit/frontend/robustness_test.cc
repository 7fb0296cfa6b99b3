// Inputs that must never crash, hang or be mangled: plain C round-trips byte
// for byte; garbage gives diagnostics.
#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>

#include <fstream>
#include <random>
#include <sstream>

#include "detect.h"
#include "frontend_test_util.h"

namespace wuc::test {
namespace {

const char kPlainC[] =
    "/* A file without extensions: rendering copies it byte for byte. */\n"
    "#include <stdio.h>\n"
    "#define MAX(a, b) ((a) > (b) ? (a) : (b)) \\\n"
    "   /* continued */\n"
    "%:define STR(x) %:x\n"
    "typedef struct node { struct node *next; int v : 4; unsigned : 2; } node;\n"
    "static const char *names[] = { \"a\\\"}\", u8\"b\", L\"c\", [3] = \"d\" };\n"
    "int or = 0, and = 1, timeout, closed;\n"
    "static inline int sum(const node *n) {\n"
    "  int s = 0;\n"
    "  for (; n; n = n->next) s += n->v;\n"
    "  return s ? : -1;\n"
    "}\n"
    "int main(int argc, char **argv) <%\n"
    "  int a<:2:> = {0};\n"
    "  switch (argc) { case 1 ... 2: a[0] = MAX(1, 2); break; default: ; }\n"
    "  int r = ({ int t = argc; t > 1 ? t : 0; });\n"
    "  if (argc > 1) if (argv[1][0] == 'x') r++; else r--;\n"
    "  do { r <<= 1; } while (r < 0 && or || and);\n"
    "again: if (r > 100) goto again;\n"
    "  asm volatile (\"\" ::: \"memory\");\n"
    "  return r + sum(0) + (int)sizeof(struct { int x; }) + '\\\\' + timeout + closed; // done \\\n"
    "   still the comment\n"
    "%>\n";

TEST(RoundTrip, PlainFileIsCopiedByteForByte) {
  Parsed p = parse(kPlainC);
  ASSERT_TRUE(p.ok) << p.diags;
  EXPECT_TRUE(p.fe.statements.empty());
  EXPECT_TRUE(p.fe.edits.empty());
  EXPECT_EQ(p.render(), kPlainC);
}

TEST(RoundTrip, CrLfLineEnds) {
  std::string src;
  for (const char *c = kPlainC; *c; c++)
    src += *c == '\n' ? std::string("\r\n") : std::string(1, *c);
  src +=
      "void g(void) {\r\n  waituntil (a) x(); // c \\\r\n still\r\n  or waituntil (b) ;\r\n}\r\n";
  Parsed p = parse(src);
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.statements.size(), 1u);
  EXPECT_EQ(p.tree(0), "(or 0 1)");
  EXPECT_EQ(p.render(), src);
}

TEST(RoundTrip, StatementsCopiedByTheEmitterGiveTheFileBack) {
  std::string src =
      std::string(kPlainC) +
      "void g(int x) { waituntil (x << c) { waituntil (y) ; } or when (x) waituntil (z) x++;\n"
      "  or else {} }\n";
  Parsed p = parse(src);
  ASSERT_TRUE(p.ok) << p.diags;
  EXPECT_EQ(p.fe.statements.size(), 2u);
  EXPECT_EQ(p.render(false), src);
}

// Every C file of the repository that the driver would parse (one that
// mayUseDialect) parses and renders back unchanged; the others go to the
// back end untouched (docs/driver.md), like test/dropin's plain C with a
// function named `when`.
void collect(const std::string &dir, std::vector<std::string> &out) {
  DIR *d = opendir(dir.c_str());
  if (!d) return;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == ".." || name.rfind("build", 0) == 0 || name == ".git") continue;
    std::string path = dir + "/" + name;
    struct stat st;
    if (stat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      collect(path, out);
    } else if (name.size() > 2 &&
               (name.substr(name.size() - 2) == ".c" || name.substr(name.size() - 2) == ".h")) {
      out.push_back(path);
    }
  }
  closedir(d);
}

TEST(RoundTrip, RepositorySources) {
  std::vector<std::string> files;
  for (const char *sub : {"runtime", "stdlib", "bench", "examples", "test"})
    collect(std::string(WUC_SOURCE_DIR) + "/" + sub, files);
  ASSERT_GT(files.size(), 20u);
  for (const std::string &path : files) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (!wuc::mayUseDialect(ss.str())) continue;
    Parsed p = parse(ss.str(), path);
    EXPECT_TRUE(p.ok) << p.diags;
    if (p.ok && p.fe.edits.empty()) {
      EXPECT_EQ(p.render(), ss.str()) << path;
    }
  }
}

TEST(Robustness, EmptyAndTrivialInputs) {
  for (const char *src : {"",
                          "\n",
                          "/**/",
                          "//",
                          "#",
                          "#include <x>",
                          "\\",
                          "\\\n",
                          ";",
                          "}",
                          "{",
                          ")",
                          "`",
                          "waituntil",
                          "when",
                          "or",
                          "else",
                          "(",
                          "((((",
                          "x",
                          "\"",
                          "'",
                          "/*",
                          "L",
                          "u8\"",
                          "void f(void) {",
                          "void f(void) { waituntil",
                          "void f(void) { waituntil (",
                          "void f(void) { waituntil (a",
                          "void f(void) { waituntil (a)",
                          "void f(void) { waituntil (a) ; or",
                          "void f(void) { (",
                          "void f(void) { ((when"}) {
    Parsed p = parse(src);
    if (!p.ok) {
      EXPECT_FALSE(p.errors.empty()) << src;
    }
  }
  EXPECT_TRUE(parse("").ok);
  EXPECT_TRUE(parse("/* only a comment */\n").ok);
}

TEST(Robustness, StrayAndBinaryBytes) {
  std::string src = "int a @ = 1;\n";
  src += std::string("char s[] = \"\xff\xfe\";\nint \xc3\xa9t\xc3\xa9 = 2;\n");
  src += std::string("int b = 1;\0\0\n", 13);
  src += "\x01\x02\x80\xff\n";
  Parsed p = parse(src);
  EXPECT_TRUE(p.ok) << p.diags; // stray tokens are soup; the C compiler judges them
  EXPECT_EQ(p.render(), src);
  Parsed q = parse(std::string("void f(void) { waituntil (\0) ; }\n", 33));
  EXPECT_TRUE(q.ok) << q.diags;
}

// docs/language.md, 'Lexical additions': `#if 0` groups are skipped as the
// preprocessor skips them; an unterminated literal outside every waituntil
// statement is the back end's business.
TEST(Leniency, IfZeroGroupsAreSkipped) {
  const std::string src = "#if 0\nThis doesn't parse (at all.\nwaituntil ( )\n"
                          "#if 1\n#endif\nchannel(int) x;\n#else\n"
                          "void g(void) { waituntil (a) ; }\n#endif\n"
                          "#if 0\nwaituntil\n#elif 0\n10`min\n#endif\n";
  Parsed p = parse(src);
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.statements.size(), 1u); // in the #else group only
  EXPECT_TRUE(p.fe.edits.empty());       // channel(int) is in the #if 0 group
  EXPECT_EQ(p.render(), src);
  // A directive in a skipped group is not one (#ifdef between clauses).
  Parsed q = parse("void f(void) {\n waituntil (a) ;\n#if 0\n#ifdef X\n#endif\n#endif\n"
                   " or waituntil (b) ;\n}\n");
  EXPECT_FALSE(q.ok);
  // At the #if 0 and its #endif, not at the #ifdef and #endif inside.
  const std::string m =
      ": a preprocessor directive can appear in a waituntil statement only inside a clause's "
      "body\n";
  EXPECT_EQ(q.errors, "3:1" + m + "6:1" + m);
}

TEST(Leniency, UnterminatedLiteralsOutsideStatements) {
  const std::string src = "#ifdef NEVER\nThis doesn't work, \"yet.\n#endif\n"
                          "void g(void) {\n#ifdef NEVER\n  it's\n#endif\n}\n"
                          "void f(void) {\n  waituntil (a) ;\n}\n";
  Parsed p = parse(src);
  ASSERT_TRUE(p.ok) << p.diags;
  EXPECT_EQ(p.fe.statements.size(), 1u);
  EXPECT_EQ(p.render(), src);
  // A branch holding an unterminated literal must be skipped by the
  // preprocessor for the file to compile: the frontend skips it too, also
  // inside a function with a statement, and inside a body.
  const std::string inFunction = "void f(void) {\n#ifdef NEVER\n  It doesn't { work.\n#else\n"
                                 "  x();\n#endif\n#ifdef NEVER\n  Nor does this'\n#endif\n"
                                 "  waituntil (a) {\n#if X\n  puts(\"x);\n#endif\n  }\n}\n";
  Parsed r = parse(inFunction);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_EQ(r.fe.statements.size(), 1u);
  EXPECT_EQ(r.render(), inFunction);
  // Inside a statement, outside any branch: an error at the quote, even
  // when the statement still parses.
  Parsed q = parse("void f(void) {\n  waituntil (a) puts(\"x);\n  or waituntil (b) ;\n}\n");
  EXPECT_FALSE(q.ok);
  EXPECT_EQ(q.errors, "2:22: missing terminating '\"' character\n");
}

TEST(Robustness, RandomInputsNeverCrash) {
  const char *pieces[] = {
      "waituntil", "when",         "or", "and",    "else",    "(",   ")",     "{",       "}",
      ";",         "<<",           "x",  "||",     "&&",      "if",  "while", "do",      "for",
      "case",      "default",      ":",  "?",      "`",       "10",  "ms",    "channel", "future",
      "\"s\"",     "'c'",          "/*", "*/",     "//",      "\n",  "#",     "\\\n",    "[",
      "]",         "void f(void)", "=",  "closed", "timeout", "asm", "goto",  "return",  ",",
      "\xff"};
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 3000; iter++) {
    std::string src;
    int n = int(rng() % 60);
    for (int i = 0; i < n; i++) {
      src += pieces[rng() % (sizeof pieces / sizeof *pieces)];
      src += rng() % 3 ? " " : "";
    }
    Parsed p = parse(src);
    if (!p.ok) {
      EXPECT_FALSE(p.errors.empty()) << src;
      continue;
    }
    // Everything the frontend returns is consistent.
    for (const WaitUntil &w : p.fe.statements) {
      EXPECT_LE(w.range.end, src.size());
      for (const Clause &c : w.clauses) {
        EXPECT_LE(w.range.begin, c.body.begin);
        EXPECT_LE(c.body.end, w.range.end);
      }
    }
    for (size_t i = 1; i < p.fe.edits.size(); i++) {
      const Edit &a = p.fe.edits[i - 1], &b = p.fe.edits[i];
      EXPECT_LE(a.range.end, b.range.begin) << src;
      // Only an insertion may share its offset with the replacement after it.
      if (a.range.begin == b.range.begin) {
        EXPECT_TRUE(a.range.empty() && !b.range.empty()) << src;
      }
    }
    p.render();
  }
}

} // namespace
} // namespace wuc::test
