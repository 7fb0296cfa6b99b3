// The waituntil grammar (docs/language.md §3) and the statement skeleton around it.
#include <gtest/gtest.h>

#include "frontend_test_util.h"

namespace wuc::test {
namespace {

#define EXPECT_PARSES(p) ASSERT_TRUE((p).ok) << (p).diags

TEST(Grammar, SingleClauseCompoundBody) {
  Parsed p = parseBody("  waituntil (x << c) { a(); }");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  const WaitUntil &w = p.fe.statements[0];
  EXPECT_EQ(p.text(w.range), "waituntil (x << c) { a(); }");
  EXPECT_EQ(p.tree(0), "0");
  ASSERT_EQ(w.clauses.size(), 1u);
  const Clause &c = w.clauses[0];
  EXPECT_EQ(c.index, 0u);
  EXPECT_EQ(p.pos(c.keywordOffset), "2:3");
  EXPECT_FALSE(c.hasGuard);
  EXPECT_EQ(p.text(c.operand), "x << c");
  EXPECT_EQ(c.form, ClauseForm::Shift);
  EXPECT_EQ(p.text(c.lhs), "x");
  EXPECT_EQ(p.text(c.rhs), "c");
  EXPECT_EQ(p.pos(c.shiftOffset), "2:16");
  EXPECT_EQ(p.text(c.body), "{ a(); }");
  EXPECT_FALSE(w.elseBranch.present);
}

TEST(Grammar, OrChainIsOneNode) {
  Parsed p = parseBody("waituntil (a) x(); or waituntil (b) y(); or waituntil (c) z();");
  EXPECT_PARSES(p);
  EXPECT_EQ(p.tree(0), "(or 0 1 2)");
  EXPECT_EQ(p.text(p.clause(0, 2).operand), "c");
  EXPECT_EQ(p.text(p.clause(0, 2).body), "z();");
}

TEST(Grammar, AndBindsTighterThanOr) {
  EXPECT_EQ(parseBody("waituntil (a) ; or waituntil (b) ; and waituntil (c) ;").tree(0),
            "(or 0 (and 1 2))");
  EXPECT_EQ(parseBody("waituntil (a) ; and waituntil (b) ; or waituntil (c) ; and waituntil (d) ;")
                .tree(0),
            "(or (and 0 1) (and 2 3))");
  EXPECT_EQ(parseBody("waituntil (a) ; and waituntil (b) ; and waituntil (c) ;").tree(0),
            "(and 0 1 2)");
}

TEST(Grammar, SymbolSpellings) {
  Parsed p = parseBody("waituntil (a) ; || waituntil (b) ; && waituntil (c) ; or waituntil (d) ;");
  EXPECT_PARSES(p);
  EXPECT_EQ(p.tree(0), "(or 0 (and 1 2) 3)");
}

TEST(Grammar, ParenthesesGroup) {
  EXPECT_EQ(parseBody("(waituntil (a) ; or waituntil (b) ;) and waituntil (c) ;").tree(0),
            "(and (or 0 1) 2)");
  EXPECT_EQ(parseBody("waituntil (a) ; and (waituntil (b) ; or waituntil (c) ;)").tree(0),
            "(and 0 (or 1 2))");
  // Parentheses around a single operand add no node.
  Parsed p = parseBody("((waituntil (a) ;)) or waituntil (b) ;");
  EXPECT_PARSES(p);
  EXPECT_EQ(p.tree(0), "(or 0 1)");
  EXPECT_EQ(p.text(p.fe.statements[0].range), "((waituntil (a) ;)) or waituntil (b) ;");
  // A parenthesised chain stays a node of its own (no flattening).
  Parsed q = parseBody("(waituntil (a) ; or waituntil (b) ;) or waituntil (c) ;");
  EXPECT_EQ(q.tree(0), "(or (or 0 1) 2)");
  EXPECT_TRUE(q.fe.statements[0].tree.kids[0].parenthesised);
  EXPECT_FALSE(q.fe.statements[0].tree.parenthesised);
  EXPECT_EQ(parseBody("((waituntil (a) ; or (waituntil (b) ; and waituntil (c) ;)))").tree(0),
            "(or 0 (and 1 2))");
}

TEST(Grammar, Guards) {
  Parsed p = parseBody("when (n > 0) waituntil (f) ;\n or when ( ok(1, 2) ) waituntil (g) {}");
  EXPECT_PARSES(p);
  const WaitUntil &w = p.fe.statements[0];
  EXPECT_EQ(p.text(w.range).substr(0, 4), "when");
  const Clause &a = w.clauses[0], &b = w.clauses[1];
  EXPECT_TRUE(a.hasGuard);
  EXPECT_EQ(p.pos(a.guardOffset), "2:1");
  EXPECT_EQ(p.text(a.guard), "n > 0");
  EXPECT_EQ(p.pos(a.keywordOffset), "2:14");
  EXPECT_TRUE(b.hasGuard);
  EXPECT_EQ(p.text(b.guard), "ok(1, 2)");
  EXPECT_EQ(p.pos(b.guardOffset), "3:5");
}

TEST(Grammar, Else) {
  Parsed p = parseBody("waituntil (a) x(); or waituntil (b) y(); or else { z(); }");
  EXPECT_PARSES(p);
  const WaitUntil &w = p.fe.statements[0];
  EXPECT_EQ(p.tree(0), "(or 0 1) else");
  ASSERT_TRUE(w.elseBranch.present);
  EXPECT_EQ(p.pos(w.elseBranch.keywordOffset), "2:45");
  EXPECT_FALSE(w.elseBranch.hasGuard);
  EXPECT_EQ(p.text(w.elseBranch.body), "{ z(); }");
  EXPECT_EQ(p.text(w.range), "waituntil (a) x(); or waituntil (b) y(); or else { z(); }");

  Parsed q = parseBody("waituntil (a) ; or when (c) else ;");
  EXPECT_PARSES(q);
  EXPECT_EQ(q.tree(0), "0 else");
  EXPECT_TRUE(q.fe.statements[0].elseBranch.hasGuard);
  EXPECT_EQ(q.text(q.fe.statements[0].elseBranch.guard), "c");
  EXPECT_EQ(q.text(q.fe.statements[0].elseBranch.body), ";");

  // else after an and-list, joined by or.
  EXPECT_EQ(parseBody("waituntil (a) ; and waituntil (b) ; or else ;").tree(0), "(and 0 1) else");
}

TEST(Grammar, SingleStatementBodies) {
  Parsed p = parseBody(
      "waituntil (a) x = 1; or waituntil (b) ; or waituntil (c) if (q) r(); else s();\n"
      "or waituntil (d) return; or waituntil (e) while (k) k--; or waituntil (f) lbl: g();\n"
      "or waituntil (h) switch (v) { case 1: break; } or waituntil (i) do m(); while (0);\n"
      "or waituntil (j) for (;;) break; or waituntil (k) goto out; or waituntil (l) asm "
      "volatile(\"nop\");");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  const char *bodies[] = {
      "x = 1;",          ";",         "if (q) r(); else s();",         "return;",
      "while (k) k--;",  "lbl: g();", "switch (v) { case 1: break; }", "do m(); while (0);",
      "for (;;) break;", "goto out;", "asm volatile(\"nop\");"};
  ASSERT_EQ(p.fe.statements[0].clauses.size(), 11u);
  for (size_t i = 0; i < 11; i++) EXPECT_EQ(p.text(p.clause(0, i).body), bodies[i]) << i;
}

TEST(Grammar, WaituntilAsBody) {
  Parsed p = parseBody("waituntil (a) waituntil (b) s();");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 2u);
  EXPECT_EQ(p.text(p.fe.statements[0].range), "waituntil (a) waituntil (b) s();");
  EXPECT_EQ(p.text(p.clause(0, 0).body), "waituntil (b) s();");
  EXPECT_EQ(p.text(p.fe.statements[1].range), "waituntil (b) s();");
  EXPECT_EQ(p.fe.statements[0].id, 0u);
  EXPECT_EQ(p.fe.statements[1].id, 1u);
}

TEST(Grammar, OperatorContinuesInnermost) {
  Parsed p = parseBody("waituntil (a) waituntil (b) s(); or waituntil (c) t();");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 2u);
  EXPECT_EQ(p.tree(0), "0");
  EXPECT_EQ(p.text(p.clause(0, 0).body), "waituntil (b) s(); or waituntil (c) t();");
  EXPECT_EQ(p.tree(1), "(or 0 1)");
  // A group as a body is a statement of its own, continued in turn; to
  // continue the outer statement, parenthesise it.
  Parsed q = parseBody("waituntil (a) (waituntil (b) s();) or waituntil (c) t();");
  EXPECT_PARSES(q);
  EXPECT_EQ(q.tree(0), "0");
  EXPECT_EQ(q.tree(1), "(or 0 1)");
  Parsed r = parseBody("(waituntil (a) waituntil (b) s();) or waituntil (c) t();");
  EXPECT_PARSES(r);
  EXPECT_EQ(r.tree(0), "(or 0 1)");
  EXPECT_EQ(r.text(r.clause(0, 0).body), "waituntil (b) s();");
}

