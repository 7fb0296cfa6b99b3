// Tests of wuc::analyse (sema/): clause classification, trait lookup and the
// errors of docs/language.md §8, on small dialect sources.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "frontend.h"
#include "messages.h"
#include "sema.h"

namespace wuc {
namespace {

struct Outcome {
  bool ok = false;
  SemaFacts facts;
  std::string errors; // "line:col: message" per line
  std::string probe;

  const ClauseFacts &at(unsigned stmt, unsigned clause = 0) const {
    static const ClauseFacts none;
    if (stmt >= facts.statements.size() || clause >= facts.statements[stmt].size()) {
      ADD_FAILURE() << "no facts for statement " << stmt << " clause " << clause;
      return none;
    }
    return facts.statements[stmt][clause];
  }
};

Outcome analyseSource(const std::string &src, std::vector<std::string> args = {},
                      std::string path = "test.wc") {
  Outcome r;
  SourceFile file(path, src);
  FrontendResult fe;
  {
    DiagEngine syntax(file);
    if (!parseSource(file, syntax, fe)) {
      std::ostringstream os;
      syntax.print(os);
      ADD_FAILURE() << "the frontend rejected the test source:\n" << os.str();
      return r;
    }
  }
  DiagEngine diags(file);
  SemaOptions opts;
  opts.compilerArgs = std::move(args);
  opts.wucIncludeDir = WUC_TEST_STDLIB;
  opts.probeText = &r.probe;
  r.ok = analyse(file, fe, opts, diags, r.facts);
  for (const Diagnostic &d : diags.all()) {
    LineCol lc = file.lineCol(d.offset);
    r.errors += std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": " + d.message + "\n";
  }
  return r;
}

// A function body in a file that has the usual declarations.
std::string inMain(const std::string &decls, const std::string &body) {
  return "#include <wuc.h>\n" + decls + "\nvoid f(void) {\n" + body + "\n}\n";
}

std::string err(unsigned line, unsigned col, const std::string &message) {
  return std::to_string(line) + ":" + std::to_string(col) + ": " + message + "\n";
}

// ---- channels: receive or send, by type --------------------------------

TEST(Channel, ReceiveByType) {
  Outcome r = analyseSource(inMain("channel(int) ch;", "int x;\nwaituntil (x << ch) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  const ClauseFacts &f = r.at(0);
  EXPECT_EQ(f.kind, ClauseFacts::Recv);
  EXPECT_FALSE(f.channelIsPointer);
  EXPECT_TRUE(f.recvInPlace);
  EXPECT_EQ(f.traitVar, "wuc_selectable_trait_wuc_chan_recv_register");
  EXPECT_EQ(f.registerFn, "wuc_chan_recv_register");
  EXPECT_EQ(f.unregisterFn, "wuc_chan_recv_unregister");
  EXPECT_EQ(f.onSelectedFn, "wuc_chan_recv_on_selected");
  EXPECT_EQ(f.operandType, "channel(int)");
  EXPECT_EQ(f.elementType, "int");
  EXPECT_FALSE(f.unseen);
}

TEST(Channel, SendByType) {
  Outcome r = analyseSource(inMain("channel(int) ch;", "int x = 1;\n"
                                                       "waituntil (ch << x) {}\n"
                                                       "waituntil (ch << 42) {}\n"
                                                       "waituntil (ch << 'c') {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  for (unsigned s = 0; s < 3; s++) {
    EXPECT_EQ(r.at(s).kind, ClauseFacts::Send) << s;
    EXPECT_EQ(r.at(s).traitVar, "wuc_selectable_trait_wuc_chan_send_register");
    EXPECT_EQ(r.at(s).registerFn, "wuc_chan_send_register");
  }
}

TEST(Channel, SendNullPointerConstant) {
  Outcome r = analyseSource(inMain("channel(char *) ch;", "waituntil (ch << 0) {}\n"
                                                          "waituntil (ch << (void *)0) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Send);
  EXPECT_EQ(r.at(1).kind, ClauseFacts::Send);
}

TEST(Channel, BothReadingsValidIsReceive) {
  // a: channel(void *) * — assignable from b's element (a channel(void *) *);
  // b: channel(vchan *) * — assignable to a's element (void *).
  Outcome r = analyseSource(inMain("typedef channel(void *) vchan;\n"
                                   "channel(vchan *) *b;",
                                   "vchan *a = 0;\nwaituntil (a << b) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Recv);
  EXPECT_TRUE(r.at(0).channelIsPointer);
  EXPECT_TRUE(r.at(0).recvInPlace);
}

TEST(Channel, PointerAndObjectChannels) {
  Outcome r = analyseSource(inMain("channel(int) *p; channel(int) chans[4];",
                                   "int x;\n"
                                   "waituntil (x << p) {}\n"
                                   "waituntil (x << *p) {}\n"
                                   "waituntil (p << x) {}\n"
                                   "waituntil (chans[2] << x) {}\n"
                                   "waituntil (closed(p)) {}\n"
                                   "waituntil (closed(chans[1])) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Recv);
  EXPECT_TRUE(r.at(0).channelIsPointer);
  EXPECT_EQ(r.at(0).operandType, "channel(int) *");
  EXPECT_EQ(r.at(1).kind, ClauseFacts::Recv);
  EXPECT_FALSE(r.at(1).channelIsPointer);
  EXPECT_EQ(r.at(2).kind, ClauseFacts::Send);
  EXPECT_TRUE(r.at(2).channelIsPointer);
  EXPECT_EQ(r.at(3).kind, ClauseFacts::Send);
  EXPECT_FALSE(r.at(3).channelIsPointer);
  EXPECT_EQ(r.at(4).kind, ClauseFacts::Closed);
  EXPECT_TRUE(r.at(4).channelIsPointer);
  EXPECT_EQ(r.at(5).kind, ClauseFacts::Closed);
  EXPECT_FALSE(r.at(5).channelIsPointer);
  EXPECT_EQ(r.at(5).traitVar, "wuc_selectable_trait_wuc_chan_closed_register");
}

TEST(Channel, AnonymousChannelMacro) {
  Outcome r = analyseSource(inMain("WUC_CHANNEL(short) ch;", "short x;\nwaituntil (x << ch) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Recv);
  EXPECT_TRUE(r.at(0).recvInPlace);
  EXPECT_EQ(r.at(0).operandType, "channel(short)");
}

TEST(Channel, InPlaceAndConvertedReceive) {
  Outcome r = analyseSource(inMain("channel(int) ch; typedef int myint;",
                                   "long l; double d; myint m; volatile int v; _Atomic int a;\n"
                                   "waituntil (l << ch) {}\n"
                                   "waituntil (d << ch) {}\n"
                                   "waituntil (m << ch) {}\n"
                                   "waituntil (v << ch) {}\n"
                                   "waituntil (a << ch) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  for (unsigned s = 0; s < 5; s++) EXPECT_EQ(r.at(s).kind, ClauseFacts::Recv) << s;
  EXPECT_FALSE(r.at(0).recvInPlace); // long from int: converted
  EXPECT_FALSE(r.at(1).recvInPlace);
  EXPECT_TRUE(r.at(2).recvInPlace);  // a typedef of the same type
  EXPECT_FALSE(r.at(3).recvInPlace); // volatile: assigned, never written as bytes
  EXPECT_FALSE(r.at(4).recvInPlace); // _Atomic int is another type
}

TEST(Channel, IncompatibleElementBothDirections) {
  Outcome r = analyseSource(inMain("struct s { int a; };\nchannel(struct s) cs;",
                                   "double d = 0;\n"
                                   "waituntil (d << cs) {}\n"
                                   "waituntil (cs << d) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors,
            err(6, 14, "cannot receive an element of type 'struct s' into 'double'") +
                err(7, 15, "cannot send a value of type 'double' on a channel of 'struct s'"));
}

// ---- the element types of channel(T) / future(T) -------------------------

TEST(ElementType, ArraysAreRefusedAtTheFirstUse) {
  Outcome r = analyseSource(inMain("typedef int four[4];\nchannel(four) a, b;\nfuture(char[2]) g;",
                                   "four v = {0};\nwaituntil (a << v) {}\n"
                                   "channel(int[3]) local;\n(void)local;"));
  EXPECT_FALSE(r.ok);
  // Nothing more about the clause on such a channel.
  EXPECT_EQ(r.errors, err(3, 1,
                          "'channel(four)' cannot hold an array ('int[4]'): C cannot assign "
                          "arrays; wrap the array in a struct") +
                          err(4, 1,
                              "'future(char[2])' cannot hold an array ('char[2]'): C cannot "
                              "assign arrays; wrap the array in a struct") +
                          err(8, 1,
                              "'channel(int[3])' cannot hold an array ('int[3]'): C cannot "
                              "assign arrays; wrap the array in a struct"));
}

TEST(ElementType, LocalTypesAreDefinedInTheirBlock) {
  Outcome r = analyseSource(inMain("", "struct pt { int x; };\ntypedef struct pt *ptp;\n"
                                       "channel(struct pt) c; channel(ptp) d; future(ptp) e;\n"
                                       "struct pt p; ptp q = 0;\n"
                                       "waituntil (p << c) {} or waituntil (d << q) {}\n"
                                       "waituntil (e) {}"));
  EXPECT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0, 0).kind, ClauseFacts::Recv);
  EXPECT_EQ(r.at(0, 0).elementType, "struct pt");
  EXPECT_EQ(r.at(0, 1).kind, ClauseFacts::Send);
  EXPECT_EQ(r.at(1, 0).kind, ClauseFacts::Resource); // through the future's core
  EXPECT_EQ(r.at(1, 0).memberPath, std::vector<std::string>{"core"});
}

TEST(ElementType, DependingOnTheFunctionUnseenIsAnError) {
  Outcome r = analyseSource(inMain("", "int x = 0;\nchannel(__typeof__(x)) c;\n(void)c;"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(5, 1,
                          "'channel(__typeof__(x))' has no valid element type where wucc defines "
                          "it (at file scope, or after the declaration of a type local to the "
                          "function): use of undeclared identifier 'x'"));
  // A name declared nowhere, or a type Clang lacks, is the back end's to judge.
  EXPECT_TRUE(analyseSource(inMain("channel(_Float128) c; channel(no_such_t) d;", "")).ok);
}

TEST(Channel, ConversionsThatOnlyWarnInCAreErrors) {
  Outcome r = analyseSource(inMain("channel(char *) cp; channel(int) ci;",
                                   "const char *s = \"x\"; int *ip = 0;\n"
                                   "waituntil (cp << s) {}\n"
                                   "waituntil (ci << ip) {}\n"
                                   "waituntil (ip << ci) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors,
            err(5, 15, "cannot send a value of type 'const char *' on a channel of 'char *'") +
                err(6, 15, "cannot send a value of type 'int *' on a channel of 'int'") +
                err(7, 15, "cannot receive an element of type 'int' into 'int *'"));
}

TEST(Channel, ReceiveIntoBitField) {
  Outcome r = analyseSource(inMain("struct b { int f : 3; int g; } bb; channel(int) ch;",
                                   "waituntil (bb.f << ch) {}\nwaituntil (bb.g << ch) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(4, 12, msg::RecvIntoBitField));
  EXPECT_EQ(r.at(1).kind, ClauseFacts::Recv);
}

TEST(Channel, ReceiveIntoConstOrRvalue) {
  Outcome r = analyseSource(inMain("channel(int) ch; int g(void);", "const int c = 0;\n"
                                                                    "waituntil (c << ch) {}\n"
                                                                    "waituntil (g() << ch) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(5, 14, format(msg::RecvTargetNotModifiable, "const int")) +
                          err(6, 16, format(msg::RecvTargetNotModifiable, "int")));
}

TEST(Channel, NeitherSideIsAChannel) {
  Outcome r = analyseSource(inMain("", "int x = 0; double d = 1;\nwaituntil (x << 2) {}\n"
                                       "waituntil (d << x) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors,
            err(5, 14, "neither operand of '<<' is a channel (left 'int', right 'int')") +
                err(6, 14, "neither operand of '<<' is a channel (left 'double', right 'int')"));
}

TEST(Channel, RvalueChannelOperand) {
  Outcome r =
      analyseSource(inMain("channel(int) make(void); channel(int) *where(void);",
                           "int x;\nwaituntil (x << make()) {}\nwaituntil (x << where()) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(5, 17, format(msg::OperandNotLvalue, "channel(int)")));
  EXPECT_EQ(r.at(1).kind, ClauseFacts::Recv);
  EXPECT_TRUE(r.at(1).channelIsPointer);
}

TEST(Channel, ConstChannel) {
  Outcome r = analyseSource(inMain("const channel(int) *cp;", "int x;\nwaituntil (x << cp) {}\n"
                                                              "waituntil (closed(cp)) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(5, 17, format(msg::ResourceConst, "const channel(int) *")) +
                          err(6, 19, format(msg::ResourceConst, "const channel(int) *")));
}

TEST(Channel, ChannelAloneIsNotAResource) {
  Outcome r = analyseSource(inMain("channel(int) ch;", "waituntil (ch) {}\nwaituntil (&ch) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(4, 12, msg::ChannelWithoutShift) + err(5, 12, msg::ChannelWithoutShift));
}

// ---- closed and timeout ----------------------------------------------------

TEST(Closed, NeedsAChannel) {
  Outcome r = analyseSource(inMain("channel(int) ch; owner_lock l;",
                                   "waituntil (closed(ch)) {}\nwaituntil (closed(l)) {}\n"
                                   "waituntil (closed(&l)) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Closed);
  EXPECT_EQ(r.at(0).elementType, "int");
  EXPECT_EQ(r.errors, err(5, 19, format(msg::ClosedNeedsChannel, "owner_lock")) +
                          err(6, 19, format(msg::ClosedNeedsChannel, "owner_lock *")));
}

TEST(Timeout, NeedsAnArithmeticValue) {
  Outcome r =
      analyseSource(inMain("owner_lock l; duration_t d = 5;", "waituntil (timeout(10`ms)) {}\n"
                                                              "waituntil (timeout(d)) {}\n"
                                                              "waituntil (timeout(1.5)) {}\n"
                                                              "waituntil (timeout(&l)) {}\n"
                                                              "waituntil (timeout(l)) {}"));
  EXPECT_FALSE(r.ok);
  for (unsigned s = 0; s < 3; s++) {
    EXPECT_EQ(r.at(s).kind, ClauseFacts::Timeout) << s;
    EXPECT_EQ(r.at(s).traitVar, "wuc_selectable_trait_wuc_timeout_register");
    EXPECT_EQ(r.at(s).registerFn, "wuc_timeout_register");
  }
  EXPECT_EQ(r.at(1).operandType, "duration_t");
  EXPECT_EQ(r.errors, err(7, 20, format(msg::TimeoutNeedsDuration, "owner_lock *")) +
                          err(8, 20, format(msg::TimeoutNeedsDuration, "owner_lock")));
}

TEST(Fd, NeedsAnInteger) {
  Outcome r = analyseSource(inMain("int fd = 3; long l = 4; enum { E = 5 } en = E; char ch = 0;\n"
                                   "struct conn { int fd; } conn; double d = 1; int *p = &fd;",
                                   "waituntil (readable(fd)) {}\n"
                                   "waituntil (writable(l)) {}\n"
                                   "waituntil (readable(en)) {}\n"
                                   "waituntil (writable(ch + conn.fd)) {}\n"
                                   "waituntil (readable(d)) {}\n"
                                   "waituntil (writable(p)) {}\n"
                                   "waituntil (readable(conn)) {}"));
  EXPECT_FALSE(r.ok);
  for (unsigned s = 0; s < 4; s++) {
    EXPECT_EQ(r.at(s).kind, s % 2 == 0 ? ClauseFacts::Readable : ClauseFacts::Writable) << s;
    EXPECT_EQ(r.at(s).traitVar, "wuc_selectable_trait_wuc_fd_register");
    EXPECT_EQ(r.at(s).registerFn, "wuc_fd_register");
    EXPECT_EQ(r.at(s).unregisterFn, "wuc_fd_unregister");
    EXPECT_EQ(r.at(s).onSelectedFn, "wuc_fd_on_selected");
  }
  EXPECT_EQ(r.at(1).operandType, "long");
  EXPECT_EQ(r.at(4).kind, ClauseFacts::Invalid);
  EXPECT_EQ(r.errors, err(9, 21, format(msg::FdNeedsInteger, "readable", "double")) +
                          err(10, 21, format(msg::FdNeedsInteger, "writable", "int *")) +
                          err(11, 21, format(msg::FdNeedsInteger, "readable", "struct conn")));
}

// ---- resources ----------------------------------------------------------------

TEST(Resource, BuiltIns) {
  Outcome r = analyseSource(inMain("future(int) fut; owner_lock l; semaphore s; latch e;\n"
                                   "owner_lock *pl; semaphore *ps; latch *pe; future(int) *pf;",
                                   "waituntil (fut) {}\n"
                                   "waituntil (l) {}\n"
                                   "waituntil (s) {}\n"
                                   "waituntil (e) {}\n"
                                   "waituntil (pf) {}\n"
                                   "waituntil (pl) {}\n"
                                   "waituntil (ps) {}\n"
                                   "waituntil (pe) {}\n"));
  ASSERT_TRUE(r.ok) << r.errors;
  const char *traits[] = {"wuc_future_int", "wuc_owner_lock", "wuc_semaphore", "wuc_latch"};
  for (unsigned s = 0; s < 8; s++) {
    const ClauseFacts &f = r.at(s);
    EXPECT_EQ(f.kind, ClauseFacts::Resource) << s;
    EXPECT_EQ(f.resourceIsPointer, s >= 4) << s;
    EXPECT_TRUE(f.memberPath.empty()) << s;
    EXPECT_EQ(f.traitVar, std::string("wuc_selectable_trait_") + traits[s % 4] + "_register") << s;
    EXPECT_EQ(f.registerFn, std::string(traits[s % 4]) + "_register") << s;
    EXPECT_EQ(f.unregisterFn, std::string(traits[s % 4]) + "_unregister") << s;
    EXPECT_EQ(f.onSelectedFn, std::string(traits[s % 4]) + "_on_selected") << s;
  }
  EXPECT_EQ(r.at(0).operandType, "future(int)");
  EXPECT_EQ(r.at(4).operandType, "future(int) *");
  EXPECT_EQ(r.at(5).operandType, "owner_lock *");
}

TEST(Resource, AnonymousFutureThroughItsCore) {
  Outcome r = analyseSource(inMain("WUC_FUTURE(int) f;", "waituntil (f) {}\nwaituntil (&f) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).memberPath, std::vector<std::string>{"core"});
  EXPECT_EQ(r.at(0).traitVar, "wuc_selectable_trait_wuc_future_register");
  EXPECT_TRUE(r.at(1).resourceIsPointer);
  EXPECT_EQ(r.at(1).memberPath, std::vector<std::string>{"core"});
}

const char *kGate =
    "struct gate { int open; };\n"
    "bool gate_register(struct gate *g, wuc_select_node *n);\n"
    "bool gate_unregister(struct gate *g, wuc_select_node *n);\n"
    "bool gate_on_selected(struct gate *g, wuc_select_node *n);\n"
    "WUC_SELECTABLE(struct gate, gate_register, gate_unregister, gate_on_selected);\n";

TEST(Resource, UserDefinedType) {
  Outcome r = analyseSource(inMain(kGate, "struct gate g; struct gate *pg = &g;\n"
                                          "waituntil (g) {} and waituntil (pg) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0, 0).kind, ClauseFacts::Resource);
  EXPECT_EQ(r.at(0, 0).traitVar, "wuc_selectable_trait_gate_register");
  EXPECT_EQ(r.at(0, 0).registerFn, "gate_register");
  EXPECT_EQ(r.at(0, 0).unregisterFn, "gate_unregister");
  EXPECT_EQ(r.at(0, 0).onSelectedFn, "gate_on_selected");
  EXPECT_EQ(r.at(0, 0).operandType, "struct gate");
  EXPECT_TRUE(r.at(0, 1).resourceIsPointer);
  EXPECT_EQ(r.at(0, 1).operandType, "struct gate *");
}

TEST(Resource, TraitWithoutPlainNames) {
  Outcome r =
      analyseSource("#include <wuc.h>\n"
                    "struct gate { int open; };\n"
                    "bool gate_register(struct gate *g, wuc_select_node *n);\n"
                    "bool gate_unregister(struct gate *g, wuc_select_node *n);\n"
                    "bool gate_on_selected(struct gate *g, wuc_select_node *n);\n"
                    "__attribute__((annotate(\"wuc_selectable\"))) static const struct {\n"
                    "  bool (*__wuc_register_select)(struct gate *, wuc_select_node *);\n"
                    "  bool (*__wuc_unregister_select)(struct gate *, wuc_select_node *);\n"
                    "  bool (*__wuc_on_selected)(struct gate *, wuc_select_node *);\n"
                    "} my_trait = {1 ? gate_register : 0, gate_unregister, gate_on_selected};\n"
                    "void f(struct gate *g) { waituntil (g) {} }\n");
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Resource);
  EXPECT_EQ(r.at(0).traitVar, "my_trait");
  EXPECT_EQ(r.at(0).registerFn, "");
  EXPECT_EQ(r.at(0).unregisterFn, "");
}

TEST(Resource, FirstMemberRule) {
  Outcome r = analyseSource(
      inMain(std::string(kGate) + "struct guarded { owner_lock lock; int data; };\n"
                                  "struct outer { struct guarded g; int more; };\n"
                                  "struct gated { struct gate gate; };\n"
                                  "struct anon { struct { semaphore sem; }; int x; };\n"
                                  "struct second { int x; owner_lock lock; };",
             "struct guarded gd; struct outer o; struct gated gt; struct anon an;\n"
             "struct outer *po = &o; struct second sc;\n"
             "waituntil (gd) {}\n"
             "waituntil (o) {}\n"
             "waituntil (po) {}\n"
             "waituntil (gt) {}\n"
             "waituntil (an) {}\n"
             "waituntil (sc) {}"));
  EXPECT_FALSE(r.ok);
  using Path = std::vector<std::string>;
  EXPECT_EQ(r.at(0).memberPath, (Path{"lock"}));
  EXPECT_EQ(r.at(0).traitVar, "wuc_selectable_trait_wuc_owner_lock_register");
  EXPECT_EQ(r.at(1).memberPath, (Path{"g", "lock"}));
  EXPECT_EQ(r.at(2).memberPath, (Path{"g", "lock"}));
  EXPECT_TRUE(r.at(2).resourceIsPointer);
  EXPECT_EQ(r.at(3).memberPath, (Path{"gate"}));
  EXPECT_EQ(r.at(3).registerFn, "gate_register");
  EXPECT_EQ(r.at(4).memberPath, (Path{"sem"})); // anonymous member: its fields are the outer's
  EXPECT_EQ(r.errors, err(20, 12, format(msg::NotSelectable, "struct second")));
}

TEST(Resource, NotSelectable) {
  Outcome r = analyseSource(inMain("struct s { int a; } sv; int x; int *px;",
                                   "waituntil (x) {}\nwaituntil (sv) {}\nwaituntil (px) {}\n"
                                   "waituntil ( x + 1 ) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(4, 12, format(msg::NotSelectable, "int")) +
                          err(5, 12, format(msg::NotSelectable, "struct s")) +
                          err(6, 12, format(msg::NotSelectable, "int")) + // the pointee
                          err(7, 13, format(msg::NotSelectable, "int")));
}

TEST(Resource, RvalueOperand) {
  Outcome r = analyseSource(inMain("owner_lock make(void); owner_lock *where(void);",
                                   "waituntil (make()) {}\nwaituntil (where()) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(4, 12, format(msg::OperandNotLvalue, "owner_lock")));
  EXPECT_EQ(r.at(1).kind, ClauseFacts::Resource);
}

TEST(Resource, ConstResource) {
  Outcome r = analyseSource(inMain("const owner_lock *cl;", "waituntil (cl) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(4, 12, format(msg::ResourceConst, "const owner_lock *")));
}

TEST(Resource, TraitDeclaredAfterTheStatement) {
  Outcome r = analyseSource("#include <wuc.h>\n"
                            "struct gate { int open; };\n"
                            "void f(struct gate *g) { waituntil (g) {} }\n"
                            "bool gate_register(struct gate *g, wuc_select_node *n);\n"
                            "bool gate_unregister(struct gate *g, wuc_select_node *n);\n"
                            "bool gate_on_selected(struct gate *g, wuc_select_node *n);\n"
                            "WUC_SELECTABLE(struct gate, gate_register, gate_unregister, "
                            "gate_on_selected);\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(3, 37, format(msg::NotSelectableYet, "struct gate")));
}

TEST(Resource, IncompleteTypeWithATrait) {
  Outcome r = analyseSource("#include <wuc.h>\n"
                            "struct gate;\n"
                            "bool gate_register(struct gate *g, wuc_select_node *n);\n"
                            "bool gate_unregister(struct gate *g, wuc_select_node *n);\n"
                            "bool gate_on_selected(struct gate *g, wuc_select_node *n);\n"
                            "WUC_SELECTABLE(struct gate, gate_register, gate_unregister, "
                            "gate_on_selected);\n"
                            "void f(struct gate *g) { waituntil (*g) {} or waituntil (g) {} }\n");
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0, 0).kind, ClauseFacts::Resource);
  EXPECT_FALSE(r.at(0, 0).resourceIsPointer);
  EXPECT_TRUE(r.at(0, 1).resourceIsPointer);
}

// ---- Clang's errors --------------------------------------------------------

TEST(ClangErrors, UndeclaredIdentifierInOperand) {
  Outcome r = analyseSource(inMain("channel(int) ch;", "int x;\nwaituntil (x << chx) {}\n"
                                                       "waituntil (nosuch) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(
      r.errors,
      err(5, 17,
          "in this clause's operand: use of undeclared identifier 'chx'; did you mean 'ch'?") +
          err(6, 12, "in this clause's operand: use of undeclared identifier 'nosuch'"));
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Invalid);
  EXPECT_FALSE(r.at(0).unseen);
}

TEST(ClangErrors, OneErrorPerClause) {
  Outcome r = analyseSource(inMain("", "waituntil (a << b) {} or waituntil (c + d) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(4, 12, "in this clause's operand: use of undeclared identifier 'a'") +
                          err(4, 37, "in this clause's operand: use of undeclared identifier 'c'"));
}

TEST(ClangErrors, LocationAfterAnEditOnTheSameLine) {
  Outcome r = analyseSource(inMain("", "waituntil (timeout(10`ms + nosuch)) {}"));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors,
            err(4, 28, "in this clause's operand: use of undeclared identifier 'nosuch'"));
}

TEST(ClangErrors, ElsewhereAreLeftToTheBackEnd) {
  Outcome r = analyseSource(inMain("channel(int) ch; int broken = undeclared_thing;",
                                   "int x;\n"
                                   "waituntil (x << ch) { int y = also_undeclared; (void)y; }\n"
                                   "or when (nope) waituntil (ch << 1) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0, 0).kind, ClauseFacts::Recv);
  EXPECT_EQ(r.at(0, 1).kind, ClauseFacts::Send);
}

TEST(ClangErrors, InvalidDeclarationUsedInOperand) {
  // The declaration's error is Clang's (the back end reports it); the
  // clause that uses it says nothing more.
  Outcome r = analyseSource(inMain("", "struct nope v;\nwaituntil (v) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Invalid);
  EXPECT_TRUE(r.at(0).unseen); // Clang drops the reference to an invalid declaration
}

TEST(ClangErrors, InactivePreprocessorBranch) {
  Outcome r =
      // (An `#if 0` group is skipped by the frontend itself: docs/language.md,
      // 'Lexical additions'; another inactive branch is read as C.)
      analyseSource(inMain("channel(int) ch;", "int x;\n#ifdef WUC_NEVER_DEFINED\n"
                                               "waituntil (x << nothing) {}\n"
                                               "#endif\nwaituntil (x << ch) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Invalid);
  EXPECT_TRUE(r.at(0).unseen);
  EXPECT_EQ(r.at(1).kind, ClauseFacts::Recv);
}

TEST(ClangErrors, MissingWucHeaderIsReported) {
  SourceFile file("t.wc", "void f(int x) { waituntil (x) {} }\n");
  FrontendResult fe;
  DiagEngine diags(file);
  ASSERT_TRUE(parseSource(file, diags, fe));
  SemaOptions opts;
  opts.wucIncludeDir = "/nonexistent/include";
  opts.compilerArgs = {"-nostdinc"};
  SemaFacts facts;
  EXPECT_FALSE(analyse(file, fe, opts, diags, facts));
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.all()[0].message, format(msg::ProbeFailed, "'wuc/waituntil.h' file not found"));
  EXPECT_TRUE(facts.statements[0][0].unseen);
}

TEST(Probe, WucHeadersGoBeforeTheFirstConstructNotAtTheTop) {
  // docs/language.md, "Names and headers": the probe has the program's own
  // short names first, then the <wuc/...> headers, as the lowering does.
  Outcome r = analyseSource("typedef int duration_t;\nint semaphore;\n"
                            "static double seconds(void) { return 1; }\n"
                            "void f(void) { waituntil (timeout(1`ms)) {} }\n");
  ASSERT_TRUE(r.ok) << r.errors << r.probe;
  EXPECT_EQ(r.probe.find("#include <wuc"), r.probe.find("#include <wuc/waituntil.h>\n#line 4"))
      << r.probe;
  EXPECT_LT(r.probe.find("static double seconds(void)"), r.probe.find("#include <wuc")) << r.probe;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Timeout);
}

TEST(ClangErrors, FatalErrorAtItsLineAfterInsertedTypeDefinitions) {
  // The channel(T) definitions the frontend inserts add lines to the probe;
  // a #line after each keeps the source's numbering for what follows.
  Outcome r = analyseSource("#include <wuc.h>\n"
                            "static channel(int) a;\n"
                            "static channel(long) b;\n"
                            "#include \"no_such_header.h\"\n"
                            "void f(void) { int x; waituntil (x << a) {} }\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, err(4, 10, format(msg::ProbeFailed, "'no_such_header.h' file not found")));
  EXPECT_NE(r.probe.find("#line 3 \"test.wc\"\nstatic struct wuc_channel_long b;"),
            std::string::npos)
      << r.probe;
}

// ---- scopes: nested statements, flags --------------------------------------

TEST(Scope, NestedStatementUsesTheBodysDeclarations) {
  Outcome r = analyseSource(inMain("channel(int) outer; channel(long) *chans[2];",
                                   "int x;\n"
                                   "waituntil (x << outer) {\n"
                                   "  channel(double) inner; double d = x;\n"
                                   "  waituntil (inner << d) {\n"
                                   "    long l;\n"
                                   "    waituntil (l << chans[x]) { (void)l; }\n"
                                   "  }\n"
                                   "} or waituntil (outer << 3) {}"));
  ASSERT_TRUE(r.ok) << r.errors;
  ASSERT_EQ(r.facts.statements.size(), 3u);
  EXPECT_EQ(r.at(0, 0).kind, ClauseFacts::Recv);
  EXPECT_EQ(r.at(0, 1).kind, ClauseFacts::Send);
  EXPECT_EQ(r.at(1, 0).kind, ClauseFacts::Send);
  EXPECT_EQ(r.at(1, 0).elementType, "double");
  EXPECT_EQ(r.at(2, 0).kind, ClauseFacts::Recv);
  EXPECT_TRUE(r.at(2, 0).channelIsPointer);
  EXPECT_TRUE(r.at(2, 0).recvInPlace);
}

TEST(Scope, NestedStatementErrorIsItsOwn) {
  Outcome r = analyseSource(inMain("channel(int) outer;", "int x;\n"
                                                          "waituntil (x << outer) {\n"
                                                          "  waituntil (x << missing) {}\n"
                                                          "} or waituntil (x) {}"));
  EXPECT_FALSE(r.ok);
  // In source order, though the nested statement's facts come after its outer's.
  EXPECT_EQ(r.errors,
            err(6, 19, "in this clause's operand: use of undeclared identifier 'missing'") +
                err(7, 17, format(msg::NotSelectable, "int")));
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Recv);
  EXPECT_EQ(r.at(1).kind, ClauseFacts::Invalid);
}

TEST(Scope, GuardsAndElse) {
  Outcome r =
      analyseSource(inMain("channel(int) ch; owner_lock l;",
                           "int x = 0; int *p = &x;\n"
                           "when (p != 0) waituntil (*p << ch) {} or when (x) waituntil (l) {}\n"
                           "or when (x > 1) else { x++; }"));
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0, 0).kind, ClauseFacts::Recv);
  EXPECT_EQ(r.at(0, 1).kind, ClauseFacts::Resource);
}

TEST(Flags, DefinesAndIncludePathsReachTheProbe) {
  char dir[] = "/tmp/wuc-sema-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string hdr = std::string(dir) + "/gate.h";
  {
    std::ofstream out(hdr);
    out << "#include <wuc.h>\n" << kGate;
  }
  std::string src = "#include <gate.h>\n"
                    "#ifdef GATE_PTR\n"
                    "struct gate *g;\n"
                    "#else\n"
                    "struct gate g;\n"
                    "#endif\n"
                    "void f(void) { waituntil (g) {} }\n";
  Outcome r = analyseSource(src, {"-I", dir, "-DGATE_PTR"});
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_TRUE(r.at(0).resourceIsPointer);
  EXPECT_EQ(r.at(0).registerFn, "gate_register");
  r = analyseSource(src, {std::string("-I") + dir, "-DGATE_PTR", "-UGATE_PTR"});
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_FALSE(r.at(0).resourceIsPointer);
  r = analyseSource(src, {"-DGATE_PTR"});
  EXPECT_FALSE(r.ok); // gate.h not found: a fatal error, and every clause unseen
  EXPECT_EQ(r.errors, err(1, 10, format(msg::ProbeFailed, "'gate.h' file not found")));
  EXPECT_TRUE(r.at(0).unseen);
  unlink(hdr.c_str());
  rmdir(dir);
}

TEST(Flags, QuotedIncludesFromTheSourcesDirectory) {
  char dir[] = "/tmp/wuc-sema-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string hdr = std::string(dir) + "/local.h";
  {
    std::ofstream out(hdr);
    out << "typedef long elem_t;\n";
  }
  Outcome r = analyseSource("#include <wuc.h>\n#include \"local.h\"\n"
                            "channel(elem_t) ch;\n"
                            "void f(void) { long v; waituntil (v << ch) {} }\n",
                            {"-std=c11", "-O2", "-c", "-o", "x.o", "-Wall", "-g"},
                            std::string(dir) + "/prog.wc");
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_TRUE(r.at(0).recvInPlace);
  EXPECT_EQ(r.at(0).elementType, "elem_t");
  unlink(hdr.c_str());
  rmdir(dir);
}

TEST(Flags, FlagsClangRefusesAreDropped) {
  // gcc-only flags, an unknown CPU: a second try with the paths and macros only.
  Outcome r =
      analyseSource(inMain("#if X == 7\nowner_lock l;\n#else\nint l;\n#endif", "waituntil (l) {}"),
                    {"-fanalyzer", "-march=nosuchcpu", "-DX=7", "-Wl,--as-needed", "-lm"});
  ASSERT_TRUE(r.ok) << r.errors;
  EXPECT_EQ(r.at(0).kind, ClauseFacts::Resource);
}

TEST(Flags, StdFlagIsHonoured) {
  // typeof without underscores is a GNU keyword: gone under -std=c11.
  std::string src =
      inMain("channel(int) ch; void *vp = &ch;", "int x;\nwaituntil (x << *(typeof(ch) *)vp) {}");
  Outcome r = analyseSource(src);
  ASSERT_TRUE(r.ok) << r.errors;
  r = analyseSource(src, {"-std=c11"});
  EXPECT_FALSE(r.ok);
}

// ---- the probe ----------------------------------------------------------------

size_t count(const std::string &hay, const std::string &needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) n++;
  return n;
}

TEST(Probe, KeepsEveryBodyOnceAndNamesEveryOperand) {
  Outcome r = analyseSource(
      inMain("channel(int) ch; owner_lock l;",
             "int x = 0;\n"
             "for (;;) {\n"
             "  waituntil (x << ch) { body_one: x++; break; }\n"
             "  or waituntil (l) { if (x) continue; waituntil (ch << x) { x += 2; } }\n"
             "  or when (x) else { goto body_one; }\n"
             "}"));
  ASSERT_TRUE(r.ok) << r.errors << r.probe;
  EXPECT_EQ(count(r.probe, "body_one: x++; break;"), 1u) << r.probe;
  EXPECT_EQ(count(r.probe, "if (x) continue;"), 1u) << r.probe;
  EXPECT_EQ(count(r.probe, "x += 2;"), 1u) << r.probe;
  EXPECT_EQ(count(r.probe, "goto body_one;"), 1u) << r.probe;
  EXPECT_EQ(count(r.probe, "wuc_sema_probe_("), 6u) << r.probe; // declaration + 5 operands
  // Only the header inserted before main (sema/prelude.h) names it.
  EXPECT_EQ(count(r.probe, "waituntil"), 1u) << r.probe;
  EXPECT_EQ(count(r.probe, "#include <wuc/waituntil.h>\n"), 1u) << r.probe;
  // A #line and the column restored before each user piece.
  EXPECT_NE(r.probe.find("#line 6 \"test.wc\"\n             x\n"), std::string::npos) << r.probe;
  EXPECT_NE(r.probe.find("#line 6 \"test.wc\"\n                  ch\n"), std::string::npos)
      << r.probe;
  EXPECT_NE(r.probe.find("struct wuc_channel_int ch"), std::string::npos) << r.probe;
}

// ---- cost --------------------------------------------------------------------------

TEST(Perf, TwoThousandLinesTwoHundredStatements) {
  // 50 functions of 40 lines, each with 4 statements of 4 clauses.
  std::string src = "#include <wuc.h>\n"
                    "channel(int) ci; channel(double) cd; owner_lock lk; semaphore sem;\n";
  for (unsigned fn = 0; fn < 50; fn++) {
    src += "int work" + std::to_string(fn) + "(int n) {\n  int x = n; double d = 0;\n";
    for (unsigned s = 0; s < 4; s++) {
      src += "  x += n * 3;\n"
             "  waituntil (x << ci) {\n"
             "    d += x;\n"
             "  } or waituntil (cd << d) {\n"
             "    x--;\n"
             "  } or waituntil (lk) {\n"
             "    x++;\n"
             "  } or waituntil (timeout(5`ms)) {\n"
             "    x = 0;\n"
             "  }\n";
    }
    src += "  return x;\n}\n";
  }
  unsigned lines = unsigned(std::count(src.begin(), src.end(), '\n'));
  SourceFile file("perf.wc", src);
  FrontendResult fe;
  DiagEngine diags(file);
  auto p0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(parseSource(file, diags, fe));
  double parseMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - p0).count();
  ASSERT_EQ(fe.statements.size(), 200u);
  EXPECT_GE(lines, 2000u);
  SemaOptions opts;
  opts.wucIncludeDir = WUC_TEST_STDLIB;
  SemaFacts facts;
  auto t0 = std::chrono::steady_clock::now();
  bool ok = analyse(file, fe, opts, diags, facts);
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(ok);
  for (const auto &stmt : facts.statements) {
    EXPECT_EQ(stmt[0].kind, ClauseFacts::Recv);
    EXPECT_EQ(stmt[1].kind, ClauseFacts::Send);
    EXPECT_EQ(stmt[2].kind, ClauseFacts::Resource);
    EXPECT_EQ(stmt[3].kind, ClauseFacts::Timeout);
  }
  std::printf("%u lines, %zu statements: parseSource %.1f ms, analyse %.1f ms\n", lines,
              fe.statements.size(), parseMs, ms);
  RecordProperty("analyse_ms", int(ms));
  EXPECT_LT(ms, 5000.0); // a hang catcher, not a benchmark
}

// ---- one type per canonical element type (docs/language.md, "Types") -------

TEST(TypeTags, FromCanonicalSpelling) {
  using sema::canonicalTypeTag;
  EXPECT_EQ(canonicalTypeTag(true, "int"), "wuc_channel_int");
  EXPECT_EQ(canonicalTypeTag(true, "unsigned int"), "wuc_channel_unsigned_int");
  EXPECT_EQ(canonicalTypeTag(true, "struct m"), "wuc_channel_struct_m");
  EXPECT_EQ(canonicalTypeTag(false, "unsigned long"), "wuc_future_unsigned_long");
  EXPECT_EQ(canonicalTypeTag(true, "const int"), "wuc_channel_const_int");
  EXPECT_EQ(canonicalTypeTag(true, "char *"), "wuc_channel_char_P");
  EXPECT_EQ(canonicalTypeTag(true, "int (*)(int, ...)"),
            "wuc_channel_int_lp_P_rp_lp_int_comma_ellipsis_rp");
  EXPECT_EQ(canonicalTypeTag(true, "struct pt (*)[4]"), "wuc_channel_struct_pt_lp_P_rp_A4");
  EXPECT_EQ(canonicalTypeTag(true, "_Atomic(int)"), "wuc_channel__Atomic_lp_int_rp");
  // No name that every translation unit shares.
  EXPECT_EQ(canonicalTypeTag(true, "struct (unnamed struct)"), "");
  EXPECT_EQ(canonicalTypeTag(true, "struct (anonymous)"), "");
  // Long: the start, then a hash of the whole.
  std::string longType = "struct " + std::string(200, 'x');
  std::string tag = canonicalTypeTag(true, longType);
  EXPECT_EQ(tag.size(), std::string("wuc_channel_").size() + 120) << tag;
  EXPECT_NE(tag, canonicalTypeTag(true, longType + "y"));
}

TEST(TypeTags, RenameIdentifiersWholeWordsOnly) {
  std::map<std::string, std::string> m = {{"wuc_channel_m_t", "wuc_channel_struct_m"}};
  EXPECT_EQ(sema::renameIdentifiers("struct wuc_channel_m_t *", m),
            "struct wuc_channel_struct_m *");
  EXPECT_EQ(sema::renameIdentifiers("wuc_channel_m_t2 x_wuc_channel_m_t", m),
            "wuc_channel_m_t2 x_wuc_channel_m_t");
}

TEST(TypeTags, EverySpellingOfOneTypeGetsOneTag) {
  Outcome r = analyseSource("#include <stdint.h>\n#include <stddef.h>\n#include <wuc.h>\n"
                            "typedef struct m { int x; } m_t;\n"
                            "typedef struct { int a; } pt_t;\n"
                            "typedef int (*fn_t)(int32_t);\n"
                            "channel(m_t) a;\nchannel(struct m) b;\n"
                            "channel(unsigned) c;\nchannel(unsigned int) d;\n"
                            "channel(int32_t) e;\nchannel(int) f;\n"
                            "channel(channel(m_t) *) g;\n"
                            "future(size_t) h;\n"
                            "channel(pt_t) i;\n"
                            "channel(fn_t) j;\n"
                            "channel(const int) k;\n"
                            "channel(_Bool) l;\n"
                            "void fn(void) {\n  struct loc { int z; };\n"
                            "  channel(struct loc) x;\n  (void)x;\n}\n",
                            {"-std=c2x"});
  ASSERT_TRUE(r.ok) << r.errors;
  const auto &t = r.facts.typeTags;
  auto tagOf = [&](const std::string &spelled) {
    auto it = t.find(spelled);
    return it == t.end() ? std::string("<none>") : it->second;
  };
  EXPECT_EQ(tagOf("wuc_channel_m_t"), "wuc_channel_struct_m");
  EXPECT_EQ(tagOf("wuc_channel_struct_m"), "wuc_channel_struct_m");
  EXPECT_EQ(tagOf("wuc_channel_unsigned"), "wuc_channel_unsigned_int");
  EXPECT_EQ(tagOf("wuc_channel_unsigned_int"), "wuc_channel_unsigned_int");
  EXPECT_EQ(tagOf("wuc_channel_int32_t"), "wuc_channel_int");
  EXPECT_EQ(tagOf("wuc_channel_int"), "wuc_channel_int");
  EXPECT_EQ(tagOf("wuc_channel_struct_wuc_channel_m_t_P"),
            "wuc_channel_struct_wuc_channel_struct_m_P");
  EXPECT_EQ(tagOf("wuc_future_size_t"), "wuc_future_unsigned_long");
  EXPECT_EQ(tagOf("wuc_channel_pt_t"), "wuc_channel_pt_t"); // by its typedef name
  EXPECT_EQ(tagOf("wuc_channel_fn_t"), "wuc_channel_int_lp_P_rp_lp_int_rp");
  EXPECT_EQ(tagOf("wuc_channel_const_int"), "wuc_channel_const_int");
  EXPECT_EQ(tagOf("wuc_channel__Bool"), "wuc_channel__Bool"); // not `bool` under C2x
  EXPECT_EQ(tagOf("wuc_channel_struct_loc"), "<none>");       // local to fn
}

} // namespace
} // namespace wuc
