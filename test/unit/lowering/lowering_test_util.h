// lowering_test_util.h — lower a snippet with hand-made semantic facts, look
// at the C, and compile it.
//
// The frontend parses the snippet (a whole .wc file); the facts the Clang
// pass would produce are written by the test (ClauseFacts below), so these
// tests need no Clang.  The produced C is compiled with the C compiler the
// build uses (and clang, if CMake found one) under -Werror.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "frontend_test_util.h"
#include "sema.h"

namespace wuc::test {

// ---- facts, as sema/sema.cpp fills them for <wuc.h>'s types -----

// x << ch: `inPlace` when x has the channel's element type.
ClauseFacts recvFacts(bool inPlace = true, bool channelIsPointer = false);
// x << ch into a `register` variable.
ClauseFacts recvRegisterFacts();
// ch << e
ClauseFacts sendFacts(bool channelIsPointer = false);
// closed(ch)
ClauseFacts closedFacts(bool channelIsPointer = false);
// timeout(d)
ClauseFacts timeoutFacts();
// readable(fd) (`readable`), writable(fd) (otherwise)
ClauseFacts fdFacts(bool readable = true);
// A resource whose trait WUC_SELECTABLE(T, <reg>, <unreg>, <sel>) declared,
// e.g. resourceFacts("latch").
ClauseFacts resourceFacts(const std::string &type, bool isPointer = false,
                          std::vector<std::string> memberPath = {});
// future(T): the trait of WUC_FUTURE_STRUCT(wuc_future_<T>, T).
ClauseFacts futureFacts(const std::string &mangled = "int", bool isPointer = false);

// ---- lowering ----------------------------------------------------------

struct Lowered {
  Parsed parsed;
  std::string c;     // lowerFile's output
  std::string plain; // c without its #line directives

  // The block of statement `id` in `plain`, from its opening comment to its
  // `__wucN_end:;` label.
  std::string statement(unsigned id) const;
};

// Parses `source` (path "t.wc") and lowers it with facts[i][j] for clause j
// of statement i.  Fails the test (fatally) on a parse error or facts that
// do not match the statements the frontend found.
void lower(const std::string &source, const std::vector<std::vector<ClauseFacts>> &facts,
           Lowered &out);
// The same with the semantic pass's canonical type tags (SemaFacts::typeTags).
void lower(const std::string &source, const std::vector<std::vector<ClauseFacts>> &facts,
           const std::map<std::string, std::string> &typeTags, Lowered &out);

// ---- looking at text -----------------------------------------------------

size_t count(const std::string &text, const std::string &needle);
// `text` without the lines that are generated comments (the clause
// comments quote the user's text).
std::string codeLines(const std::string &text);
// Every needle occurs in `text`, in this order (each after the previous one).
::testing::AssertionResult inOrder(const std::string &text,
                                   std::initializer_list<std::string> needles);
// The lines of `text` that contain `needle`, whole.
std::vector<std::string> linesWith(const std::string &text, const std::string &needle);
// The line after the first line of `text` that equals `line` (trailing blanks
// ignored), or "<none>".
std::string lineAfter(const std::string &text, const std::string &line);

// ---- compiling -----------------------------------------------------------

struct CompileResult {
  bool ok = false;
  std::string compiler;
  std::string output; // the compiler's stdout + stderr
};

// Runs `compiler -x c -std=gnu11 -Wall -Wextra -Werror -fsyntax-only
// -I<stdlib> file.c` on `c` (written to a temporary file).
CompileResult compileC(const std::string &compiler, const std::string &c);
// The compilers to try: the build's C compiler, and clang if configured.
std::vector<std::string> testCompilers();

// Passes if every compiler in testCompilers() accepts `c` without a warning.
::testing::AssertionResult compilesCleanly(const std::string &c);

} // namespace wuc::test