TEST(Grammar, DanglingElse) {
  Parsed p = parseBody("if (x) waituntil (a) s(); else t();");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  EXPECT_EQ(p.text(p.fe.statements[0].range), "waituntil (a) s();");
  Parsed q = parseBody("if (x) if (y) a(); else b(); waituntil (c) d();");
  EXPECT_PARSES(q);
  EXPECT_EQ(q.text(q.fe.statements[0].range), "waituntil (c) d();");
  Parsed r = parseBody("waituntil (a) if (y) b(); else c(); or waituntil (d) e();");
  EXPECT_PARSES(r);
  EXPECT_EQ(r.tree(0), "(or 0 1)");
  EXPECT_EQ(r.text(r.clause(0, 0).body), "if (y) b(); else c();");
}

TEST(Grammar, NestedEverywhere) {
  Parsed p = parseBody("if (q) waituntil (a) {\n"
                       "  waituntil (b) ;\n"
                       "} or else { waituntil (c) ; }\n"
                       "while (1) waituntil (d) ;\n"
                       "for (int i = 0; i < 3; i++) waituntil (e) ;\n"
                       "switch (k) { case 1: waituntil (f) ; default: lbl: waituntil (g) ; }\n"
                       "int v = ({ int t; waituntil (t << h) ; t; });\n"
                       "struct s z = { .x = ({ waituntil (i) ; 1; }) };\n"
                       "do waituntil (j) ; while (0);");
  EXPECT_PARSES(p);
  std::vector<std::string> operands;
  for (const WaitUntil &w : p.fe.statements) operands.push_back(p.text(w.clauses[0].operand));
  std::vector<std::string> want = {"a", "b", "c", "d", "e", "f", "g", "t << h", "i", "j"};
  EXPECT_EQ(operands, want);
  for (size_t i = 0; i + 1 < p.fe.statements.size(); i++)
    EXPECT_LT(p.fe.statements[i].range.begin, p.fe.statements[i + 1].range.begin);
  EXPECT_EQ(p.text(p.fe.statements[0].elseBranch.body), "{ waituntil (c) ; }");
}

