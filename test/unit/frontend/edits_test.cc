// The lexical extensions: channel(T), future(T), duration literals.
#include <gtest/gtest.h>

#include <vector>

#include "frontend_test_util.h"

namespace wuc::test {
namespace {

// The replacement text of the edit covering `what` (first occurrence).
std::string replacement(const Parsed &p, const std::string &what) {
  for (const Edit &e : p.fe.edits)
    if (!e.range.empty() && p.text(e.range) == what) return e.text;
  return "<no edit>";
}

std::string mangledTag(const std::string &type) {
  Parsed p = parse(type + " v;\n");
  EXPECT_TRUE(p.ok) << p.diags;
  for (const Edit &e : p.fe.edits)
    if (e.kind == Edit::ChannelType || e.kind == Edit::FutureType) {
      size_t at = e.text.rfind("struct ");
      return e.text.substr(at + 7);
    }
  return "<none>";
}

TEST(Edits, Mangling) {
  EXPECT_EQ(mangledTag("channel(int)"), "wuc_channel_int");
  EXPECT_EQ(mangledTag("future(double)"), "wuc_future_double");
  EXPECT_EQ(mangledTag("channel(struct msg *)"), "wuc_channel_struct_msg_P");
  EXPECT_EQ(mangledTag("channel(unsigned long long)"), "wuc_channel_unsigned_long_long");
  EXPECT_EQ(mangledTag("channel(int[4])"), "wuc_channel_int_A4");
  EXPECT_EQ(mangledTag("channel(char *[16][2])"), "wuc_channel_char_P_A16_A2");
  EXPECT_EQ(mangledTag("channel(const char * const *)"), "wuc_channel_const_char_P_const_P");
  EXPECT_EQ(mangledTag("channel(int (*)(int, long))"),
            "wuc_channel_int_lp_P_rp_lp_int_comma_long_rp");
  EXPECT_EQ(mangledTag("channel(__typeof__(x + 1))"), "wuc_channel___typeof___lp_x_plus_1_rp");
  EXPECT_EQ(mangledTag("channel(int[N + 1])"), "wuc_channel_int_AN_plus_1");
  // Whitespace, comments and continuations do not matter.
  EXPECT_EQ(mangledTag("channel( struct /* c */ msg\n*\t)"), "wuc_channel_struct_msg_P");
  EXPECT_EQ(mangledTag("channel(uns\\\nigned)"), "wuc_channel_unsigned");
}

TEST(Edits, ReplacementAndDefinition) {
  Parsed p = parse("#include <wuc.h>\nstatic channel(int) c;\nint x;\n");
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.edits.size(), 2u);
  // The definition at the start of the declaration holding the first use.
  EXPECT_EQ(p.fe.edits[0].kind, Edit::TypeDefinition);
  EXPECT_EQ(p.pos(p.fe.edits[0].range.begin), "2:1");
  EXPECT_EQ(p.fe.edits[0].text, "WUC_CHANNEL_STRUCT(wuc_channel_int, int);\n");
  const Edit &e = p.fe.edits[1];
  EXPECT_EQ(e.kind, Edit::ChannelType);
  EXPECT_EQ(p.text(e.range), "channel(int)");
  EXPECT_EQ(e.text, "struct wuc_channel_int");
  EXPECT_EQ(p.render(), "#include <wuc.h>\nWUC_CHANNEL_STRUCT(wuc_channel_int, int);\n"
                        "static struct wuc_channel_int c;\nint x;\n");
}

TEST(Edits, DefinitionBeforeTheDeclarationOfFirstUse) {
  Parsed p =
      parse("int a;\nstatic channel(int) c, d;\n"
            "void f(void) {\n  future(long) g;\n  channel(int) e;\n  waituntil (x << c) ;\n}\n"
            "future(long) h;\n");
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.edits.size(), 6u);
  EXPECT_EQ(p.fe.edits[0].kind, Edit::TypeDefinition);
  EXPECT_EQ(p.pos(p.fe.edits[0].range.begin), "2:1");
  EXPECT_TRUE(p.fe.edits[0].range.empty());
  EXPECT_EQ(p.fe.edits[0].text, "WUC_CHANNEL_STRUCT(wuc_channel_int, int);\n");
  EXPECT_EQ(p.fe.edits[1].kind, Edit::ChannelType);
  EXPECT_EQ(p.fe.edits[2].kind, Edit::TypeDefinition);
  EXPECT_EQ(p.pos(p.fe.edits[2].range.begin), "3:1");
  EXPECT_EQ(p.fe.edits[2].text, "WUC_FUTURE_STRUCT(wuc_future_long, long);\n");
  EXPECT_EQ(p.fe.edits[3].text, "struct wuc_future_long");
  EXPECT_EQ(p.fe.edits[4].text, "struct wuc_channel_int");
  EXPECT_EQ(p.fe.edits[5].text, "struct wuc_future_long");
  EXPECT_EQ(
      p.render(),
      "int a;\nWUC_CHANNEL_STRUCT(wuc_channel_int, int);\nstatic struct wuc_channel_int c, d;\n"
      "WUC_FUTURE_STRUCT(wuc_future_long, long);\nvoid f(void) {\n  struct wuc_future_long g;\n"
      "  struct wuc_channel_int e;\n  waituntil (x << c) ;\n}\nstruct wuc_future_long h;\n");
  for (size_t i = 1; i < p.fe.edits.size(); i++)
    EXPECT_LT(p.fe.edits[i - 1].range.begin, p.fe.edits[i].range.begin);
}

