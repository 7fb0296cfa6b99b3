// Every diagnostic of the frontend: exact message, line and column.
#include <gtest/gtest.h>

#include "frontend_test_util.h"
#include "messages.h"

namespace wuc::test {
namespace {

struct DiagCase {
  const char *name;
  const char *body; // inside `void f(void) {\n ... \n}`: line 2 is the body's first
  const char *errors;
};

class Diagnostics : public ::testing::TestWithParam<DiagCase> {};

TEST_P(Diagnostics, ExactMessageAndPosition) {
  const DiagCase &c = GetParam();
  Parsed p = parseBody(c.body);
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.errors, c.errors) << c.body;
}

const DiagCase kCases[] = {
    // docs/language.md §7: misplaced else.
    {"ElseNotLast", "waituntil (a) ; or else ; or waituntil (b) ;",
     "2:20: 'else' must be the last clause of a waituntil statement\n"},
    {"ElseNotLastBeforeAnd", "waituntil (a) ; or else ; and waituntil (b) ;",
     "2:20: 'else' must be the last clause of a waituntil statement\n"},
    {"ElseTwice", "waituntil (a) ; or else ; or else ;",
     "2:30: a waituntil statement can have only one 'else'\n"},
    {"ElseInParens", "(waituntil (a) ; or else ;) and waituntil (b) ;",
     "2:21: 'else' cannot appear inside parentheses\n"},
    {"ElseAloneInParens", "waituntil (a) ; or (else ;)",
     "2:21: 'else' cannot appear inside parentheses\n"},
    {"ElseAfterAnd", "waituntil (a) ; and else ;",
     "2:21: 'else' must be joined by 'or', not 'and'\n"},
    {"ElseAfterAndAnd", "waituntil (a) ; && when (k) else ;",
     "2:29: 'else' must be joined by 'or', not 'and'\n"},
    {"ElseFirst", "when (k) else ;", "2:10: 'else' needs a waituntil clause before it\n"},
    {"ElseFirstThenClause", "when (k) else ; or waituntil (a) ;",
     "2:10: 'else' needs a waituntil clause before it\n"},
    {"ElseNoStatement", "waituntil (a) ; or else\n}", "3:1: 'else' has no statement\n"},
    {"GuardedElseNoStatement", "waituntil (a) ; or when (k) else or waituntil (b) ;",
     "2:34: 'else' has no statement\n"},
    // when.
    {"WhenOnGroup", "when (k) (waituntil (a) ; or waituntil (b) ;)",
     "2:1: 'when' cannot guard a parenthesised group; guard each clause instead\n"},
    {"WhenOnSingleGroup", "waituntil (a) ; or when (k) (waituntil (b) ;)",
     "2:20: 'when' cannot guard a parenthesised group; guard each clause instead\n"},
    {"WhenWithoutClause", "when (k) k++;",
     "2:10: expected 'waituntil', '(' or 'else' after 'when (...)'\n"},
    {"WhenWhen", "when (k) when (j) waituntil (a) ;",
     "2:10: expected 'waituntil', '(' or 'else' after 'when (...)'\n"},
    {"WhenAtEnd", "waituntil (a) ; or when (k)\n}",
     "3:1: expected 'waituntil', '(' or 'else' after 'when (...)'\n"},
    {"EmptyGuard", "when () waituntil (a) ;", "2:7: 'when' needs a condition\n"},
    {"ExpectedLParenAfterWhen", "when k waituntil (a) ;", "2:6: expected '(' after 'when'\n"},
    // Clauses.
    {"EmptyParens", "waituntil (a) ; or ()", "2:20: empty parentheses in a waituntil statement\n"},
    {"EmptyParensAfterAnd", "waituntil (a) ; and () ;",
     "2:21: empty parentheses in a waituntil statement\n"},
    {"EmptyParensAfterWhen", "when (k) ()", "2:10: empty parentheses in a waituntil statement\n"},
    {"ClauseNoStatement", "waituntil (a) or waituntil (b) s();",
     "2:15: waituntil clause has no statement\n"},
    {"ClauseNoStatementAnd", "waituntil (a) && waituntil (b) s();",
     "2:15: waituntil clause has no statement\n"},
    {"ClauseNoStatementAtBlockEnd", "{ waituntil (a)\n}",
     "3:1: waituntil clause has no statement\n"},
    {"ClauseNoStatementInGroup", "(waituntil (a)) or waituntil (b) ;",
     "2:15: waituntil clause has no statement\n"},
    {"ClauseNoStatementBeforeElse", "if (k) waituntil (a) else ;",
     "2:22: waituntil clause has no statement\n"},
    {"EmptyResource", "waituntil () ;", "2:12: waituntil clause has no resource\n"},
    {"EmptyTimeout", "waituntil (timeout()) ;", "2:20: 'timeout( )' needs an argument\n"},
    {"EmptyClosed", "waituntil (closed( /* c */ )) ;", "2:28: 'closed( )' needs an argument\n"},
    {"DirectiveBetweenClauses",
     "waituntil (a) ;\n#ifdef X\n or waituntil (b) ;\n#else\n or else ;\n#endif\nx();",
     "3:1: a preprocessor directive can appear in a waituntil statement only inside a clause's "
     "body\n"
     "5:1: a preprocessor directive can appear in a waituntil statement only inside a clause's "
     "body\n"},
    {"DirectiveInOperand", "waituntil (x <<\n  #pragma nothing\n c) ;",
     "3:3: a preprocessor directive can appear in a waituntil statement only inside a clause's "
     "body\n"},
    {"ExpectedLParenAfterWaituntil", "waituntil x << c ;",
     "2:11: expected '(' after 'waituntil'\n"},
    {"ExpectedClauseAfterOr", "waituntil (a) ; or (x);",
     "2:20: expected 'waituntil', 'when', '(' or 'else' after 'or'\n"},
    {"ExpectedClauseAfterOrOr", "waituntil (a) ; || x++;",
     "2:20: expected 'waituntil', 'when', '(' or 'else' after '||'\n"},
    {"ExpectedClauseAfterAndAnd", "waituntil (a) ; && ;",
     "2:20: expected 'waituntil', 'when', '(' or 'else' after '&&'\n"},
    {"ExpectedClauseAfterAnd", "waituntil (a) ; and (k) ;",
     "2:21: expected 'waituntil', 'when', '(' or 'else' after 'and'\n"},
    // Several statements: one error each, in source order.
    {"OneErrorPerStatement", "waituntil (a) ; or else ; or else ;\nwaituntil () ;",
     "2:30: a waituntil statement can have only one 'else'\n3:12: waituntil clause has no "
     "resource\n"},
    {"NestedStatementErrorFirst",
     "waituntil (a) { waituntil (b) ; and else ; } or else ; or else ;",
     "2:37: 'else' must be joined by 'or', not 'and'\n2:59: a waituntil statement can have only "
     "one 'else'\n"},
    // Plain C around a waituntil statement.
    {"ElseWithoutIf", "waituntil (a) ;\n else x();", "3:2: 'else' without a previous 'if'\n"},
    {"MissingSemicolonBeforeBrace", "waituntil (a) x = 1\n}", "3:1: expected ';' before '}'\n"},
    {"UnmatchedParen", "waituntil (a) ; x = (1));",
     "2:24: ')' without a matching opening bracket\n"},
    {"KeywordInExpression", "x = waituntil (a) ;",
     "2:5: a waituntil statement cannot appear here "
     "('waituntil' can only begin a statement)\n"},
    {"MissingCloseBrace", "waituntil (a) { x();", "4:1: expected '}' at end of input\n"},
    {"KeywordsSpelledAsInC", "waituntil (x << c) { do x++; }",
     "2:30: expected 'while' before '}'\n"},
    // _Pragma is a directive: only in a body, inside a statement.
    {"PragmaBetweenClauses", "waituntil (a) ; _Pragma(\"x\") or waituntil (b) ;",
     "2:17: '_Pragma' can appear in a waituntil statement only inside a clause's body\n"},
    {"PragmaInGuard", "when (_Pragma(\"x\") k) waituntil (a) ;",
     "2:7: '_Pragma' can appear in a waituntil statement only inside a clause's body\n"},
    // GCC nested functions: once per function, at its first statement.
    {"NestedFunction", "int g(int v) { waituntil (a) ; waituntil (b) ; return v; }",
     "2:16: a waituntil statement cannot be in a nested function ('g' is defined inside another "
     "function, a GCC extension wucc does not support); define 'g' at file scope\n"},
    {"NestedFunctionWithAttributes",
     "static char *g(void) __attribute__((unused)) { if (1) { waituntil (a) ; } return 0; }",
     "2:57: a waituntil statement cannot be in a nested function ('g' is defined inside another "
     "function, a GCC extension wucc does not support); define 'g' at file scope\n"},
    // What the skeleton cannot see through is said as such.
    {"UnbalancedBranch", "#if A\n if (a) {\n#else\n if (b) {\n#endif\n waituntil (x) ;\n }",
     "2:1: the brackets of this '#if' branch do not balance: wucc does not evaluate conditional "
     "compilation, so in a function with a waituntil statement each branch must close the "
     "brackets it opens\n"},
    {"UnbalancedElseBranch", "if (a) {\n#ifdef A\n }\n#else\n }\n#endif\n waituntil (x) ;",
     "3:1: the brackets of this '#ifdef' branch do not balance: wucc does not evaluate "
     "conditional compilation, so in a function with a waituntil statement each branch must "
     "close the brackets it opens\n"},
    {"UnbalancedBranchParens", "waituntil (x) ;\n#if A\n f(1,\n#elif B\n f(2,\n#endif\n 3);",
     "3:1: the brackets of this '#if' branch do not balance: wucc does not evaluate conditional "
     "compilation, so in a function with a waituntil statement each branch must close the "
     "brackets it opens\n"},
    {"UnbalancedBranchAfterTheError", "waituntil (x) ; x = (1));\n}\n#if A\n{\n#endif\n",
     "2:24: ')' without a matching opening bracket\n"},
    {"UnbalancedBranchAfterTheErrorInItsFunction", "waituntil (x) ; x = (1));\n#if A\n{\n#endif\n",
     "2:24: ')' without a matching opening bracket\n"},
    {"UnbalancedMacro", "#define END }\n if (a) {\n waituntil (x) ;\n END",
     "5:2: macro 'END' expands to unbalanced brackets: wucc does not expand macros, so in a "
     "function with a waituntil statement every bracket must be written out\n"},
    // Lexical.
    {"UnterminatedComment", "waituntil (a) ; /* x\n\n", "2:17: unterminated /* comment\n"},
    {"UnterminatedString", "waituntil (a) puts(\"x);",
     "2:20: missing terminating '\"' character\n"},
    {"UnterminatedChar", "waituntil (a) c = 'x;", "2:19: missing terminating ' character\n"},
    {"UnterminatedCharInABody", "waituntil (a) { c = 'x; }\n",
     "2:21: missing terminating ' character\n"},
    {"UnterminatedStringBeforeTheStatement", "waituntil (a) ;\nwaituntil (b\"x) ;\n",
     "3:13: missing terminating '\"' character\n"},
    {"UnknownDurationUnit", "d = 10`min;",
     "2:5: unknown duration unit 'min' (expected ns, us, ms or s)\n"},
    {"DurationUnitMissing", "d = 10`;",
     "2:5: unknown duration unit ';' (expected ns, us, ms or s)\n"},
    {"DurationNeedsNumber", "d = `ms;", "2:5: a duration literal needs a number before '`'\n"},
    {"DurationAfterIdentifier", "d = n`ms;", "2:6: a duration literal needs a number before '`'\n"},
    {"DurationOverflow", "d = 9223372037`s;",
     "2:5: duration literal '9223372037`s' is too large for a duration_t (at most "
     "9223372036854775807 ns, about 292 years)\n"},
    {"DurationOverflowHex", "d = 0x8000000000000000 `ns;",
     "2:5: duration literal '0x8000000000000000`ns' is too large for a duration_t (at most "
     "9223372036854775807 ns, about 292 years)\n"},
    {"DurationOverflowFloating", "d = 9.3e9`s + 1e300`us;",
     "2:5: duration literal '9.3e9`s' is too large for a duration_t (at most "
     "9223372036854775807 ns, about 292 years)\n"
     "2:15: duration literal '1e300`us' is too large for a duration_t (at most "
     "9223372036854775807 ns, about 292 years)\n"},
    {"EmptyChannelType", "channel() c;", "2:1: expected a type name in 'channel( )'\n"},
    {"EmptyFutureType", "x = sizeof(future( /* none */ ));",
     "2:12: expected a type name in 'future( )'\n"},
    {"StatementInsideTypeName", "x = sizeof(channel(__typeof__(({ waituntil (a) ; 1; }))));",
     "2:34: a waituntil statement cannot appear here ('waituntil' can only begin a statement)\n"},
};

INSTANTIATE_TEST_SUITE_P(Frontend, Diagnostics, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<DiagCase> &i) {
                           return std::string(i.param.name);
                         });