TEST(Grammar, ContextualOrAndAreIdentifiers) {
  // After a body, `or`/`and` continue only before waituntil, when, ( or else.
  Parsed q =
      parseBody("int or = 1, and = 2;\nwaituntil (a) x(); or = 1; and += or;\nor(3); and: ;\n"
                "if (or and and) ; x = or ? and : or;");
  EXPECT_PARSES(q);
  ASSERT_EQ(q.fe.statements.size(), 1u);
  EXPECT_EQ(q.text(q.fe.statements[0].range), "waituntil (a) x();");
  // `or (` after a body continues the statement (rule 9), so `or (3);` is an error there ...
  Parsed r = parseBody("waituntil (a) x(); or (3);");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, "2:23: expected 'waituntil', 'when', '(' or 'else' after 'or'\n");
  // ... but a call anywhere else.
  EXPECT_TRUE(parseBody("x(); or(3); and(4);").ok);
  // `or` as a clause body's first word is the body.
  Parsed s = parseBody("waituntil (a) or(1); or waituntil (b) and(2);");
  EXPECT_PARSES(s);
  EXPECT_EQ(s.tree(0), "(or 0 1)");
  EXPECT_EQ(s.text(s.clause(0, 0).body), "or(1);");
  EXPECT_EQ(s.text(s.clause(0, 1).body), "and(2);");
}

