// The lowering (lowering/lower.cpp): a waituntil statement parsed by the
// frontend, with the semantic facts written here by hand, becomes the C that
// docs/lowering.md describes.  Each test checks the text for concrete lines
// and their order, and compiles the whole lowered file with -Werror.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "lowering_test_util.h"

namespace wuc::test {
namespace {

// Lines 1-7 of most snippets; the function f starts on line 8 and the
// snippet's first line is line 10.
const char kPrelude[] = R"(#include <wuc.h>
channel(int) a;
channel(int) b;
channel(int) c;
latch e;
int g(int);
void use(long);
)";

// `body` (from line 10) inside `int f(int n)`, with int x, y, r to use.
std::string fn(const std::string &body) {
  return std::string(kPrelude) + "int f(int n) {\n  int x = 0, y = 0, r = 0; (void)n;\n" + body +
         "\n  return x + y + r;\n}\n";
}

// The lines of the completion predicate, trimmed: from the comment that
// opens it to the call of wuc_wu_mixed_step.
std::vector<std::string> predicate(const std::string &stmt) {
  std::vector<std::string> out;
  std::istringstream in(stmt);
  bool on = false;
  for (std::string line; std::getline(in, line);) {
    std::string t = line.substr(std::min(line.find_first_not_of(' '), line.size()));
    if (t == "/* completion predicate: which clauses are still needed */") {
      on = true;
      continue;
    }
    if (!on) continue;
    out.push_back(t);
    if (t.find("wuc_wu_mixed_step(") != std::string::npos) break;
  }
  return out;
}

using Lines = std::vector<std::string>;

// ---- one clause ------------------------------------------------------------

TEST(Lowering, SingleReceiveInPlace) {
  Lowered l;
  lower(fn("  waituntil (x << a) { x++; }"), {{recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(
      inOrder(s, {"{ /* waituntil statement 0 at t.wc:10:3: all-or, 1 clause */",
                  "struct { /* the statement's state */",
                  "wuc_wu __wuc_wu; /* withdraws on any exit: wuc_wu_exit */",
                  "wuc_wu_clause __wuc_clauses[1];", "wuc_chan_recv_clause __wuc_clause0_recv;",
                  "} __wuc0 __attribute__((__cleanup__(wuc_wu_state_exit)));",
                  "wuc_wu_begin(&__wuc0.__wuc_wu, __wuc0.__wuc_clauses);",
                  // the operands' addresses: locals of the evaluation's block
                  "{ /* the clauses' evaluation, the early try, the set-up and the paths */",
                  "/* clause 0 at t.wc:10:3: waituntil (x << a) */",
                  "__extension__ __auto_type __wuc0_clause0_recv_target = &(x);",
                  "__extension__ __auto_type __wuc0_clause0_recv_chan = &(a);",
                  "__wuc0.__wuc_clause0_recv = WUC_CHAN_RECV_CLAUSE(__wuc0_clause0_recv_chan);",
                  "/* early try: clause 0 before the statement is set up, without a node */",
                  "if (wuc_wu_recv_early(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause0_recv, (void "
                  "*)__wuc0_clause0_recv_target, 1)) {",
                  "wuc_wu_won_early(&__wuc0.__wuc_wu, 0);", "goto __wuc0_clause0_recv_early;",
                  "wuc_wu_clause_init(&__wuc0.__wuc_wu, 0, 1, (void *)&__wuc0.__wuc_clause0_recv, "
                  "&wuc_selectable_ops_wuc_chan_recv_register, (void *)__wuc0_clause0_recv_target, "
                  "\"t.wc:10:3\");",
                  "/* fast path: try each clause in source order without registering */",
                  "(void)wuc_wu_try_node(&__wuc0.__wuc_wu, 0); /* tried early: its node only */",
                  "/* block: register every enabled clause, park until one completes */",
                  "switch (wuc_wu_block_all_or(&__wuc0.__wuc_wu)) {",
                  "case 0: goto __wuc0_clause0_recv_won;", "default: goto __wuc0_end;", "}",
                  "__wuc0_clause0_recv_won:",
                  "if (wuc_chan_recv_on_selected(&__wuc0.__wuc_clause0_recv, "
                  "&__wuc0.__wuc_clauses[0].__wuc_node)) {",
                  "__wuc0_clause0_recv_early: /* its early try completed */", "{ x++; }",
                  "if (wuc_wu_end_winner(&__wuc0.__wuc_wu, 0)) "
                  "(void)wuc_chan_recv_unregister(&__wuc0.__wuc_clause0_recv, "
                  "&__wuc0.__wuc_clauses[0].__wuc_node);",
                  "goto __wuc0_end;", "__wuc0_end:;"}));
  // In place: no temporary element, no guard variable, no guard test.
  EXPECT_EQ(count(s, "_elem"), 0u) << s;
  EXPECT_EQ(count(s, "_enabled"), 0u) << s;
  EXPECT_EQ(count(s, "every clause removed"), 0u) << s;
  EXPECT_EQ(count(l.c, "{ x++; }"), 1u);
  // The file with the wuc headers before the external declaration of its
  // first construct, and the statement replaced.
  EXPECT_EQ(l.c.find("#include"), l.c.find("#include <wuc.h>\n\n#include <wuc/channel.h>\n"));
  EXPECT_TRUE(inOrder(l.c, {"#include <wuc.h>\n\n#include <wuc/channel.h>\n#include "
                            "<wuc/waituntil.h>\n#line 2 \"t.wc\"\n"
                            "WUC_CHANNEL_STRUCT(wuc_channel_int, int);",
                            "struct wuc_channel_int a;", "__wuc0_end:;", "return x + y + r;"}));
  EXPECT_EQ(count(l.c, "channel(int)"), 0u);
  EXPECT_TRUE(compilesCleanly(l.c));
}

// ---- channel and future types (docs/lowering.md, "Types") -------------------

TEST(Lowering, TypesTakeTheCanonicalTagUnderAGuard) {
  Lowered l;
  lower("typedef struct m { int x; } m_t;\n"
        "channel(m_t) a;\n"
        "channel(struct m) *b = &a;\n"
        "channel(channel(m_t) *) c;\n",
        {},
        {{"wuc_channel_m_t", "wuc_channel_struct_m"},
         {"wuc_channel_struct_m", "wuc_channel_struct_m"},
         {"wuc_channel_struct_wuc_channel_m_t_P", "wuc_channel_struct_wuc_channel_struct_m_P"}},
        l);
  // The typedef, and T of the definition of channel(m_t) (the inner type of
  // line 4 is defined already).
  EXPECT_EQ(count(l.c, "m_t"), 2u) << l.c;
  EXPECT_EQ(count(l.c, "#ifndef WUC_DEFINED_wuc_channel_struct_m\n"
                       "#define WUC_DEFINED_wuc_channel_struct_m\n"),
            2u)
      << l.c;
  EXPECT_TRUE(inOrder(l.plain, {"WUC_CHANNEL_STRUCT(wuc_channel_struct_m, m_t);\n#endif\n",
                                "struct wuc_channel_struct_m a;",
                                "WUC_CHANNEL_STRUCT(wuc_channel_struct_m, struct m);\n#endif\n",
                                "struct wuc_channel_struct_m *b = &a;",
                                "WUC_CHANNEL_STRUCT(wuc_channel_struct_wuc_channel_struct_m_P, "
                                "struct wuc_channel_struct_m *);",
                                "struct wuc_channel_struct_wuc_channel_struct_m_P c;"}))
      << l.c;
  EXPECT_TRUE(compilesCleanly(l.c)) << l.c;
}

TEST(Lowering, ADefinitionIsAttributedToTheTypesFirstUse) {
  Lowered l;
  lower("int a;\nstatic   channel(int) q;\n", {}, {{"wuc_channel_int", "wuc_channel_int"}}, l);
  // Line 2, the `channel(` at column 10.
  EXPECT_TRUE(inOrder(l.c, {"#define WUC_DEFINED_wuc_channel_int\n#line 2 \"t.wc\"\n"
                            "         WUC_CHANNEL_STRUCT(wuc_channel_int, int);\n#endif\n"}))
      << l.c;
}

TEST(Lowering, ATagWithoutACanonicalOneStaysUnguarded) {
  Lowered l;
  lower("void f(void) {\n  struct loc { int z; };\n  channel(struct loc) c;\n  (void)c;\n}\n", {},
        {}, l);
  EXPECT_EQ(count(l.c, "#ifndef"), 0u) << l.c;
  EXPECT_EQ(count(l.c, "WUC_CHANNEL_STRUCT(wuc_channel_struct_loc, struct loc);"), 1u) << l.c;
}

// ---- the wuc headers (docs/language.md, "Names and headers") ----------------

TEST(Lowering, PlainCGetsNoHeader) {
  Lowered l;
  lower("#define _GNU_SOURCE\n#include <stdio.h>\nint main(void) { return 0; }\n", {}, l);
  EXPECT_EQ(count(l.c, "#include <wuc"), 0u) << l.c;
  EXPECT_EQ(l.c.find("#define _GNU_SOURCE"), l.c.find("#line 1 \"t.wc\"\n") + 15) << l.c;
}

TEST(Lowering, HeadersGoBeforeTheDeclarationOfTheFirstConstruct) {
  Lowered l;
  lower("#define _GNU_SOURCE\n#include <stdio.h>\nint g(int);\n"
        "int main(void) {\n  int x = g(1);\n  waituntil (timeout(x)) {}\n  return 0;\n}\n",
        {{timeoutFacts()}}, l);
  EXPECT_EQ(count(l.c, "#include <wuc"), 1u) << l.c;
  EXPECT_TRUE(inOrder(l.c, {"#define _GNU_SOURCE\n", "#include <stdio.h>\n", "int g(int);\n",
                            "\n#include <wuc/waituntil.h>\n#line 4 \"t.wc\"\nint main(void) {"}))
      << l.c;
}

TEST(Lowering, AnFdClauseGetsFdHeaderAfterWaituntilHeader) {
  Lowered l;
  lower("#include <stdio.h>\nint g(int);\n"
        "int main(void) {\n  int x = g(1);\n  waituntil (readable(x)) {}\n  return 0;\n}\n",
        {{fdFacts()}}, l);
  EXPECT_EQ(count(l.c, "#include <wuc"), 2u) << l.c;
  EXPECT_TRUE(inOrder(l.c, {"#include <stdio.h>\n", "int g(int);\n",
                            "\n#include <wuc/waituntil.h>\n#include <wuc/fd.h>\n#line 3 \"t.wc\"\n"
                            "int main(void) {"}))
      << l.c;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, FdClausesMakeTheirClauseOnceWhenEnabled) {
  Lowered l;
  lower(fn("  waituntil (readable(g(0))) { r = 1; }\n"
           "  or when (g(1)) waituntil (writable(g(2))) { r = 2; }"),
        {{fdFacts(true), fdFacts(false)}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(
      s, {"__wuc0.__wuc_clause0_readable = wuc_readable_make(g(0));",
          "wuc_wu_clause_init(&__wuc0.__wuc_wu, 0, 1, (void *)&__wuc0.__wuc_clause0_readable, "
          "&wuc_selectable_ops_wuc_fd_register, (void *)0,",
          "__wuc0.__wuc_clause1_writable_enabled = (g(1)) != 0;",
          "__wuc0.__wuc_clause1_writable = __wuc0.__wuc_clause1_writable_enabled ? "
          "wuc_writable_make(g(2)) : (wuc_fd_clause){0};",
          "if (wuc_fd_register(&__wuc0.__wuc_clause0_readable, wuc_wu_try_node(&__wuc0.__wuc_wu, "
          "0))) goto "
          "__wuc0_clause0_readable_tried;",
          "if (__wuc0.__wuc_clause1_writable_enabled && "
          "wuc_fd_register(&__wuc0.__wuc_clause1_writable,",
          "if (wuc_fd_on_selected(&__wuc0.__wuc_clause0_readable, "
          "&__wuc0.__wuc_clauses[0].__wuc_node)) {",
          "(void)wuc_fd_unregister(&__wuc0.__wuc_clause0_readable, "
          "&__wuc0.__wuc_clauses[0].__wuc_node);"}))
      << s;
  for (const char *call : {"g(0)", "g(1)", "g(2)"})
    EXPECT_EQ(count(codeLines(l.plain), call), 1u) << call << " evaluated once";
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, ADurationInAMacroGetsItsHeaderAfterTheDirective) {
  Lowered l;
  lower("int a;\n#define TICK 10`ms\nlong b = TICK;\n", {}, l);
  EXPECT_TRUE(inOrder(l.c, {"int a;\n", "#define TICK ((wuc_duration_t)(10 * 1000000LL))\n",
                            "\n#include <wuc/time.h>\n#line 3 \"t.wc\"\nlong b = TICK;"}))
      << l.c;
  EXPECT_EQ(count(l.c, "#include <wuc"), 1u) << l.c;
}

TEST(Lowering, ReceiveIntoAnotherTypeConvertsBeforeTheBody) {
  Lowered l;
  lower(fn("  long z = 0;\n  waituntil (z << a) { use(z); }"), {{recvFacts(false)}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(s, {"__typeof__(((void)0, (&(a))->__wuc_elem[0])) __wuc_clause0_recv_elem;",
                          "__wuc0.__wuc_clause0_recv_target = &(z);",
                          "__extension__ __auto_type __wuc0_clause0_recv_chan = &(a);",
                          "__builtin_memset(&__wuc0.__wuc_clause0_recv_elem, 0, sizeof "
                          "__wuc0.__wuc_clause0_recv_elem);",
                          "__wuc0_clause0_recv_won:", "if (wuc_chan_recv_on_selected(",
                          // (the early try enters here: the body's if says yes after a try)
                          "__wuc0_clause0_recv_early:",
                          "*__wuc0.__wuc_clause0_recv_target = __wuc0.__wuc_clause0_recv_elem; /* "
                          "the element, converted */",
                          "{ use(z); }"}))
      << s;
  EXPECT_NE(s.find("(void *)&__wuc0.__wuc_clause0_recv_elem, \"t.wc:11:3\");"), std::string::npos)
      << s;
  // An all-or statement converts before its body: nothing to record.
  EXPECT_EQ(count(s, "wuc_wu_clause_converts"), 0u) << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, ReceiveIntoRegisterVariableAssignsByName) {
  Lowered l;
  lower(fn("  register long z = 0;\n  waituntil (z << a) { use(z); }"), {{recvRegisterFacts()}}, l);
  std::string s = l.statement(0);
  // A register variable has no address: no target pointer at all.
  EXPECT_EQ(count(s, "__wuc0.__wuc_clause0_recv_target"), 0u) << s;
  EXPECT_EQ(count(s, "&(z)"), 0u) << s;
  EXPECT_TRUE(inOrder(
      s, {"__wuc_clause0_recv_elem;", "(void *)&__wuc0.__wuc_clause0_recv_elem, \"t.wc:11:3\");",
          "__wuc0_clause0_recv_won:",
          "z = __wuc0.__wuc_clause0_recv_elem; /* the element, converted */", "{ use(z); }"}))
      << s;
  EXPECT_TRUE(compilesCleanly(l.c)); // &z would be an error
}

TEST(Lowering, ChannelThroughPointerIsNotAddressed) {
  Lowered l;
  lower(std::string(kPrelude) +
            "int f(channel(int) *p, channel(int) *q) {\n"
            "  int x = 0;\n"
            "  waituntil (x << p) ; or waituntil (q << x + 1) ; or waituntil (closed(p)) ;\n"
            "  return x;\n}\n",
        {{recvFacts(true, true), sendFacts(true), closedFacts(true)}}, l);
  std::string s = l.statement(0);
  EXPECT_NE(s.find("__extension__ __auto_type __wuc0_clause0_recv_chan = (p);"), std::string::npos)
      << s;
  EXPECT_NE(s.find("__extension__ __auto_type __wuc0_clause1_send_chan = (q);"), std::string::npos)
      << s;
  EXPECT_NE(s.find("__extension__ __auto_type __wuc0_clause2_closed_chan = (p);"),
            std::string::npos)
      << s;
  EXPECT_EQ(count(s, "&(p)") + count(s, "&(q)"), 0u) << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, SendConvertsItsValueToTheElementType) {
  Lowered l;
  lower(fn("  waituntil (a << n * 2.5) { r = 1; }"), {{sendFacts()}}, l);
  std::string s = l.statement(0);
  // The value's member has the element's type.
  EXPECT_NE(s.find("__typeof__(((void)0, (&(a))->__wuc_elem[0])) __wuc_clause0_send_value;"),
            std::string::npos)
      << s;
  EXPECT_TRUE(inOrder(
      s, {"/* clause 0 at t.wc:10:3: waituntil (a << n * 2.5) */",
          "__extension__ __auto_type __wuc0_clause0_send_chan = &(a);",
          "__wuc0.__wuc_clause0_send_value = (n * 2.5);",
          "__wuc0.__wuc_clause0_send = WUC_CHAN_SEND_CLAUSE(__wuc0_clause0_send_chan);",
          "if (wuc_wu_send_early(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause0_send, "
          "&__wuc0.__wuc_clause0_send_value, 1, \"t.wc:10:3\")) {",
          "wuc_wu_clause_init(&__wuc0.__wuc_wu, 0, 1, (void *)&__wuc0.__wuc_clause0_send, "
          "&wuc_selectable_ops_wuc_chan_send_register, (void *)&__wuc0.__wuc_clause0_send_value, "
          "\"t.wc:10:3\");",
          "(void)wuc_wu_try_node(&__wuc0.__wuc_wu, 0); /* tried early: its node only */",
          "if (wuc_chan_send_on_selected(&__wuc0.__wuc_clause0_send, "
          "&__wuc0.__wuc_clauses[0].__wuc_node)) {",
          "{ r = 1; }",
          "(void)wuc_chan_send_unregister(&__wuc0.__wuc_clause0_send, "
          "&__wuc0.__wuc_clauses[0].__wuc_node);"}))
      << s;
  // The value is evaluated once, at evaluation.
  EXPECT_EQ(count(codeLines(l.plain), "n * 2.5"), 1u);
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, ClosedClause) {
  Lowered l;
  lower(fn("  waituntil (closed(a)) { r = -1; }\n  or waituntil (x << a) { r = x; }"),
        {{closedFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(s, {"/* clause 0 at t.wc:10:3: waituntil (closed(a)) */",
                          "__extension__ __auto_type __wuc0_clause0_closed_chan = &(a);",
                          "__wuc0.__wuc_clause0_closed = "
                          "WUC_CHAN_CLOSED_CLAUSE(__wuc0_clause0_closed_chan);",
                          "(void *)&__wuc0.__wuc_clause0_closed, "
                          "&wuc_selectable_ops_wuc_chan_closed_register, (void *)0,",
                          "if (wuc_chan_closed_register(&__wuc0.__wuc_clause0_closed, "
                          "wuc_wu_try_node(&__wuc0.__wuc_wu, 0))) goto "
                          "__wuc0_clause0_closed_tried;",
                          "if (wuc_chan_closed_on_selected(&__wuc0.__wuc_clause0_closed, "
                          "&__wuc0.__wuc_clauses[0].__wuc_node)) {",
                          "{ r = -1; }"}))
      << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// ---- all-or ----------------------------------------------------------------

TEST(Lowering, OrOfThreeClausesTriesInSourceOrderAndRunsEachBodyOnce) {
  Lowered l;
  lower(fn("  waituntil (x << a) { r = 1; }\n"
           "  or waituntil (b << 2) { r = 2; }\n"
           "  or waituntil (y << c) { r = 3; }"),
        {{recvFacts(), sendFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(
      s,
      {"all-or, 3 clauses */", "wuc_wu_clause __wuc_clauses[3];",
       "wuc_wu_begin(&__wuc0.__wuc_wu, __wuc0.__wuc_clauses);",
       // evaluation, in source order
       "/* clause 0 at t.wc:10:3: waituntil (x << a) */",
       "/* clause 1 at t.wc:11:6: waituntil (b << 2) */",
       "/* clause 2 at t.wc:12:6: waituntil (y << c) */",
       // the early try of every clause (all are channel clauses), in source
       // order: the first starts the statement, the last sets it up
       "/* early try: clauses 0 to 2, in source order, before the statement is set up, without "
       "nodes */",
       "if (wuc_wu_recv_early_first(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause0_recv,",
       "wuc_wu_won_early(&__wuc0.__wuc_wu, 0);", "goto __wuc0_clause0_recv_early;",
       "if (wuc_wu_send_early_next(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause1_send,",
       ", 1, \"t.wc:11:6\")) {", "wuc_wu_won_early(&__wuc0.__wuc_wu, 1);",
       "goto __wuc0_clause1_send_early;",
       "if (wuc_wu_recv_early_last(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause2_recv,",
       "wuc_wu_won_early(&__wuc0.__wuc_wu, 2);", "goto __wuc0_clause2_recv_early;",
       // then the set-up
       "wuc_wu_clause_init(&__wuc0.__wuc_wu, 0, 1,", "wuc_wu_clause_init(&__wuc0.__wuc_wu, 1, 1,",
       "wuc_wu_clause_init(&__wuc0.__wuc_wu, 2, 1,",
       // the fast path: the nodes only, every clause was tried early
       "(void)wuc_wu_try_node(&__wuc0.__wuc_wu, 0); /* tried early: its node only */",
       "(void)wuc_wu_try_node(&__wuc0.__wuc_wu, 1); /* tried early: its node only */",
       "(void)wuc_wu_try_node(&__wuc0.__wuc_wu, 2); /* tried early: its node only */",
       // the blocking path: only gotos
       "switch (wuc_wu_block_all_or(&__wuc0.__wuc_wu)) {", "case 0: goto __wuc0_clause0_recv_won;",
       "case 1: goto __wuc0_clause1_send_won;", "case 2: goto __wuc0_clause2_recv_won;",
       "default: goto __wuc0_end;",
       // the bodies, in source order
       "__wuc0_clause0_recv_won:", "__wuc0_clause0_recv_early:", "{ r = 1; }", "goto __wuc0_end;",
       "__wuc0_clause1_send_won:", "__wuc0_clause1_send_early:", "{ r = 2; }", "goto __wuc0_end;",
       "__wuc0_clause2_recv_won:", "__wuc0_clause2_recv_early:", "{ r = 3; }", "goto __wuc0_end;",
       "__wuc0_end:;"}))
      << s;
  // No clause is tried again on the fast path.
  EXPECT_EQ(count(s, "_tried"), 0u) << s;
  for (const char *body : {"{ r = 1; }", "{ r = 2; }", "{ r = 3; }"})
    EXPECT_EQ(count(l.c, body), 1u) << body;
  EXPECT_EQ(count(s, "wuc_wu_mixed"), 0u) << s;
  EXPECT_EQ(count(s, "goto __wuc0_end;"), 4u) << s; // default: and after each body
  // No heap: the statement lives in the frame.
  EXPECT_EQ(count(s, "alloc("), 0u) << s;
  EXPECT_NE(s.find("wuc_wu_clause __wuc_clauses[3];"), std::string::npos) << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, AllOrDetectionIgnoresParenthesesAndGuards) {
  Lowered l;
  lower(fn("  (waituntil (x << a) ; or waituntil (y << b) ;) or waituntil (r << c) ;\n"
           "  waituntil (x << a) ; and waituntil (y << b) ; or (waituntil (r << c) ; or "
           "when (n) waituntil (e) ;)"),
        {{recvFacts(), recvFacts(), recvFacts()},
         {recvFacts(), recvFacts(), recvFacts(), resourceFacts("latch")}},
        l);
  std::string s0 = l.statement(0), s1 = l.statement(1);
  EXPECT_NE(s0.find("all-or, 3 clauses */"), std::string::npos) << s0;
  EXPECT_NE(s0.find("wuc_wu_block_all_or(&__wuc0.__wuc_wu)"), std::string::npos) << s0;
  EXPECT_NE(s1.find("mixed, 4 clauses */"), std::string::npos) << s1;
  EXPECT_NE(s1.find("wuc_wu_init(&__wuc1.__wuc_wu, __wuc1.__wuc_clauses, 0);"), std::string::npos)
      << s1;
  EXPECT_EQ(count(s1, "wuc_wu_block_all_or"), 0u) << s1;
  EXPECT_EQ(count(s1, "fast path"), 0u) << s1;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// The example of docs/lowering.md, "The shape", line for line.
TEST(Lowering, DocumentedExample) {
  Lowered l;
  lower(R"(#include <wuc.h>
channel(int) a;
latch e;
int f(int n) {
  int x = 0;
  waituntil (x << a) { x++; }
  or when (n > 0) waituntil (e) { x--; }
  return x;
}
)",
        {{recvFacts(), resourceFacts("latch")}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(
      s, {"{ /* waituntil statement 0 at t.wc:6:3: all-or, 2 clauses */",
          "\n      /* clause 1 at t.wc:7:6: when (n > 0) waituntil (e) */\n"
          "      __wuc0.__wuc_clause1_latch_enabled = (n > 0) != 0;\n"
          "      __wuc0.__wuc_clause1_latch = __wuc0.__wuc_clause1_latch_enabled ? &(e) : "
          "0;\n",
          "\n      /* early try: clause 0 before the statement is set up, without a node */\n"
          "      if (wuc_wu_recv_early(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause0_recv, (void "
          "*)__wuc0_clause0_recv_target, 1)) {\n"
          "        wuc_wu_won_early(&__wuc0.__wuc_wu, 0);\n"
          "        goto __wuc0_clause0_recv_early;\n      }\n",
          "      wuc_wu_clause_init(&__wuc0.__wuc_wu, 1, __wuc0.__wuc_clause1_latch_enabled, (void "
          "*)__wuc0.__wuc_clause1_latch, "
          "&wuc_selectable_ops_wuc_latch_register, (void *)0, \"t.wc:7:19\");\n",
          "\n      (void)wuc_wu_try_node(&__wuc0.__wuc_wu, 0); /* tried early: its node only */\n"
          "      if (__wuc0.__wuc_clause1_latch_enabled && "
          "wuc_latch_register(__wuc0.__wuc_clause1_latch, "
          "wuc_wu_try_node(&__wuc0.__wuc_wu, 1))) goto __wuc0_clause1_latch_tried;\n",
          "\n  __wuc0_clause0_recv_won:\n"
          "    if (wuc_chan_recv_on_selected(&__wuc0.__wuc_clause0_recv, "
          "&__wuc0.__wuc_clauses[0].__wuc_node)) {\n"
          "    __wuc0_clause0_recv_early: /* its early try completed */\n",
          "\n  __wuc0_clause1_latch_tried: /* its try on the fast path completed */\n"
          "    wuc_wu_won_try(&__wuc0.__wuc_wu, 1);\n"
          "  __wuc0_clause1_latch_won:\n"
          "    if (wuc_latch_on_selected(__wuc0.__wuc_clause1_latch, "
          "&__wuc0.__wuc_clauses[1].__wuc_node)) {\n",
          "{ x--; }\n    }\n    if (wuc_wu_end_winner(&__wuc0.__wuc_wu, 1)) "
          "(void)wuc_latch_unregister(__wuc0.__wuc_clause1_latch, "
          "&__wuc0.__wuc_clauses[1].__wuc_node);\n"
          "    goto __wuc0_end;\n  __wuc0_end:;"}))
      << s;
  // One clause has no guard: the statement can never lose every clause.
  EXPECT_EQ(count(s, "every clause removed"), 0u) << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// ---- guards ----------------------------------------------------------------

TEST(Lowering, GuardsAreEvaluatedOnceInSourceOrderBeforeTheirResource) {
  Lowered l;
  lower(fn("  when (g(0)) waituntil (x << a) { r = 1; }\n"
           "  or when (g(1)) waituntil (e) { r = 2; }\n"
           "  or when (g(2)) waituntil (timeout(g(3))) { r = 3; }"),
        {{recvFacts(), resourceFacts("latch"), timeoutFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(
      s, {"__wuc0.__wuc_clause0_recv_enabled = (g(0)) != 0;",
          "__extension__ __auto_type __wuc0_clause0_recv_target = "
          "__wuc0.__wuc_clause0_recv_enabled ? &(x) : 0;",
          "__extension__ __auto_type __wuc0_clause0_recv_chan = __wuc0.__wuc_clause0_recv_enabled "
          "? &(a) : "
          "0;",
          "__wuc0.__wuc_clause0_recv = __wuc0.__wuc_clause0_recv_enabled ? "
          "WUC_CHAN_RECV_CLAUSE(__wuc0_clause0_recv_chan) : (wuc_chan_recv_clause){0};",
          "__wuc0.__wuc_clause1_latch_enabled = (g(1)) != 0;",
          "__wuc0.__wuc_clause1_latch = __wuc0.__wuc_clause1_latch_enabled ? &(e) : 0;",
          "__wuc0.__wuc_clause2_timeout_enabled = (g(2)) != 0;",
          "__wuc0.__wuc_clause2_timeout = __wuc0.__wuc_clause2_timeout_enabled ? "
          "wuc_timeout_make(g(3)) : (wuc_timeout){0};",
          // the early try, after every guard
          "if (wuc_wu_recv_early(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause0_recv, (void "
          "*)__wuc0_clause0_recv_target, __wuc0.__wuc_clause0_recv_enabled)) {",
          "wuc_wu_clause_init(&__wuc0.__wuc_wu, 0, __wuc0.__wuc_clause0_recv_enabled,",
          "if (__wuc0.__wuc_clause0_recv_enabled) (void)wuc_wu_try_node(&__wuc0.__wuc_wu, 0);",
          "if (__wuc0.__wuc_clause1_latch_enabled && wuc_latch_register(",
          "if (__wuc0.__wuc_clause2_timeout_enabled && wuc_timeout_register(",
          "if (!(__wuc0.__wuc_clause0_recv_enabled || __wuc0.__wuc_clause1_latch_enabled || "
          "__wuc0.__wuc_clause2_timeout_enabled)) goto __wuc0_end; /* every clause removed by its "
          "guard */",
          "switch (wuc_wu_block_all_or(&__wuc0.__wuc_wu)) {"}))
      << s;
  for (const char *call : {"g(0)", "g(1)", "g(2)", "g(3)"})
    EXPECT_EQ(count(codeLines(l.plain), call), 1u) << call << " evaluated once";
  // Each guard on a line of its own source line; comments name the guard.
  EXPECT_NE(l.c.find("#line 11\n      __wuc0.__wuc_clause1_latch_enabled = (g(1)) != 0;"),
            std::string::npos)
      << l.c;
  EXPECT_NE(s.find("/* clause 1 at t.wc:11:6: when (g(1)) waituntil (e) */"), std::string::npos);
  // The site is the clause's waituntil keyword, after the guard.
  EXPECT_NE(s.find("\"t.wc:11:18\");"), std::string::npos) << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, GuardedSendZeroesItsValueAndAssignsItOnlyIfEnabled) {
  Lowered l;
  lower(fn("  when (n > 0) waituntil (a << n) { r = 1; }\n  or waituntil (x << b) { r = 2; }"),
        {{sendFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(
      inOrder(s, {"__wuc0.__wuc_clause0_send_enabled = (n > 0) != 0;",
                  "__extension__ __auto_type __wuc0_clause0_send_chan = "
                  "__wuc0.__wuc_clause0_send_enabled ? &(a) : "
                  "0;",
                  "__builtin_memset(&__wuc0.__wuc_clause0_send_value, 0, sizeof "
                  "__wuc0.__wuc_clause0_send_value);",
                  "if (__wuc0.__wuc_clause0_send_enabled) __wuc0.__wuc_clause0_send_value = (n);",
                  "__wuc0.__wuc_clause0_send = __wuc0.__wuc_clause0_send_enabled ? "
                  "WUC_CHAN_SEND_CLAUSE(__wuc0_clause0_send_chan) : (wuc_chan_send_clause){0};",
                  "if (wuc_wu_send_early_first(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause0_send, "
                  "&__wuc0.__wuc_clause0_send_value, __wuc0.__wuc_clause0_send_enabled, "}))
      << s;
  EXPECT_EQ(count(s, "every clause removed"), 0u) << s; // clause 1 has no guard
  EXPECT_TRUE(compilesCleanly(l.c));
}

// ---- mixed statements and the completion predicate -------------------------

TEST(Lowering, AndOfTwoIsMixedWithAPredicateAndAStep) {
  Lowered l;
  lower(fn("  waituntil (x << a) { r += 1; }\n  and waituntil (y << b) { r += 2; }"),
        {{recvFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_NE(s.find("mixed, 2 clauses */"), std::string::npos) << s;
  EXPECT_NE(s.find("wuc_wu_init(&__wuc0.__wuc_wu, __wuc0.__wuc_clauses, 0);"), std::string::npos)
      << s;
  for (const char *allOr : {"fast path", "wuc_wu_block_all_or", "_tried", "wuc_wu_try_node"})
    EXPECT_EQ(count(s, allOr), 0u) << allOr;
  EXPECT_EQ(
      predicate(s),
      (Lines{"_Bool __wuc0_and0_satisfied = __wuc0.__wuc_clauses[0].__wuc_ran && "
             "__wuc0.__wuc_clauses[1].__wuc_ran;",
             "__wuc0.__wuc_clauses[0].__wuc_needed = !__wuc0.__wuc_clauses[0].__wuc_ran && "
             "!__wuc0_and0_satisfied;",
             "__wuc0.__wuc_clauses[1].__wuc_needed = !__wuc0.__wuc_clauses[1].__wuc_ran && "
             "!__wuc0_and0_satisfied;",
             "int __wuc0_next = wuc_wu_mixed_step(&__wuc0.__wuc_wu, __wuc0_and0_satisfied);"}))
      << s;
  EXPECT_TRUE(
      inOrder(s, {"wuc_wu_mixed_begin(&__wuc0.__wuc_wu, 0);", "__wuc0_step:;", "wuc_wu_mixed_step(",
                  "switch (__wuc0_next) {", "case WUC_WU_RECOMPUTE: goto __wuc0_step;",
                  "case 0: goto __wuc0_clause0_recv_won;", "case 1: goto __wuc0_clause1_recv_won;",
                  "default: goto __wuc0_end;", "__wuc0_clause0_recv_won:", "{ r += 1; }",
                  "wuc_wu_mixed_ran(&__wuc0.__wuc_wu, 0);", "goto __wuc0_step;",
                  "__wuc0_clause1_recv_won:", "{ r += 2; }",
                  "wuc_wu_mixed_ran(&__wuc0.__wuc_wu, 1);", "goto __wuc0_step;", "__wuc0_end:;"}))
      << s;
  EXPECT_EQ(count(s, "WUC_WU_ELSE"), 0u) << s;
  // Mixed bodies are not behind the resource's on_selected.
  EXPECT_EQ(count(s, "on_selected"), 0u) << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, ParenthesisedAndUnderOr) {
  Lowered l;
  lower(fn("  (waituntil (x << a) { r = 1; } and waituntil (y << b) { r += 2; })\n"
           "  or waituntil (x << c) { r = 3; }"),
        {{recvFacts(), recvFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_NE(s.find("mixed, 3 clauses */"), std::string::npos) << s;
  // Nodes named in post-order: the and is 0, the or 1.
  EXPECT_EQ(predicate(s),
            (Lines{"_Bool __wuc0_and0_satisfied = __wuc0.__wuc_clauses[0].__wuc_ran && "
                   "__wuc0.__wuc_clauses[1].__wuc_ran;",
                   "_Bool __wuc0_or1_satisfied = __wuc0_and0_satisfied || "
                   "__wuc0.__wuc_clauses[2].__wuc_ran;",
                   "_Bool __wuc0_and0_done = __wuc0_or1_satisfied || __wuc0_and0_satisfied;",
                   "__wuc0.__wuc_clauses[0].__wuc_needed = !__wuc0.__wuc_clauses[0].__wuc_ran && "
                   "!__wuc0_and0_done;",
                   "__wuc0.__wuc_clauses[1].__wuc_needed = !__wuc0.__wuc_clauses[1].__wuc_ran && "
                   "!__wuc0_and0_done;",
                   "__wuc0.__wuc_clauses[2].__wuc_needed = !__wuc0.__wuc_clauses[2].__wuc_ran && "
                   "!__wuc0_or1_satisfied;",
                   "int __wuc0_next = wuc_wu_mixed_step(&__wuc0.__wuc_wu, __wuc0_or1_satisfied);"}))
      << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// docs/lowering.md, "Mixed path": `(A or B) and C` without guards, as the
// second statement of a file.
TEST(Lowering, DocumentedPredicateOfOrUnderAnd) {
  Lowered l;
  lower(fn("  waituntil (x << a) ;\n"
           "  (waituntil (x << a) ; or waituntil (y << b) ;) and waituntil (r << c) ;"),
        {{recvFacts()}, {recvFacts(), recvFacts(), recvFacts()}}, l);
  EXPECT_EQ(
      predicate(l.statement(1)),
      (Lines{"_Bool __wuc1_or0_satisfied = __wuc1.__wuc_clauses[0].__wuc_ran || "
             "__wuc1.__wuc_clauses[1].__wuc_ran;",
             "_Bool __wuc1_and1_satisfied = __wuc1_or0_satisfied && "
             "__wuc1.__wuc_clauses[2].__wuc_ran;",
             "_Bool __wuc1_or0_done = __wuc1_and1_satisfied || __wuc1_or0_satisfied;",
             "__wuc1.__wuc_clauses[0].__wuc_needed = !__wuc1.__wuc_clauses[0].__wuc_ran && "
             "!__wuc1_or0_done;",
             "__wuc1.__wuc_clauses[1].__wuc_needed = !__wuc1.__wuc_clauses[1].__wuc_ran && "
             "!__wuc1_or0_done;",
             "__wuc1.__wuc_clauses[2].__wuc_needed = !__wuc1.__wuc_clauses[2].__wuc_ran && "
             "!__wuc1_and1_satisfied;",
             "int __wuc1_next = wuc_wu_mixed_step(&__wuc1.__wuc_wu, __wuc1_and1_satisfied);"}))
      << l.statement(1);
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, MixedGuardsRemoveClausesThroughPresence) {
  Lowered l;
  lower(fn("  when (n > 0) waituntil (x << a) { r = 1; }\n"
           "  and when (n > 1) waituntil (y << b) { r = 2; }"),
        {{recvFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  // Presence once, after evaluation and before the step.
  EXPECT_TRUE(inOrder(s, {"__wuc0.__wuc_clause1_recv_enabled = (n > 1) != 0;",
                          "/* run bodies until the and/or tree is satisfied */",
                          "__wuc0.__wuc_and0_present = __wuc0.__wuc_clause0_recv_enabled || "
                          "__wuc0.__wuc_clause1_recv_enabled;",
                          "wuc_wu_mixed_begin(&__wuc0.__wuc_wu, 0);", "__wuc0_step:;"}))
      << s;
  EXPECT_EQ(count(s, "__wuc0.__wuc_and0_present ="), 1u) << s;
  // A removed clause is its and's identity.
  EXPECT_EQ(
      predicate(s),
      (Lines{"_Bool __wuc0_and0_satisfied = (!__wuc0.__wuc_clause0_recv_enabled || "
             "__wuc0.__wuc_clauses[0].__wuc_ran) "
             "&& (!__wuc0.__wuc_clause1_recv_enabled || __wuc0.__wuc_clauses[1].__wuc_ran);",
             "__wuc0.__wuc_clauses[0].__wuc_needed = !__wuc0.__wuc_clauses[0].__wuc_ran && "
             "!__wuc0_and0_satisfied;",
             "__wuc0.__wuc_clauses[1].__wuc_needed = !__wuc0.__wuc_clauses[1].__wuc_ran && "
             "!__wuc0_and0_satisfied;",
             "int __wuc0_next = wuc_wu_mixed_step(&__wuc0.__wuc_wu, !__wuc0.__wuc_and0_present || "
             "__wuc0_and0_satisfied);"}))
      << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, MixedReceiveIntoAnotherTypeRecordsItsConversion) {
  Lowered l;
  lower(fn("  long z = 0;\n  waituntil (z << a) { use(z); } and waituntil (x << b) ;"),
        {{recvFacts(false), recvFacts()}}, l);
  std::string s = l.statement(0);
  // A jump out of the body of another clause may leave z's element behind:
  // the cleanup converts it, by the kinds recorded here.
  EXPECT_TRUE(inOrder(
      s, {"wuc_wu_clause_init(&__wuc0.__wuc_wu, 0,",
          "wuc_wu_clause_converts(&__wuc0.__wuc_wu, 0, (void *)__wuc0.__wuc_clause0_recv_target, "
          "WUC_WU_KIND(*__wuc0.__wuc_clause0_recv_target), "
          "WUC_WU_KIND(__wuc0_clause0_recv_chan->__wuc_elem[0]));",
          "wuc_wu_clause_init(&__wuc0.__wuc_wu, 1,"}))
      << s;
  // Clause 1, of the element's own type, lands in a temporary too: in a mixed
  // statement no receive lands in place (docs/lowering.md, "Where a receive
  // lands"), so that a body never sees its target written by another thread.
  EXPECT_EQ(count(s, "wuc_wu_clause_converts"), 2u) << s;
  EXPECT_TRUE(inOrder(s, {"__wuc0_clause1_recv_won:",
                          "*__wuc0.__wuc_clause1_recv_target = __wuc0.__wuc_clause1_recv_elem;"}))
      << s;
  EXPECT_TRUE(inOrder(s, {"__wuc0_clause0_recv_won:",
                          "*__wuc0.__wuc_clause0_recv_target = __wuc0.__wuc_clause0_recv_elem;",
                          "{ use(z); }"}));
  EXPECT_TRUE(compilesCleanly(l.c));
}

// ---- timeout, else ---------------------------------------------------------

TEST(Lowering, TimeoutClauseFixesItsDeadlineAtEvaluation) {
  Lowered l;
  lower(fn("  waituntil (x << a) { r = 1; }\n  or waituntil (timeout(10`ms)) { r = -1; }"),
        {{recvFacts(), timeoutFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(
      s, {"/* clause 1 at t.wc:11:6: waituntil (timeout(10`ms)) */",
          "__wuc0.__wuc_clause1_timeout = wuc_timeout_make(((wuc_duration_t)(10 * 1000000LL)));",
          "wuc_wu_clause_init(&__wuc0.__wuc_wu, 1, 1, (void *)&__wuc0.__wuc_clause1_timeout, "
          "&wuc_selectable_ops_wuc_timeout_register, (void *)0, \"t.wc:11:6\");",
          "/* fast path", // the deadline is fixed before anything is tried
          "if (wuc_timeout_register(&__wuc0.__wuc_clause1_timeout, "
          "wuc_wu_try_node(&__wuc0.__wuc_wu, 1))) goto "
          "__wuc0_clause1_timeout_tried;",
          "case 1: goto __wuc0_clause1_timeout_won;", "__wuc0_clause1_timeout_won:",
          "if (wuc_timeout_on_selected(&__wuc0.__wuc_clause1_timeout, "
          "&__wuc0.__wuc_clauses[1].__wuc_node)) {",
          "{ r = -1; }",
          "(void)wuc_timeout_unregister(&__wuc0.__wuc_clause1_timeout, "
          "&__wuc0.__wuc_clauses[1].__wuc_node);"}))
      << s;
  // The duration's backquote survives only in comments.
  for (const std::string &line : linesWith(l.plain, "10`ms"))
    EXPECT_NE(line.find("/* clause 1"), std::string::npos) << line;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// docs/select.md, "The early try": the leading run of channel clauses, up to
// the first clause of another kind; a guarded one passes its guard.
TEST(Lowering, EarlyTryCoversTheLeadingChannelClausesOnly) {
  Lowered l;
  lower(fn("  when (n > 0) waituntil (x << a) { r = 1; }\n"
           "  or waituntil (b << 2) { r = 2; }\n"
           "  or waituntil (timeout(0)) { r = 3; }\n"
           "  or waituntil (y << c) { r = 4; }"),
        {{recvFacts(), sendFacts(), timeoutFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(
      s, {"/* early try: clauses 0 to 1, in source order, before the statement is set up, "
          "without nodes */",
          "if (wuc_wu_recv_early_first(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause0_recv, (void "
          "*)__wuc0_clause0_recv_target, __wuc0.__wuc_clause0_recv_enabled)) {",
          "goto __wuc0_clause0_recv_early;",
          "if (wuc_wu_send_early_last(&__wuc0.__wuc_wu, &__wuc0.__wuc_clause1_send, "
          "&__wuc0.__wuc_clause1_send_value, 1, \"t.wc:11:6\")) {",
          "wuc_wu_won_early(&__wuc0.__wuc_wu, 1);", "goto __wuc0_clause1_send_early;",
          "wuc_wu_clause_init(&__wuc0.__wuc_wu, 3, 1,",
          "if (__wuc0.__wuc_clause0_recv_enabled) (void)wuc_wu_try_node(&__wuc0.__wuc_wu, 0); /* "
          "tried early: its node only */",
          "(void)wuc_wu_try_node(&__wuc0.__wuc_wu, 1); /* tried early: its node only */",
          "wuc_wu_try_node(&__wuc0.__wuc_wu, 2))) goto __wuc0_clause2_timeout_tried;",
          "wuc_wu_try_node(&__wuc0.__wuc_wu, 3))) goto __wuc0_clause3_recv_tried;",
          "__wuc0_clause1_send_early:", "{ r = 2; }", "__wuc0_clause2_timeout_tried:", "{ r = 3; }",
          "__wuc0_clause3_recv_tried:", "{ r = 4; }"}))
      << s;
  EXPECT_EQ(count(s, "wuc_wu_recv_early") + count(s, "wuc_wu_send_early"), 2u) << s;
  EXPECT_EQ(count(s, "__wuc0_clause3_recv_early"), 0u) << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, OrElseRunsTheElseInsteadOfBlocking) {
  Lowered l;
  lower(fn("  waituntil (x << a) { r = 1; }\n  or else { r = 2; }"), {{recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(s, {"all-or, 1 clause, else */",
                          "(void)wuc_wu_try_node(&__wuc0.__wuc_wu, 0); /* tried early: its node "
                          "only */\n      goto __wuc0_else;\n",
                          "__wuc0_clause0_recv_early:", "{ r = 1; }", "goto __wuc0_end;",
                          "__wuc0_else: /* the else at t.wc:11:6 */", "{ r = 2; }",
                          "goto __wuc0_end;", "__wuc0_end:;"}))
      << s;
  // Nothing blocks: no blocking path and no label it would jump to.
  EXPECT_EQ(count(s, "wuc_wu_block_all_or"), 0u) << s;
  EXPECT_EQ(count(s, "__wuc0_clause0_recv_won"), 0u) << s;
  EXPECT_EQ(count(l.c, "{ r = 2; }"), 1u);
  EXPECT_TRUE(compilesCleanly(l.c)); // an unused label would be a warning
}

TEST(Lowering, GuardedElseIsEvaluatedLastAndTheStatementMayBlock) {
  Lowered l;
  lower(fn("  when (n > 0) waituntil (x << a) { r = 1; }\n"
           "  or when (n > 1) waituntil (y << b) { r = 2; }\n"
           "  or when (n > 2) else { r = 3; }"),
        {{recvFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(
      s, {"all-or, 2 clauses, else */", "__wuc0.__wuc_clause0_recv_enabled = (n > 0) != 0;",
          "__wuc0.__wuc_clause1_recv_enabled = (n > 1) != 0;",
          "/* the else guard, evaluated last, at t.wc:12:6 */",
          "__wuc0.__wuc_else_enabled = (n > 2) != 0;", "/* fast path",
          "if (!(__wuc0.__wuc_clause0_recv_enabled || __wuc0.__wuc_clause1_recv_enabled)) goto "
          "__wuc0_end;",
          "if (__wuc0.__wuc_else_enabled) goto __wuc0_else;",
          "switch (wuc_wu_block_all_or(&__wuc0.__wuc_wu)) {",
          "__wuc0_clause0_recv_won:", "__wuc0_clause1_recv_won:", "__wuc0_else:", "{ r = 3; }"}))
      << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, MixedStatementWithElse) {
  Lowered l;
  lower(fn("  waituntil (x << a) { r = 1; } and waituntil (y << b) { r += 2; }\n"
           "  or else { r = -1; }"),
        {{recvFacts(), recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(s, {"mixed, 2 clauses, else */", "wuc_wu_mixed_begin(&__wuc0.__wuc_wu, 1);",
                          "switch (__wuc0_next) {", "case WUC_WU_ELSE: goto __wuc0_else;",
                          "default: goto __wuc0_end;", "__wuc0_else: /* the else at t.wc:11:6 */",
                          "{ r = -1; }", "goto __wuc0_end;", "__wuc0_end:;"}))
      << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// ---- names -----------------------------------------------------------------

// The identifiers of `code` (comments, string and character literals
// removed; a member after `.` or `->` is marked with a leading '.').
std::set<std::string> identifiers(const std::string &code) {
  std::set<std::string> out;
  for (size_t i = 0; i < code.size();) {
    char ch = code[i];
    if (code.compare(i, 2, "/*") == 0) {
      size_t e = code.find("*/", i + 2);
      i = e == std::string::npos ? code.size() : e + 2;
    } else if (ch == '"' || ch == '\'') {
      size_t j = i + 1;
      while (j < code.size() && code[j] != ch) j += code[j] == '\\' ? 2 : 1;
      i = j + 1;
    } else if (isalpha((unsigned char)ch) || ch == '_') {
      size_t j = i;
      while (j < code.size() && (isalnum((unsigned char)code[j]) || code[j] == '_')) j++;
      size_t k = i;
      while (k > 0 && code[k - 1] == ' ') k--;
      bool member = (k > 0 && code[k - 1] == '.') || (k > 1 && code.compare(k - 2, 2, "->") == 0);
      out.insert((member ? "." : "") + code.substr(i, j - i));
      i = j;
    } else if (isdigit((unsigned char)ch)) {
      while (i < code.size() && (isalnum((unsigned char)code[i]) || code[i] == '.')) i++;
    } else {
      i++;
    }
  }
  return out;
}

// The lowered statement sits among the program's variables and after its
// macros: every name it declares (temporaries, labels) and every member it
// names is reserved (__wuc...), so a variable named like a temporary is not
// shadowed and a macro named like a member rewrites nothing
// (docs/lowering.md, "Names").  The rest are C's keywords, the library's
// names and the program's own.
TEST(Lowering, GeneratedNamesAreReserved) {
  // Each of these, expanded in generated code, would break it.
  const char *hostile[] = {"node",
                           "ran",
                           "needed",
                           "elem",
                           "data",
                           "res",
                           "site",
                           "chan",
                           "elem_size",
                           "live",
                           "enabled",
                           "ops",
                           "pending",
                           "cl",
                           "s",
                           "stmt",
                           "status",
                           "try_only",
                           "memset",
                           "cleanup",
                           "unused",
                           "annotate",
                           "register_select",
                           "on_selected",
                           "unregister_select",
                           "convert_to",
                           "wu0",
                           "wu1_end"};
  std::string macros;
  for (const char *m : hostile) macros += std::string("#define ") + m + " !\n";
  ClauseFacts unnamed = resourceFacts("latch"); // a trait whose functions are not plain names
  unnamed.registerFn = unnamed.unregisterFn = unnamed.onSelectedFn = "";
  Lowered l;
  lower("#include <wuc.h>\n" + macros +
            "channel(int) a;\nchannel(long) b;\nlatch e;\n"
            "int f(int n) {\n"
            "  int x = 0; long y = 0;\n"
            "  waituntil (x << a) {} or when (n) waituntil (a << n) {}\n"
            "  or waituntil (closed(b)) {} or waituntil (timeout(5)) {} or waituntil (e) {}\n"
            "  or when (n > 1) else {}\n"
            "  waituntil (y << a) {} and (waituntil (e) {} or when (n) waituntil (x << a) {})\n"
            "  return x + (int)y;\n}\n",
        {{recvFacts(), sendFacts(), closedFacts(), timeoutFacts(), unnamed},
         {recvFacts(false), resourceFacts("latch"), recvFacts()}},
        l);
  const std::set<std::string> c = {"__auto_type", "__extension__",
                                   "__typeof__",  "__attribute__",
                                   "__cleanup__", "__builtin_memset",
                                   "_Bool",       "int",
                                   "void",        "sizeof",
                                   "if",          "goto",
                                   "switch",      "case",
                                   "default",     "struct",
                                   "_Pragma"};
  const std::set<std::string> program = {"x", "y", "n", "a", "b", "e"};
  for (unsigned id : {0u, 1u}) {
    std::string s = l.statement(id);
    for (const std::string &name : identifiers(s)) {
      bool member = name[0] == '.';
      std::string n = member ? name.substr(1) : name;
      if (member) {
        EXPECT_EQ(n.compare(0, 6, "__wuc_"), 0) << "member " << n << " in\n" << s;
        continue;
      }
      // Only prefixed names of the library (docs/language.md, "Names and headers").
      bool library = n.compare(0, 4, "wuc_") == 0 || n.compare(0, 4, "WUC_") == 0;
      EXPECT_TRUE(c.count(n) || program.count(n) || library || n.compare(0, 5, "__wuc") == 0)
          << n << " in\n"
          << s;
    }
  }
  EXPECT_NE(l.plain.find("wuc_selectable_trait_wuc_latch_register.__wuc_register_select("),
            std::string::npos)
      << l.plain;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// ---- other resource kinds --------------------------------------------------

TEST(Lowering, FutureClauseIsNamedAfterItsTrait) {
  Lowered l;
  lower(std::string(kPrelude) + "future(int) fu;\n"
                                "int f(void) {\n"
                                "  int r = 0;\n"
                                "  waituntil (fu) { r = future_get(&fu); }\n"
                                "  return r;\n}\n",
        {{futureFacts("int")}}, l);
  std::string s = l.statement(0);
  // A resource is passed by address, not through a clause object.
  EXPECT_TRUE(inOrder(
      s, {"/* clause 0 at t.wc:11:3: waituntil (fu) */", "__wuc0.__wuc_clause0_future_int = &(fu);",
          "wuc_wu_clause_init(&__wuc0.__wuc_wu, 0, 1, (void *)__wuc0.__wuc_clause0_future_int, "
          "&wuc_selectable_ops_wuc_future_int_register, (void *)0, \"t.wc:11:3\");",
          "if (wuc_future_int_register(__wuc0.__wuc_clause0_future_int, "
          "wuc_wu_try_node(&__wuc0.__wuc_wu, 0))) goto "
          "__wuc0_clause0_future_int_tried;",
          "if (wuc_future_int_on_selected(__wuc0.__wuc_clause0_future_int, "
          "&__wuc0.__wuc_clauses[0].__wuc_node)) "
          "{",
          "{ r = future_get(&fu); }",
          "(void)wuc_future_int_unregister(__wuc0.__wuc_clause0_future_int, "
          "&__wuc0.__wuc_clauses[0].__wuc_node);"}))
      << s;
  EXPECT_NE(l.c.find("WUC_FUTURE_STRUCT(wuc_future_int, int);"), std::string::npos) << l.c;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, LockAndSemaphoreThroughPointers) {
  Lowered l;
  lower(std::string(kPrelude) + "int f(owner_lock *lk, semaphore *sem) {\n"
                                "  int r = 0;\n"
                                "  waituntil (lk) { r = 1; lock_release(lk); }\n"
                                "  or waituntil (sem) { r = 2; }\n"
                                "  return r;\n}\n",
        {{resourceFacts("owner_lock", true), resourceFacts("semaphore", true)}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(inOrder(
      s,
      {"__wuc0.__wuc_clause0_owner_lock = (lk);", "&wuc_selectable_ops_wuc_owner_lock_register,",
       "__wuc0.__wuc_clause1_semaphore = (sem);", "&wuc_selectable_ops_wuc_semaphore_register,",
       "if (wuc_owner_lock_register(__wuc0.__wuc_clause0_owner_lock, "
       "wuc_wu_try_node(&__wuc0.__wuc_wu, 0)))",
       "if (wuc_semaphore_register(__wuc0.__wuc_clause1_semaphore, "
       "wuc_wu_try_node(&__wuc0.__wuc_wu, 1)))",
       "case 0: goto __wuc0_clause0_owner_lock_won;", "case 1: goto __wuc0_clause1_semaphore_won;",
       "if (wuc_owner_lock_on_selected(__wuc0.__wuc_clause0_owner_lock, "
       "&__wuc0.__wuc_clauses[0].__wuc_node)) "
       "{",
       "if (wuc_semaphore_on_selected(__wuc0.__wuc_clause1_semaphore, "
       "&__wuc0.__wuc_clauses[1].__wuc_node)) "
       "{"}))
      << s;
  EXPECT_EQ(count(s, "&(lk)") + count(s, "&(sem)"), 0u) << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, ResourceReachedThroughItsFirstMember) {
  Lowered l;
  lower(std::string(kPrelude) + "struct job { latch done; int id; };\n"
                                "struct job j;\n"
                                "int f(struct job *pj) {\n"
                                "  int r = 0;\n"
                                "  waituntil (j) { r = j.id; } or waituntil (pj) { r = pj->id; }\n"
                                "  return r;\n}\n",
        {{resourceFacts("latch", false, {"done"}), resourceFacts("latch", true, {"done"})}}, l);
  std::string s = l.statement(0);
  EXPECT_NE(s.find("__wuc0.__wuc_clause0_latch = &(j).done;"), std::string::npos) << s;
  EXPECT_NE(s.find("__wuc0.__wuc_clause1_latch = &(pj)->done;"), std::string::npos) << s;
  EXPECT_TRUE(compilesCleanly(l.c)); // wuc_latch_register takes a latch *
}

// ---- bodies ----------------------------------------------------------------

TEST(Lowering, NestedStatementIsLoweredInsideTheOuterBody) {
  Lowered l;
  lower(fn("  waituntil (x << a) {\n"
           "    waituntil (y << b) { r = x + y; }\n"
           "    or waituntil (timeout(1`ms)) { r = -1; }\n"
           "  }"),
        {{recvFacts()}, {recvFacts(), timeoutFacts()}}, l);
  EXPECT_NE(l.statement(0).find("waituntil statement 0 at t.wc:10:3: all-or, 1 clause */"),
            std::string::npos);
  std::string inner = l.statement(1);
  EXPECT_NE(inner.find("waituntil statement 1 at t.wc:11:5: all-or, 2 clauses */"),
            std::string::npos)
      << inner;
  EXPECT_NE(inner.find("__extension__ __auto_type __wuc1_clause0_recv_chan = &(b);"),
            std::string::npos);
  EXPECT_NE(inner.find("__wuc1.__wuc_clause1_timeout = "), std::string::npos);
  // The inner block sits in the outer clause's body, which runs once.
  EXPECT_TRUE(inOrder(l.plain, {"if (wuc_chan_recv_on_selected(&__wuc0.__wuc_clause0_recv,",
                                "{ /* waituntil statement 1", "{ r = x + y; }", "{ r = -1; }",
                                "__wuc1_end:;", "if (wuc_wu_end_winner(&__wuc0.__wuc_wu, 0))",
                                "__wuc0_end:;"}))
      << l.plain;
  EXPECT_EQ(count(l.c, "{ /* waituntil statement 1"), 1u);
  // No statement is left as written outside comments.
  for (const std::string &line : linesWith(l.plain, "waituntil ("))
    EXPECT_NE(line.find("/*"), std::string::npos) << line;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// Bodies are never inside a generated loop or switch: break and continue in
// a body bind to the user's loop.
TEST(Lowering, BreakAndContinueInBodiesBindToTheUserLoop) {
  Lowered l;
  lower(fn("  for (int i = 0; i < n; i++) {\n"
           "    waituntil (x << a) { if (x < 0) break; continue; }\n"
           "    or waituntil (y << b) { if (y) continue; break; }\n"
           "    waituntil (x << a) { if (x) break; } and waituntil (y << b) { continue; }\n"
           "  }"),
        {{recvFacts(), recvFacts()}, {recvFacts(), recvFacts()}}, l);
  for (unsigned id : {0u, 1u}) {
    std::string s = l.statement(id);
    // The only switch ends before the first body's label.
    std::string end = "default: goto __wuc" + std::to_string(id) + "_end;\n";
    size_t afterSwitch = s.find(end);
    ASSERT_NE(afterSwitch, std::string::npos) << s;
    EXPECT_EQ(count(s, "switch ("), 1u) << s;
    EXPECT_LT(afterSwitch, s.find("_won:")) << s;
    size_t tried = s.find("_tried:");
    if (tried != std::string::npos) {
      EXPECT_LT(afterSwitch, tried) << s;
    }
    for (const char *loop : {"for (", "while", "do {"}) EXPECT_EQ(count(s, loop), 0u) << s;
  }
  EXPECT_TRUE(compilesCleanly(l.c));
}

// And so a break in a body outside any loop stays the user's error, at the
// break's own line and column, in both lowerings.
TEST(Lowering, BreakOutsideALoopIsReportedAtItsSourcePosition) {
  Lowered l;
  lower(fn("  waituntil (x << a) { break; }\n"
           "  waituntil (x << a) { r = 1; } and waituntil (y << b) { break; }"),
        {{recvFacts()}, {recvFacts(), recvFacts()}}, l);
  for (const std::string &compiler : testCompilers()) {
    CompileResult r = compileC(compiler, l.c);
    EXPECT_FALSE(r.ok) << compiler << " accepted a break outside a loop:\n" << l.c;
    EXPECT_NE(r.output.find("t.wc:10:24: error:"), std::string::npos) << compiler << r.output;
    EXPECT_NE(r.output.find("t.wc:11:58: error:"), std::string::npos) << compiler << r.output;
  }
}

TEST(Lowering, BodyKeepsItsLineAndColumn) {
  Lowered l;
  lower(fn("  waituntil (x << a) { r = undeclared_name; }\n"
           "\tor waituntil (y << b) {\n"
           "\t  r = also_undeclared;\n"
           "\t}\n"
           "  r++;"),
        {{recvFacts(), recvFacts()}}, l);
  // A directive for the body's line, then the blanks before it on that line
  // (tabs kept), then the body as written.
  EXPECT_NE(l.c.find("#line 10\n" + std::string(21, ' ') + "{ r = undeclared_name; }\n"),
            std::string::npos)
      << l.c;
  EXPECT_NE(l.c.find("#line 11\n\t" + std::string(22, ' ') + "{\n\t  r = also_undeclared;\n\t}\n"),
            std::string::npos)
      << l.c;
  // The code after the statement continues at its own line.
  EXPECT_NE(l.c.find("#line 14 \"t.wc\"\n  r++;"), std::string::npos) << l.c;
  // So the back end reports errors in bodies where they are in the source
  // (on line 12 gcc counts the tab as up to 8 columns, clang as 1: as it
  // would for the source itself).
  for (const std::string &compiler : testCompilers()) {
    CompileResult r = compileC(compiler, l.c);
    EXPECT_FALSE(r.ok) << compiler;
    EXPECT_NE(r.output.find("t.wc:10:28: error:"), std::string::npos) << compiler << r.output;
    EXPECT_NE(r.output.find("t.wc:12:"), std::string::npos) << compiler << r.output;
  }
}

TEST(Lowering, GeneratedCodeIsAttributedToTheUserLineItFollows) {
  Lowered l;
  lower(fn("  waituntil (x << a) { r = 1; }\n"
           "  or when (n > 0)\n"
           "     waituntil (y <<\n"
           "                b) { r = 2; } r++;"),
        {{recvFacts(), recvFacts()}}, l);
  // Between the statement's opening directive and the one after it, only
  // its own lines appear: 10-13, for the user's text and the generated code
  // after it.
  size_t b = l.c.find("#line 10 \"t.wc\"\n  { /* waituntil statement 0");
  ASSERT_NE(b, std::string::npos) << l.c;
  size_t e = l.c.find("#line 13 \"t.wc\"\n", b);
  ASSERT_NE(e, std::string::npos) << l.c;
  std::set<std::string> seen;
  for (const std::string &line : linesWith(l.c.substr(b, e - b), "#line ")) seen.insert(line);
  EXPECT_EQ(seen, (std::set<std::string>{"#line 10 \"t.wc\"", "#line 10", "#line 11", "#line 12",
                                         "#line 13"}));
  // The setup is the first line's; the paths and the bodies' prologues the
  // last line evaluated (13), as are the bodies' ends and the cleanup (the
  // statement's last line): once past line 10, nothing returns to it.
  EXPECT_NE(l.c.find("#line 10\n    wuc_wu_begin(&__wuc0.__wuc_wu, __wuc0.__wuc_clauses);\n"),
            std::string::npos);
  EXPECT_NE(l.c.find("#line 13\n    if (wuc_chan_recv_on_selected(&__wuc0.__wuc_clause1_recv, "),
            std::string::npos);
  EXPECT_NE(l.c.find("#line 13\n    if (wuc_wu_end_winner(&__wuc0.__wuc_wu, 0)) "),
            std::string::npos);
  EXPECT_NE(l.c.find("#line 13\n    } __wuc0 __attribute__((__cleanup__(wuc_wu_state_exit)));\n"),
            std::string::npos);
  size_t guard = l.c.find("#line 11\n      __wuc0.__wuc_clause1_recv_enabled", b);
  ASSERT_NE(guard, std::string::npos);
  // (but for clause 0's body, which is on line 10)
  std::string rest = l.c.substr(guard, e - guard);
  EXPECT_EQ(count(rest, "#line 10\n"), 1u) << l.c;
  EXPECT_NE(rest.find("#line 10\n                     { r = 1; }"), std::string::npos) << l.c;
  EXPECT_NE(l.c.find("#line 11\n      __wuc0.__wuc_clause1_recv_enabled = (n > 0) != 0;\n"),
            std::string::npos);
  // The text after the statement, on the statement's last line, is padded
  // to its column.
  EXPECT_NE(l.c.find("  }\n#line 13 \"t.wc\"\n                              r++;"),
            std::string::npos)
      << l.c;
  EXPECT_TRUE(compilesCleanly(l.c));
}

// ---- readability -----------------------------------------------------------

TEST(Lowering, CommentsQuoteTheClauseSafely) {
  Lowered l;
  lower(fn("  when (n /* any */ > 0)\n"
           "    waituntil (x /* target */\n"
           "               << a) ;\n"
           "  or waituntil (a << n + 100000000 + 200000000 + 300000000 + 400000000 + "
           "500000000 + 600000000) ;"),
        {{recvFacts(), sendFacts()}}, l);
  std::string s = l.statement(0);
  // White space collapsed, comment markers broken up (-Wcomment), cut at 80.
  EXPECT_NE(
      s.find("/* clause 0 at t.wc:10:3: when (n / * any * / > 0) waituntil (x / * target * / << "
             "a) */"),
      std::string::npos)
      << s;
  EXPECT_NE(s.find("/* clause 1 at t.wc:13:6: waituntil (a << n + 100000000 + 200000000 + "
                   "300000000 + 400000000 + 500000000... */"),
            std::string::npos)
      << s;
  EXPECT_TRUE(compilesCleanly(l.c));
}

TEST(Lowering, BlockIsIndentedLikeTheStatementsLine) {
  Lowered l;
  lower(fn("  if (n) {\n"
           "      waituntil (x << a) ;\n"
           "  }"),
        {{recvFacts()}}, l);
  std::string s = l.statement(0);
  EXPECT_TRUE(
      inOrder(l.plain, {"\n      { /* waituntil statement 0 at t.wc:11:7:",
                        "\n        struct { /* the statement's state */\n",
                        "\n          wuc_wu_clause __wuc_clauses[1];\n",
                        "\n        { /* the clauses' evaluation, the early try",
                        "\n          if (wuc_wu_recv_early(", "\n        }\n",
                        "\n      __wuc0_clause0_recv_won:", "\n        __wuc0_clause0_recv_early:",
                        "\n      __wuc0_end:;\n", "      }\n"}))
      << l.plain;
  EXPECT_TRUE(compilesCleanly(l.c));
}

} // namespace
} // namespace wuc::test