TEST(DiagnosticsFormat, ClangStyleWithCaret) {
  Parsed p = parse("void f(void) {\n\twaituntil (a) ; or else ; or\telse ;\n}\n", "dir/prog.wc");
  EXPECT_EQ(p.diags, "dir/prog.wc:2:31: error: a waituntil statement can have only one 'else'\n"
                     "\twaituntil (a) ; or else ; or\telse ;\n"
                     "\t                            \t^\n");
}

TEST(DiagnosticsFormat, PlainCErrorsOutsideWaituntilAreNotOurs) {
  // A declaration without a waituntil statement is copied through; the
  // back-end compiler judges it (the skeleton may not see through macros).
  Parsed p = parse("void h(void) { waituntil (a) ; }\nvoid f(void) { FOREACH(x) return; }\n"
                   "int g(void) {\n#if A\n{\n#endif\n}\n");
  EXPECT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.statements.size(), 1u);
  // `when` is a keyword, but a file that never writes `when (` nor
  // `waituntil` may still use it as a name.
  EXPECT_TRUE(
      parse("struct utimbuf when; void f(void) { when.actime = 0; utime(\"f\", &when); }\n").ok);
}

TEST(DiagnosticsFormat, DirectivesInsideBodiesAreFine) {
  Parsed p = parseBody(
      "waituntil (a) {\n#if X\n  x();\n#endif\n} or waituntil (b) y(\n#pragma once\n  );\n"
      "or else {\n# line 3\n}");
  EXPECT_TRUE(p.ok) << p.diags;
  // ... but a body's directive that is the body's first thing is before it.
  Parsed q = parseBody("waituntil (a)\n#pragma x\n  y();");
  EXPECT_EQ(q.errors, "3:1: a preprocessor directive can appear in a waituntil statement only "
                      "inside a clause's body\n");
}