TEST(Grammar, TimeoutAndClosedForms) {
  Parsed p = parseBody(
      "waituntil (timeout(5`ms)) ; or waituntil (closed( c )) ; or waituntil (timeout) ;\n"
      "or waituntil (closed(a)(b)) ; or waituntil (timeout(d) << c) ; or waituntil (closedx(c)) ;");
  EXPECT_PARSES(p);
  const WaitUntil &w = p.fe.statements[0];
  EXPECT_EQ(w.clauses[0].form, ClauseForm::Timeout);
  EXPECT_EQ(p.text(w.clauses[0].arg), "5`ms");
  EXPECT_EQ(w.clauses[1].form, ClauseForm::Closed);
  EXPECT_EQ(p.text(w.clauses[1].arg), "c");
  EXPECT_EQ(w.clauses[2].form, ClauseForm::Resource);
  EXPECT_EQ(w.clauses[3].form, ClauseForm::Resource);
  EXPECT_EQ(w.clauses[4].form, ClauseForm::Shift);
  EXPECT_EQ(w.clauses[5].form, ClauseForm::Resource);
  // Even when the program declares functions of those names.
  Parsed q =
      parse("int timeout(int); int closed(int);\nvoid f(void) { waituntil (closed(3)) ; }\n");
  EXPECT_PARSES(q);
  EXPECT_EQ(q.clause(0, 0).form, ClauseForm::Closed);
}

TEST(Grammar, ReadableAndWritableForms) {
  Parsed p = parseBody("waituntil (readable(fds[0])) ; or waituntil (writable ( c.fd )) ; or "
                       "waituntil (readable) ;\n"
                       "or waituntil (writable(a)(b)) ; or waituntil (readable(d) + 1) ;\n"
                       "or waituntil (readable(d) << c) ; or waituntil (readablex(c)) ;");
  EXPECT_PARSES(p);
  const WaitUntil &w = p.fe.statements[0];
  EXPECT_EQ(w.clauses[0].form, ClauseForm::Readable);
  EXPECT_EQ(p.text(w.clauses[0].arg), "fds[0]");
  EXPECT_EQ(w.clauses[1].form, ClauseForm::Writable);
  EXPECT_EQ(p.text(w.clauses[1].arg), "c.fd");
  EXPECT_EQ(w.clauses[2].form, ClauseForm::Resource);
  EXPECT_EQ(w.clauses[3].form, ClauseForm::Resource);
  EXPECT_EQ(w.clauses[4].form, ClauseForm::Resource);
  EXPECT_EQ(w.clauses[5].form, ClauseForm::Shift);
  EXPECT_EQ(w.clauses[6].form, ClauseForm::Resource);
  // Even when the program declares functions of those names.
  Parsed q = parse("int readable(int); int writable;\n"
                   "void f(void) { waituntil (readable(3)) ; and waituntil (writable(4)) ; }\n");
  EXPECT_PARSES(q);
  EXPECT_EQ(q.clause(0, 0).form, ClauseForm::Readable);
  EXPECT_EQ(q.clause(0, 1).form, ClauseForm::Writable);
}

struct ShiftCase {
  const char *operand;
  const char *lhs; // nullptr: not a Shift
  const char *rhs;
};