TEST(Edits, LocalTypesAreDefinedAfterTheirDeclaration) {
  // A type declared in the function: the definition goes right after its
  // declaration, in its block; file-scope and other functions' types are
  // not affected.
  Parsed p = parse("struct pt { double d; };\n"
                   "void f(void) {\n"
                   "  struct pt { int x; } a;\n"
                   "  typedef struct { int v; } pair_t, *pair_p;\n"
                   "  typedef int four[4], (*fn_t)(int arg);\n"
                   "  channel(struct pt) c;\n"
                   "  channel(pair_p) d;\n"
                   "  future(fn_t) e;\n"
                   "  channel(channel(four) *) g;\n"
                   "  channel(arg) h;\n"
                   "  { typedef long pt; channel(pt) i; }\n"
                   "  channel(pt) j;\n"
                   "}\n"
                   "channel(struct pt) k;\n");
  ASSERT_TRUE(p.ok) << p.diags;
  EXPECT_EQ(
      p.render(),
      "struct pt { double d; };\n"
      "WUC_CHANNEL_STRUCT(wuc_channel_arg, arg);\n"
      "WUC_CHANNEL_STRUCT(wuc_channel_pt, pt);\n"
      "void f(void) {\n"
      "  struct pt { int x; } a;WUC_CHANNEL_STRUCT(wuc_channel_struct_pt, struct pt);\n"
      "\n"
      "  typedef struct { int v; } pair_t, *pair_p;"
      "WUC_CHANNEL_STRUCT(wuc_channel_pair_p, pair_p);\n"
      "\n"
      "  typedef int four[4], (*fn_t)(int arg);"
      "WUC_FUTURE_LOCAL_STRUCT(wuc_future_fn_t, fn_t);\n"
      "WUC_CHANNEL_STRUCT(wuc_channel_four, four);\n"
      "WUC_CHANNEL_STRUCT(wuc_channel_struct_wuc_channel_four_P, struct wuc_channel_four *);\n"
      "\n"
      "  struct wuc_channel_struct_pt c;\n"
      "  struct wuc_channel_pair_p d;\n"
      "  struct wuc_future_fn_t e;\n"
      "  struct wuc_channel_struct_wuc_channel_four_P g;\n"
      "  struct wuc_channel_arg h;\n"
      "  { typedef long pt;WUC_CHANNEL_STRUCT(wuc_channel_pt, pt);\n"
      " struct wuc_channel_pt i; }\n"
      "  struct wuc_channel_pt j;\n"
      "}\n"
      "WUC_CHANNEL_STRUCT(wuc_channel_struct_pt, struct pt);\n"
      "struct wuc_channel_struct_pt k;\n");
}