TEST(DiagnosticsFormat, LongLineShowsAWindowAroundTheCaret) {
  // A line over 4096 bytes is cut to 80 bytes either side of the caret, so a
  // generated one-line file does not put megabytes on stderr.
  const std::string pad(5000, 'x'),
      code = "; void f(void) { waituntil (a) ; or else ; or else ; } int ";
  Parsed p = parse("int " + pad + code + pad + ";\n");
  EXPECT_EQ(p.diags, "t.wc:1:5051: error: a waituntil statement can have only one 'else'\n..." +
                         pad.substr(0, 34) + code + pad.substr(0, 67) + "...\n   " +
                         std::string(80, ' ') + "^\n");
  // A caret near the start of a long line needs no leading "...".
  Parsed q = parse(code.substr(2) + pad + ";\n");
  EXPECT_EQ(q.diags, "t.wc:1:45: error: a waituntil statement can have only one 'else'\n" +
                         code.substr(2) + pad.substr(0, 67) + "...\n" + std::string(44, ' ') +
                         "^\n");
}

TEST(DiagnosticsFormat, NestingLimit) {
  std::string deep(140000, '(');
  Parsed p = parse("int x = " + deep + ";\n");
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.errors, "1:131081: brackets nested too deeply (more than 131072 levels)\n");
}

TEST(DiagnosticsFormat, GroupAndTypeNestingLimits) {
  std::string g;
  for (int i = 0; i < 4097; i++) g += "(waituntil (a) ; or ";
  g += "waituntil (z) ;" + std::string(4097, ')');
  Parsed p = parseBody(g);
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.errors, "2:1: waituntil groups nested too deeply (more than 4096 levels of "
                      "parentheses around clauses)\n");
  std::string t = "int";
  for (int i = 0; i < 4097; i++) t = "channel(" + t + ")";
  Parsed q = parse("static " + t + " c;\n");
  EXPECT_FALSE(q.ok);
  EXPECT_EQ(q.errors, "1:8: channel and future types nested too deeply (more than 4096 levels)\n");
  // Not a type (a call): no limit of the dialect's.
  EXPECT_TRUE(parse("int x = " + t + ";\n").ok);
}

} // namespace
} // namespace wuc::test