TEST(Grammar, ShiftSplitting) {
  const ShiftCase cases[] = {
      {"x << c", "x", "c"},
      {"a << b << c", "a << b", "c"},
      {"x << (a < b)", "x", "(a < b)"},
      {"*p << arr[i << 1]", "*p", "arr[i << 1]"},
      {"x << &c", "x", "&c"},
      {"f(a, b) << c", "f(a, b)", "c"},
      {"s.v[1] << ps->ch", "s.v[1]", "ps->ch"},
      {"x + 1 << c", "x + 1", "c"},
      {"(int)x << c", "(int)x", "c"},
      {"x < y << z", nullptr, nullptr},
      {"a = b << c", nullptr, nullptr},
      {"a & b << c", nullptr, nullptr},
      {"a , b << c", nullptr, nullptr},
      {"a ? b : c << d", nullptr, nullptr},
      {"a << b >> c", nullptr, nullptr},
      {"a || b << c", nullptr, nullptr},
      {"x <<= c", nullptr, nullptr},
      {"f", nullptr, nullptr},
  };
  for (const ShiftCase &sc : cases) {
    Parsed p = parseBody(std::string("waituntil (") + sc.operand + ") ;");
    ASSERT_TRUE(p.ok) << sc.operand << "\n" << p.diags;
    const Clause &c = p.clause(0, 0);
    EXPECT_EQ(p.text(c.operand), sc.operand);
    if (!sc.lhs) {
      EXPECT_EQ(c.form, ClauseForm::Resource) << sc.operand;
      continue;
    }
    EXPECT_EQ(c.form, ClauseForm::Shift) << sc.operand;
    EXPECT_EQ(p.text(c.lhs), sc.lhs) << sc.operand;
    EXPECT_EQ(p.text(c.rhs), sc.rhs) << sc.operand;
    EXPECT_EQ(p.text({c.shiftOffset, c.shiftOffset + 2}), "<<");
  }
}

TEST(Grammar, OperandAndGuardRanges) {
  Parsed p = parseBody("when ( /*g*/ k /*h*/ ) waituntil (  /*o*/ x /*p*/ << c  ) ;");
  EXPECT_PARSES(p);
  const Clause &c = p.clause(0, 0);
  EXPECT_EQ(p.text(c.guard), "k");
  EXPECT_EQ(p.text(c.operand), "x /*p*/ << c");
  EXPECT_EQ(p.text(c.lhs), "x");
}

TEST(Grammar, StatementRangeStartsAtFirstToken) {
  Parsed p = parseBody("(when (k) waituntil (a) ; or waituntil (b) ;) and waituntil (c) {}\nx();");
  EXPECT_PARSES(p);
  EXPECT_EQ(p.text(p.fe.statements[0].range),
            "(when (k) waituntil (a) ; or waituntil (b) ;) and waituntil (c) {}");
}

TEST(Grammar, ManyClauses) {
  std::string body = "waituntil (c0) ;";
  for (int i = 1; i < 10000; i++) body += " or waituntil (c" + std::to_string(i) + ") ;";
  Parsed p = parseBody(body);
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  const WaitUntil &w = p.fe.statements[0];
  EXPECT_EQ(w.clauses.size(), 10000u);
  EXPECT_EQ(w.tree.kind, TreeNode::Or);
  EXPECT_EQ(w.tree.kids.size(), 10000u);
  EXPECT_EQ(p.text(w.clauses[9999].operand), "c9999");
}

TEST(Grammar, DeepNesting) {
  // 1000 statements, each the body of the one before.
  std::string body;
  for (int i = 0; i < 1000; i++) body += "waituntil (c" + std::to_string(i) + ") ";
  body += ";";
  Parsed p = parseBody(body);
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1000u);
  EXPECT_EQ(p.text(p.fe.statements[999].range), "waituntil (c999) ;");
  // 1000 nested groups.
  std::string g;
  for (int i = 0; i < 1000; i++) g += "(waituntil (a" + std::to_string(i) + ") ; or ";
  g += "waituntil (z) ;";
  for (int i = 0; i < 1000; i++) g += ")";
  Parsed q = parseBody(g);
  EXPECT_PARSES(q);
  EXPECT_EQ(q.fe.statements[0].clauses.size(), 1001u);
  // 1000 nested blocks and brackets.
  std::string b;
  for (int i = 0; i < 1000; i++) b += "{ x[(";
  b += "1";
  for (int i = 0; i < 1000; i++) b += ")]; }";
  EXPECT_TRUE(parseBody(b).ok);
}