TEST(Edits, InsertionAtAReplacementComesFirst) {
  // The definition stays an edit of its own (the lowering re-numbers the
  // lines after each TypeDefinition), before the replacement at its offset.
  Parsed p = parse("channel(int) c;\nfuture(char) f;\n");
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.edits.size(), 4u);
  EXPECT_EQ(p.fe.edits[0].kind, Edit::TypeDefinition);
  EXPECT_TRUE(p.fe.edits[0].range.empty());
  EXPECT_EQ(p.fe.edits[0].text, "WUC_CHANNEL_STRUCT(wuc_channel_int, int);\n");
  EXPECT_EQ(p.fe.edits[1].kind, Edit::ChannelType);
  EXPECT_EQ(p.fe.edits[1].range.begin, 0u);
  EXPECT_EQ(p.fe.edits[1].text, "struct wuc_channel_int");
  EXPECT_EQ(p.render(), "WUC_CHANNEL_STRUCT(wuc_channel_int, int);\nstruct wuc_channel_int c;\n"
                        "WUC_FUTURE_STRUCT(wuc_future_char, char);\nstruct wuc_future_char f;\n");
}

TEST(Edits, NestedTypes) {
  Parsed p = parse("struct req { int n; channel(channel(int) *) reply; };\n");
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.edits.size(), 2u);
  EXPECT_EQ(p.fe.edits[0].kind, Edit::TypeDefinition);
  EXPECT_EQ(
      p.fe.edits[0].text,
      "WUC_CHANNEL_STRUCT(wuc_channel_int, int);\n"
      "WUC_CHANNEL_STRUCT(wuc_channel_struct_wuc_channel_int_P, struct wuc_channel_int *);\n");
  EXPECT_EQ(p.text(p.fe.edits[1].range), "channel(channel(int) *)");
  EXPECT_EQ(p.fe.edits[1].text, "struct wuc_channel_struct_wuc_channel_int_P");
  // The same type written either way is the same type.
  Parsed q = parse(
      "channel(channel(int)) a;\nchannel(struct wuc_channel_int) b;\nfuture(channel(int)) c;\n");
  ASSERT_TRUE(q.ok) << q.diags;
  EXPECT_EQ(replacement(q, "channel(struct wuc_channel_int)"),
            "struct wuc_channel_struct_wuc_channel_int");
  EXPECT_NE(q.render().find(
                "WUC_FUTURE_STRUCT(wuc_future_struct_wuc_channel_int, struct wuc_channel_int);\n"
                "struct wuc_future_struct_wuc_channel_int c;"),
            std::string::npos)
      << q.render();
}

TEST(Edits, LongNamesEndInAHash) {
  std::string t = "int";
  for (int i = 0; i < 2000; i++) t = "channel(" + t + ")";
  Parsed p = parse(t + " deep;\n");
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.edits.size(), 2u);
  size_t total = p.fe.edits[0].text.size() + p.fe.edits[1].text.size();
  EXPECT_LT(total, 2000u * 400u); // linear in the depth
  std::string tag = mangledTag("channel(" + std::string(200, 'x') + ")");
  EXPECT_EQ(tag.size(), std::string("wuc_channel_").size() + 120);
  EXPECT_EQ(tag, mangledTag("channel( " + std::string(200, 'x') + " )"));
  EXPECT_NE(tag, mangledTag("channel(" + std::string(201, 'x') + ")"));
}