// Issue 14: 100,000 levels of any bracket, in a function with a statement
// and in its bodies (GCC accepts them; the limit is 131072).
TEST(Grammar, HundredThousandBrackets) {
  const int n = 100000;
  for (const char *pair : {"()", "[]", "{}"}) {
    std::string e = std::string(n, pair[0]) + "1" + std::string(n, pair[1]);
    Parsed p = parseBody("x = " + e + ";\nwaituntil (a) { y = " + e + "; }");
    EXPECT_PARSES(p);
    ASSERT_EQ(p.fe.statements.size(), 1u);
    EXPECT_EQ(p.text(p.fe.statements[0].clauses[0].body).size(), e.size() + 9); // "{ y = ...; }"
  }
  std::string blocks;
  for (int i = 0; i < n; i++) blocks += "{ ";
  blocks += "waituntil (a) ;";
  for (int i = 0; i < n; i++) blocks += " }";
  Parsed q = parseBody(blocks);
  EXPECT_PARSES(q);
  EXPECT_EQ(q.fe.statements.size(), 1u);
  // Around an operand: one clause, its operand the whole group.
  Parsed r = parseBody("waituntil (" + std::string(n, '(') + "a" + std::string(n, ')') + ") ;");
  EXPECT_PARSES(r);
  EXPECT_EQ(r.text(r.clause(0, 0).operand).size(), size_t(2 * n + 1));
}

TEST(Grammar, StatementIdsInSourceOrder) {
  Parsed p = parseBody(
      "waituntil (a) { waituntil (b) ; } or waituntil (c) waituntil (d) ;\nwaituntil (e) ;");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 4u);
  const char *first[] = {"a", "b", "d", "e"};
  for (unsigned i = 0; i < 4; i++) {
    EXPECT_EQ(p.fe.statements[i].id, i);
    EXPECT_EQ(p.text(p.fe.statements[i].clauses[0].operand), first[i]);
  }
}

TEST(Skeleton, FunctionBodiesAndDeclarations) {
  Parsed p = parse(
      "struct s { int a; unsigned : 3; int b : 2; } __attribute__((packed));\n"
      "struct __attribute__((aligned(8))) t { int x; };\n"
      "enum e { A = 1, B = A ? 2 : 3 };\n"
      "int tbl[] = { [0] = 1, [1 ... 3] = 2 };\n"
      "static int (*pick(int k))(int) { waituntil (a) ; return 0; }\n"
      "void g(void) __attribute__((noreturn)) { waituntil (b) ; for (;;) ; }\n"
      "int h(int x) { struct s q = (struct s){ .a = 1 }; return x ? q.a : 0; }\n"
      "asm(\"top-level\");\n"
      "int main(void) { asm goto (\"jmp %l0\" : : : : out); out: waituntil (c) ; return 0; }\n");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 3u);
}

TEST(Skeleton, CaseLabels) {
  Parsed p = parseBody(
      "switch (k) { case 1 ... 3: case X ? 1 : 2: case (Y): case Z: default: waituntil (a) ; }");
  EXPECT_PARSES(p);
  EXPECT_EQ(p.text(p.fe.statements[0].range), "waituntil (a) ;");
}

TEST(Skeleton, MacroBlocks) {
  // A block behind a loop macro is parsed as a block; so is a last
  // statement-like macro without `;`.
  Parsed p = parseBody("LIST_FOREACH (it, &head) { waituntil (a) ; x(); }\n{ y(); UNUSED(z) }");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  // Such a block followed by a statement keyword ends its statement.
  Parsed q = parseBody(
      "FOREACH (x) { waituntil (a) ; } return;\nif (k) FOREACH (y) { z(); } else waituntil (b) ;\n"
      "int inner(int v) { return v; } waituntil (c) ;\n"
      "if (k) { a(); } else { b(); } while (0) { c(); } do { d(); } while (0);");
  EXPECT_PARSES(q);
  ASSERT_EQ(q.fe.statements.size(), 3u);
  EXPECT_EQ(q.text(q.fe.statements[2].range), "waituntil (c) ;");
}

TEST(Skeleton, LinkageSpecification) {
  Parsed p = parse("#ifdef __cplusplus\nextern \"C\" {\n#endif\nvoid f(void) { channel(int) c; "
                   "waituntil (a) ; }\n"
                   "#ifdef __cplusplus\n}\n#endif\n");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  ASSERT_EQ(p.fe.edits.size(), 2u);
  EXPECT_EQ(p.pos(p.fe.edits[0].range.begin),
            "4:1"); // the definition goes before f, inside the braces
}

TEST(Skeleton, DigraphsAndContinuations) {
  Parsed p = parse("void f(void) <% int a<:2:>; wait\\\nuntil (a<:0:> <\\\n< c) ; %>\n");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  const Clause &c = p.clause(0, 0);
  EXPECT_EQ(c.form, ClauseForm::Shift);
  EXPECT_EQ(p.text(c.lhs), "a<:0:>");
  EXPECT_EQ(p.text({c.shiftOffset, c.lhs.end + 5}), "<\\\n<");
  EXPECT_EQ(p.text(p.fe.statements[0].range), "wait\\\nuntil (a<:0:> <\\\n< c) ;");
}

TEST(Skeleton, PreprocessorLinesAreSkipped) {
  Parsed p = parse("#define X { waituntil (\n#  define Y \\\n   } /* { */ \"{\"\n"
                   "%: define Z {\n  # /* comment\n spanning */ define W {\n"
                   "void f(void) {\n#if 1\n  waituntil (a) ;\n#endif\n}\n");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  EXPECT_EQ(p.pos(p.fe.statements[0].range.begin), "9:3");
}

TEST(Skeleton, LiteralsAndComments) {
  Parsed p = parse("const char *s = \"waituntil ( \\\" { \", *t = u8\"}\", *u = L\"(\";\n"
                   "int c = '{', d = U'}', e = L'\\'';\n// waituntil (x) {\n/* waituntil { */\n"
                   "void f(void) { waituntil (a) ; // trailing \\\n  continued comment {\n}\n");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
}

TEST(Skeleton, PragmaOperatorsBetweenStatements) {
  // A _Pragma needs no `;` after it; inside a body it stays in the body.
  Parsed p = parseBody("_Pragma(\"GCC diagnostic push\")\n_Pragma(\"a\") waituntil (a) ; "
                       "_Pragma(\"b\")\nwaituntil (b) { _Pragma(\"c\") }\n_Pragma(\"d\")");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 2u);
  EXPECT_EQ(p.text(p.clause(0, 0).body), ";");
  EXPECT_EQ(p.text(p.clause(1, 0).body), "{ _Pragma(\"c\") }");
}

TEST(Skeleton, MacrosThatBeginAStatement) {
  // A loop macro with a block after it, or a statement.
  Parsed p =
      parseBody("REPEAT(3) { waituntil (a) ; }\nREPEAT(2) waituntil (b) ; or waituntil (c) ;\n"
                "if (x) FOREACH(y, z) if (y) waituntil (d) ; else w();\n"
                "LOG(\"no semicolon\")\nwaituntil (e) ;\ncase 1: M(x) waituntil (f) ;");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 5u);
  EXPECT_EQ(p.text(p.fe.statements[1].range), "waituntil (b) ; or waituntil (c) ;");
  EXPECT_EQ(p.tree(1), "(or 0 1)");
  EXPECT_EQ(p.text(p.fe.statements[2].range), "waituntil (d) ;");
  EXPECT_EQ(p.text(p.fe.statements[4].range), "waituntil (f) ;");
  // Not at the start of a statement: still an error.
  EXPECT_EQ(parseBody("x = f(y) waituntil (a) ;").errors,
            "2:10: a waituntil statement cannot appear here ('waituntil' can only begin a "
            "statement)\n");
}

TEST(Skeleton, WhenAsAName) {
  Parsed p = parseBody("s.when = 1; p->when++; struct o v = { .when = 2, .x = { .when = 3 } };\n"
                       "int when = 4; when++; when = when * 2; x = when; f(when); a[when] = 0;\n"
                       "when (when > 0) waituntil (a) ;");
  EXPECT_PARSES(p);
  ASSERT_EQ(p.fe.statements.size(), 1u);
  EXPECT_TRUE(p.clause(0, 0).hasGuard);
  EXPECT_EQ(p.text(p.clause(0, 0).guard), "when > 0");
  // At the start of a statement with no operator after it, `when` is the
  // guard keyword missing its parentheses.
  EXPECT_EQ(parseBody("when k waituntil (a) ;").errors, "2:6: expected '(' after 'when'\n");
}

} // namespace
} // namespace wuc::test