TEST(Edits, OneDefinitionPerType) {
  Parsed p =
      parse("channel(int) a;\nchannel( int ) b;\nvoid f(channel(int) *p) { channel(int) q; }\n");
  ASSERT_TRUE(p.ok) << p.diags;
  size_t definitions = 0;
  for (const Edit &e : p.fe.edits)
    definitions += e.text.find("WUC_CHANNEL_STRUCT") != std::string::npos;
  EXPECT_EQ(definitions, 1u);
}

TEST(Edits, NotATypeUnlessFollowedByParen) {
  Parsed p =
      parse("int channel, future;\nvoid f(void) { channel = future; channel /* c */ (int) c; }\n");
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.edits.size(), 2u);
  EXPECT_EQ(p.fe.edits[0].text, "WUC_CHANNEL_STRUCT(wuc_channel_int, int);\n");
  EXPECT_EQ(p.text(p.fe.edits[1].range), "channel /* c */ (int)");
}

// docs/language.md, 'Types', "Where channel(T) is a type".
std::vector<std::string> rewritten(const std::string &src) {
  Parsed p = parse(src);
  EXPECT_TRUE(p.ok) << p.diags;
  std::vector<std::string> out;
  for (const Edit &e : p.fe.edits)
    if (e.kind == Edit::ChannelType || e.kind == Edit::FutureType) out.push_back(p.text(e.range));
  return out;
}
using Words = std::vector<std::string>;

TEST(Edits, TypeFormsWhereATypeStands) {
  EXPECT_EQ(rewritten("channel(int) c;"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("struct m { int x; };\nstatic channel(struct m) *p;"),
            Words{"channel(struct m)"});
  EXPECT_EQ(rewritten("void f(channel(int) *c);"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("void *p; int x = sizeof((channel(int) *)p);"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("int x = sizeof(channel(int));"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("typedef future(int) fi;"), Words{"future(int)"});
  EXPECT_EQ(rewritten("extern channel(int) inbox;"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("const channel(const char *) names;"), Words{"channel(const char *)"});
  EXPECT_EQ(rewritten("__attribute__((unused)) static channel(int) a;"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("_Alignas(64) channel(int) a;"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("static const __attribute__((unused)) channel(job_t) a;"),
            Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("void *p; int n = sizeof((const channel(job_t) *)p);"),
            Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("int f(c) channel(job_t) *c; { return 0; }"), Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("DECLARE(x)\nchannel(int) a;"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("struct s { channel(int) in; future(long) out; };"),
            (Words{"channel(int)", "future(long)"}));
  EXPECT_EQ(rewritten("void f(void) { for (channel(int) *p = 0; p; ) ; }"), Words{"channel(int)"});
  EXPECT_EQ(rewritten("void f(void) { x: ; channel(int) c; }"), Words{"channel(int)"});
  // A typedef name alone: declarators follow, or a type-name argument.
  EXPECT_EQ(rewritten("channel(job_t) jobs;"), Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("channel(job_t) *pick(void);"), Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("void w(channel(job_t) *, int);"), Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("static channel(job_t);"), Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("int n = sizeof(channel(job_t));"), Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("int n = _Alignof(future(job_t));"), Words{"future(job_t)"});
  EXPECT_EQ(rewritten("int n = offsetof(channel(job_t), x);"), Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("channel(channel(job_t)) c;"), Words{"channel(channel(job_t))"});
  EXPECT_EQ(rewritten("channel(job_t *) c;"), Words{"channel(job_t *)"});
  EXPECT_EQ(rewritten("channel(job_t * const) c;"), Words{"channel(job_t * const)"});
  EXPECT_EQ(rewritten("#define JOBS static channel(job_t)\n"), Words{"channel(job_t)"});
  EXPECT_EQ(rewritten("#define INTS channel(int)\n"), Words{"channel(int)"});
}

TEST(Edits, CallsAndNamesAreLeftAlone) {
  EXPECT_EQ(rewritten("static int channel(int n) { return n; }"), Words{});
  EXPECT_EQ(rewritten("int future(void);"), Words{});
  EXPECT_EQ(rewritten("my_t channel(my_t x);"), Words{});
  EXPECT_EQ(rewritten("int *future(int);"), Words{});
  EXPECT_EQ(rewritten("void f(void) { x = channel(3); }"), Words{});
  EXPECT_EQ(rewritten("void f(void) { g(future(2)); }"), Words{});
  EXPECT_EQ(rewritten("void f(void) { s.channel(1); p->future(n); }"), Words{});
  EXPECT_EQ(rewritten("void f(void) { channel(n); future(); channel(n, 2); }"), Words{});
  EXPECT_EQ(rewritten("void f(void) { if (channel(n)) return future(n + 1); }"), Words{});
  EXPECT_EQ(rewritten("void f(void) { g(channel(n), future(arr[2]), channel(*p)); }"), Words{});
  EXPECT_EQ(rewritten("void f(void) { x = y * channel(n) - (int)future(n) + !channel(n); }"),
            Words{});
  EXPECT_EQ(rewritten("void f(void) { channel(n) = 1; channel(n)->x = 2; channel(n)[0]++; }"),
            Words{});
  EXPECT_EQ(rewritten("void f(void) { k = channel(n) * 2; r = c ? channel(a) : future(b); }"),
            Words{});
  EXPECT_EQ(rewritten("struct s { int a; } channel(int n);"), Words{});
  EXPECT_EQ(rewritten("int const channel(int n);\nstatic my_t volatile future(void);"), Words{});
  EXPECT_EQ(rewritten("unsigned long __attribute__((cold)) channel(int n);"), Words{});
  EXPECT_EQ(rewritten("#define GET channel(ctx)\n#define F(x) future(x)\n"), Words{});
  // A waituntil statement in the same file changes nothing.
  EXPECT_EQ(rewritten("static int channel(int n) { return n; }\n"
                      "void f(void) { waituntil (a) x = channel(3); }\n"),
            Words{});
}

TEST(Edits, PaddingKeepsTokensApart) {
  Parsed p = parse("int x = sizeof(channel(int))+1;\nvoid f(void) { return(channel(int)*)0; }\n"
                   "typedef channel(int)chan_t;\n");
  ASSERT_TRUE(p.ok) << p.diags;
  std::string out = p.render();
  EXPECT_NE(out.find("sizeof(struct wuc_channel_int)+1"), std::string::npos) << out;
  EXPECT_NE(out.find("typedef struct wuc_channel_int chan_t;"), std::string::npos) << out;
}

TEST(Edits, Durations) {
  Parsed p = parse(
      "long a = 10`ms, b = 1.5`us, c = 1`s, d = 0x10`ns, e = 2e3`us, f = 7ull`s, g = 0x1p4`ms;\n");
  ASSERT_TRUE(p.ok) << p.diags;
  EXPECT_EQ(replacement(p, "10`ms"), "((wuc_duration_t)(10 * 1000000LL))");
  EXPECT_EQ(replacement(p, "1.5`us"), "((wuc_duration_t)(1.5 * 1000.0))");
  EXPECT_EQ(replacement(p, "1`s"), "((wuc_duration_t)(1 * 1000000000LL))");
  EXPECT_EQ(replacement(p, "0x10`ns"), "((wuc_duration_t)(0x10 * 1LL))");
  EXPECT_EQ(replacement(p, "2e3`us"), "((wuc_duration_t)(2e3 * 1000.0))");
  EXPECT_EQ(replacement(p, "7ull`s"), "((wuc_duration_t)(7ull * 1000000000LL))");
  EXPECT_EQ(replacement(p, "0x1p4`ms"), "((wuc_duration_t)(0x1p4 * 1000000.0))");
  for (const Edit &e : p.fe.edits) EXPECT_EQ(e.kind, Edit::Duration);
}

TEST(Edits, DurationsInStatements) {
  Parsed p = parse("void f(void) { waituntil (timeout(5`ms)) { sleep(1 `s); } }\n");
  ASSERT_TRUE(p.ok) << p.diags;
  ASSERT_EQ(p.fe.edits.size(), 2u);
  // Inside a statement, edits apply when its parts are rendered.
  const Clause &c = p.clause(0, 0);
  Renderer r(*p.file, p.fe, [](const WaitUntil &, std::string &) {});
  std::string operand, body;
  r.render(c.operand, operand);
  r.render(c.body, body);
  EXPECT_EQ(operand, "timeout(((wuc_duration_t)(5 * 1000000LL)))");
  EXPECT_EQ(body, "{ sleep(((wuc_duration_t)(1 * 1000000000LL))); }");
}

TEST(Edits, NothingInLiteralsOrComments) {
  Parsed p =
      parse("const char *s = \"channel(int) 10`ms\";\n// channel(int)\n/* 1`s */ char c = '`';\n");
  ASSERT_TRUE(p.ok) << p.diags;
  EXPECT_TRUE(p.fe.edits.empty());
}

TEST(Edits, InDefineReplacementLists) {
  const std::string src = "#include <wuc.h>\n"
                          "#define TICK 10`ms\n"
                          "#define INTCHAN channel(int)\n"
                          "# define PAIR(a, b) { future(long) x; channel(a) y; a`ms; }\n"
                          "#define channel(T) foo(T)\n"
                          "#error 10`ms channel(int)\n"
                          "#if 0\n#endif\n"
                          "static INTCHAN c;\n"
                          "void f(void) {\n#define LOCAL future(char)\n  LOCAL g;\n}\n";
  Parsed p = parse(src);
  EXPECT_EQ(p.errors, "4:54: a duration literal needs a number before '`'\n");
  Parsed q = parse(std::string(src).replace(src.find("a`ms"), 4, "1`s"));
  ASSERT_TRUE(q.ok) << q.diags;
  EXPECT_EQ(q.render(), "#include <wuc.h>\n"
                        "#define TICK ((wuc_duration_t)(10 * 1000000LL))\n"
                        "#define INTCHAN struct wuc_channel_int\n"
                        "# define PAIR(a, b) { struct wuc_future_long x; channel(a) y; "
                        "((wuc_duration_t)(1 * 1000000000LL)); }\n"
                        "#define channel(T) foo(T)\n"
                        "#error 10`ms channel(int)\n"
                        "#if 0\n#endif\n"
                        "WUC_CHANNEL_STRUCT(wuc_channel_int, int);\n"
                        "WUC_FUTURE_STRUCT(wuc_future_long, long);\n"
                        "static INTCHAN c;\n"
                        "WUC_FUTURE_STRUCT(wuc_future_char, char);\n"
                        "void f(void) {\n#define LOCAL struct wuc_future_char\n  LOCAL g;\n}\n");
  // A type whose parentheses hold a directive (found by the fuzzer): one edit.
  Parsed t = parse("channel(int\n#define Y channel(char) 1`s\n) c;\nlong d = 2`s;\n");
  ASSERT_TRUE(t.ok) << t.diags;
  ASSERT_EQ(t.fe.edits.size(), 3u);
  EXPECT_EQ(t.fe.edits[0].kind, Edit::TypeDefinition);
  EXPECT_EQ(t.text(t.fe.edits[1].range), "channel(int\n#define Y channel(char) 1`s\n)");
  EXPECT_EQ(t.fe.edits[2].kind, Edit::Duration);
  // A directive with nothing after it (here not even a newline): the
  // definition goes before it.
  Parsed r = parse("int a;\n  #define C channel(short)");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_EQ(r.render(), "int a;\n  WUC_CHANNEL_STRUCT(wuc_channel_short, short);\n#define C struct "
                        "wuc_channel_short");
}

} // namespace
} // namespace wuc::test
