// lower.cpp — emits the C for each waituntil statement (docs/lowering.md).
//
// One statement becomes one block, indented like the statement's line:
//
//   { /* waituntil statement N at file:line:col: all-or, K clauses */
//     wuc_wu_clause __wucN_clauses[K];               the nodes, in this frame
//     wuc_wu __wucN __attribute__((__cleanup__(...)));  withdraws on any exit
//     /* clause I at file:line:col: when (g) waituntil (x << ch) */
//     ...evaluation, per clause in source order: __wucN_clauseI_recv...
//     ...all-or: the fast path, then the blocking path; or, mixed: the
//        completion predicate (mixed_predicate.cpp) and the step...
//   __wucN_clause0_recv_won: ... { body 0 } ...   each body once, reached
//   __wucN_clause1_latch_won: ... { body 1 } ...  by goto: no loop or
//   __wucN_end:;                                  switch around a body
//   }
//
// Bodies are never inside a generated loop or switch, so break, continue,
// return and goto in them bind to the user's constructs; leaving the block
// runs the cleanup, which withdraws every clause still registered.  Where
// each line is attributed (#line) is CWriter's business (c_writer.h).
//
// The block lives in the program's text, among its variables and after its
// macros: every identifier it declares, and every member it names, is a
// reserved identifier (__wuc...), so no name of the program can shadow or
// rewrite one (docs/lowering.md, "Names").
#include "lower.h"

#include <cctype>
#include <cstring>

#include "c_writer.h"
#include "mixed_predicate.h"
#include "prelude.h"
#include "quote.h"
#include "render.h"
#include "type_definitions.h"

namespace wuc {

namespace {

bool isAllOr(const TreeNode &n) {
  if (n.kind == TreeNode::Leaf) return true;
  if (n.kind == TreeNode::And) return false;
  for (const TreeNode &k : n.kids)
    if (!isAllOr(k)) return false;
  return true;
}

// The statement's indentation: the leading blanks of the line it starts on.
std::string indentationOf(const SourceFile &f, unsigned offset) {
  std::string_view line = f.lineText(f.lineCol(offset).line);
  size_t n = line.find_first_not_of(" \t");
  return std::string(line.substr(0, n == std::string_view::npos ? line.size() : n));
}

// A name for a clause's kind: recv, send, closed, timeout, readable,
// writable, or the resource's trait without its `wuc_` and `_register`
// (latch, owner_lock, future_int, gate...).
std::string kindName(const ClauseFacts &f) {
  switch (f.kind) {
  case ClauseFacts::Recv:
    return "recv";
  case ClauseFacts::Send:
    return "send";
  case ClauseFacts::Closed:
    return "closed";
  case ClauseFacts::Timeout:
    return "timeout";
  case ClauseFacts::Readable:
    return "readable";
  case ClauseFacts::Writable:
    return "writable";
  case ClauseFacts::Resource:
    break;
  case ClauseFacts::Invalid:
    return "resource";
  }
  std::string n = f.registerFn.empty() ? f.traitVar : f.registerFn;
  for (const char *prefix : {"wuc_selectable_trait_", "wuc_"})
    if (n.compare(0, strlen(prefix), prefix) == 0) n.erase(0, strlen(prefix));
  const std::string suffix = "_register";
  if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
    n.resize(n.size() - suffix.size());
  bool identifier = !n.empty();
  for (char c : n) identifier = identifier && (isalnum((unsigned char)c) || c == '_');
  return identifier ? n : "resource";
}

// `cond ? a : b`, or just `a` when cond is the constant 1 (no guard).
std::string ifEnabled(const std::string &cond, const std::string &a, const std::string &b) {
  return cond == "1" ? a : cond + " ? " + a + " : " + b;
}

class StatementLowering {
public:
  StatementLowering(const Renderer &r, const WaitUntil &w, const std::vector<ClauseFacts> &facts,
                    std::string &out)
      : r_(r), w_(w), facts_(facts), out_(out), p_("__wuc" + std::to_string(w.id)),
        c_(r, out, r.file().lineCol(w.range.begin).line, indentationOf(r.file(), w.range.begin)),
        allOr_(isAllOr(w.tree)) {
    for (const Clause &c : w.clauses) {
      names_.push_back(p_ + "_clause" + std::to_string(c.index) + "_" + kindName(facts[c.index]));
      enabled_.push_back("1");
    }
  }

  void emit() {
    unsigned k = unsigned(w_.clauses.size());
    // The blanks before the statement would be a line of their own.
    while (!out_.empty() && (out_.back() == ' ' || out_.back() == '\t')) out_.pop_back();
    // A directive must start a line, also when this statement is the first
    // thing in a body or an expression being rendered on its own.
    if (out_.empty()) out_ += '\n';
    c_.directiveWithFile(w_.range.begin);
    c_.note("{ /* waituntil statement " + std::to_string(w_.id) + " at " +
            whereText(w_.range.begin) + ": " + (allOr_ ? "all-or" : "mixed") + ", " +
            std::to_string(k) + (k == 1 ? " clause" : " clauses") +
            (w_.elseBranch.present ? ", else" : "") + " */");
    c_.indent();
    c_.note("wuc_wu_clause " + p_ + "_clauses[" + std::to_string(k) + "];");
    c_.note("wuc_wu " + p_ +
            " __attribute__((__cleanup__(wuc_wu_exit))); /* withdraws on any exit */");
    c_.code("wuc_wu_init(&" + p_ + ", " + p_ + "_clauses, " + (allOr_ ? "1" : "0") + ");");
    for (const Clause &c : w_.clauses) emitEvaluation(c);
    emitElseGuard();
    if (allOr_)
      emitAllOr();
    else
      emitMixed();
    emitBodies();
    c_.outdent();
    c_.note(p_ + "_end:;");
    c_.code("}");
    c_.after(w_.range.end);
  }

private:
  // ---- names -------------------------------------------------------------
  // __wucN_clauseI_<kind>: the clause's resource or clause object; its other
  // temporaries and labels add a suffix.
  std::string name(unsigned i, const char *suffix = "") const { return names_[i] + suffix; }
  std::string node(unsigned i) const {
    return "&" + p_ + "_clauses[" + std::to_string(i) + "].__wuc_node";
  }
  const ClauseFacts &facts(unsigned i) const { return facts_[i]; }
  std::string where(unsigned offset) const {
    LineCol lc = r_.file().lineCol(offset);
    return r_.file().path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col);
  }
  // `where` for a comment (a file name may hold anything).
  std::string whereText(unsigned offset) const { return commentText(where(offset), 400); }
  // `/* clause I at file:line:col: when (g) waituntil (operand) */`, at the
  // clause's first word.
  std::string clauseComment(const Clause &c) const {
    std::string guard = c.hasGuard ? "when (" + std::string(r_.file().slice(c.guard)) + ") " : "";
    return "/* clause " + std::to_string(c.index) + " at " +
           whereText(c.hasGuard ? c.guardOffset : c.keywordOffset) + ": " +
           commentText(guard + "waituntil (" + std::string(r_.file().slice(c.operand)) + ")") +
           " */";
  }
  std::string text(Range r) const { return c_.text(r); }

  static std::string regFn(const ClauseFacts &f) {
    return f.registerFn.empty() ? f.traitVar + ".__wuc_register_select" : f.registerFn;
  }
  static std::string unregFn(const ClauseFacts &f) {
    return f.unregisterFn.empty() ? f.traitVar + ".__wuc_unregister_select" : f.unregisterFn;
  }
  static std::string selFn(const ClauseFacts &f) {
    return f.onSelectedFn.empty() ? f.traitVar + ".__wuc_on_selected" : f.onSelectedFn;
  }
  // The type-erased table WUC_SELECTABLE declares beside the trait.
  static std::string ops(const ClauseFacts &f) {
    static const std::string prefix = "wuc_selectable_trait_";
    std::string suffix = f.traitVar.compare(0, prefix.size(), prefix) == 0
                             ? f.traitVar.substr(prefix.size())
                             : f.traitVar;
    return "&wuc_selectable_ops_" + suffix;
  }
  // The resource argument of the trait's functions for clause i.
  std::string resArg(unsigned i) const {
    return (facts(i).kind == ClauseFacts::Resource || facts(i).kind == ClauseFacts::Invalid ? ""
                                                                                            : "&") +
           name(i);
  }
  std::string site(const Clause &c) const { return cStringLiteral(where(c.keywordOffset)); }

  // ---- evaluation (docs/language.md, 'Semantics', rule 1) ----------------
  // Per clause in source order: its guard; if true, its resource expression
  // (with the value of a send and the deadline of a timeout).  A clause
  // without a guard has no guard variable: its conditions fold away.
  void emitEvaluation(const Clause &c) {
    unsigned i = c.index;
    const ClauseFacts &f = facts(i);
    std::string r = name(i), ch = name(i, "_chan");
    c_.note("");
    c_.note(clauseComment(c));
    if (c.hasGuard) {
      enabled_[i] = name(i, "_enabled");
      c_.user(c.guard, "_Bool " + enabled_[i] + " = (" + text(c.guard) + ") != 0;");
    }
    const std::string &en = enabled_[i];
    // The channel operand's address (or the pointer itself).
    auto channelAt = [&](Range operand) {
      return f.channelIsPointer ? "(" + text(operand) + ")" : "&(" + text(operand) + ")";
    };
    // The element type without qualifiers (a comma expression drops them),
    // for temporaries that are assigned.
    std::string elemType = "__typeof__(((void)0, " + ch + "->__wuc_elem[0]))";
    std::string data = "0";
    switch (f.kind) {
    case ClauseFacts::Recv: {
      std::string target = name(i, "_target");
      if (!f.recvTargetIsRegister)
        c_.user(c.lhs, "__extension__ __auto_type " + target + " = " +
                           ifEnabled(en, "&(" + text(c.lhs) + ")", "0") + ";");
      c_.user(c.rhs, "__extension__ __auto_type " + ch + " = " +
                         ifEnabled(en, channelAt(c.rhs), "0") + ";");
      if (f.recvInPlace) {
        data = target;
      } else {
        std::string elem = name(i, "_elem");
        c_.note(elemType + " " + elem + "; /* received, then converted */");
        c_.code("__builtin_memset(&" + elem + ", 0, sizeof " + elem + ");");
        data = "&" + elem;
      }
      c_.code("wuc_chan_recv_clause " + r + " = " +
              ifEnabled(en, "WUC_CHAN_RECV_CLAUSE(" + ch + ")", "(wuc_chan_recv_clause){0}") + ";");
      break;
    }
    case ClauseFacts::Send: {
      std::string value = name(i, "_value");
      c_.user(c.lhs, "__extension__ __auto_type " + ch + " = " +
                         ifEnabled(en, channelAt(c.lhs), "0") + ";");
      if (en == "1") {
        c_.user(c.rhs, elemType + " " + value + " = (" + text(c.rhs) + ");");
      } else {
        c_.note(elemType + " " + value + ";");
        c_.code("__builtin_memset(&" + value + ", 0, sizeof " + value + ");");
        c_.user(c.rhs, "if (" + en + ") " + value + " = (" + text(c.rhs) + ");");
      }
      c_.code("wuc_chan_send_clause " + r + " = " +
              ifEnabled(en, "WUC_CHAN_SEND_CLAUSE(" + ch + ")", "(wuc_chan_send_clause){0}") + ";");
      data = "&" + value;
      break;
    }
    case ClauseFacts::Closed:
      c_.user(c.arg, "__extension__ __auto_type " + ch + " = " +
                         ifEnabled(en, channelAt(c.arg), "0") + ";");
      c_.code("wuc_chan_closed_clause " + r + " = " +
              ifEnabled(en, "WUC_CHAN_CLOSED_CLAUSE(" + ch + ")", "(wuc_chan_closed_clause){0}") +
              ";");
      break;
    case ClauseFacts::Timeout:
      c_.user(c.arg,
              "wuc_timeout " + r + " = " +
                  ifEnabled(en, "wuc_timeout_make(" + text(c.arg) + ")", "(wuc_timeout){0}") + ";");
      break;
    case ClauseFacts::Readable:
    case ClauseFacts::Writable: {
      // fd once, when the clause is enabled (<wuc/fd.h>).
      const char *make =
          f.kind == ClauseFacts::Readable ? "wuc_readable_make(" : "wuc_writable_make(";
      c_.user(c.arg, "wuc_fd_clause " + r + " = " +
                         ifEnabled(en, make + text(c.arg) + ")", "(wuc_fd_clause){0}") + ";");
      break;
    }
    case ClauseFacts::Resource:
    case ClauseFacts::Invalid: {
      std::string path;
      for (const std::string &m : f.memberPath)
        path += (path.empty() && f.resourceIsPointer ? "->" : ".") + m;
      std::string operand = text(c.operand);
      std::string addr = f.resourceIsPointer
                             ? (path.empty() ? "(" + operand + ")" : "&(" + operand + ")" + path)
                             : "&(" + operand + ")" + path;
      c_.user(c.operand, "__extension__ __auto_type " + r + " = " + ifEnabled(en, addr, "0") + ";");
      break;
    }
    }
    c_.code("wuc_wu_clause_init(&" + p_ + ", " + std::to_string(i) + ", " + en + ", (void *)" +
            resArg(i) + ", " + ops(f) + ", (void *)" + data + ", " + site(c) + ");");
    // Mixed statements can be left by a jump while this clause completes:
    // the cleanup then converts the element into the target itself.
    if (!allOr_ && f.kind == ClauseFacts::Recv && !f.recvInPlace && !f.recvTargetIsRegister)
      c_.code("wuc_wu_clause_converts(&" + p_ + ", " + std::to_string(i) + ", (void *)" +
              name(i, "_target") + ", WUC_WU_KIND(*" + name(i, "_target") + "), WUC_WU_KIND(" + ch +
              "->__wuc_elem[0]));");
  }

  void emitElseGuard() {
    const ElseBranch &e = w_.elseBranch;
    if (!e.present || !e.hasGuard) return;
    elseEnabled_ = p_ + "_else_enabled";
    c_.note("");
    c_.note("/* the else guard, evaluated last, at " + whereText(e.guardOffset) + " */");
    c_.user(e.guard, "_Bool " + elseEnabled_ + " = (" + text(e.guard) + ") != 0;");
  }

  // ---- all-or statements --------------------------------------------------
  void emitAllOr() {
    c_.note("");
    c_.note("/* fast path: try each clause in source order without registering */");
    std::string anyEnabled;
    for (const Clause &c : w_.clauses) {
      unsigned i = c.index;
      const std::string &en = enabled_[i];
      c_.code("if (" + (en == "1" ? "" : en + " && ") + regFn(facts(i)) + "(" + resArg(i) +
              ", wuc_wu_try_node(&" + p_ + ", " + std::to_string(i) + "))) goto " +
              name(i, "_tried") + ";");
      anyEnabled = en == "1" || anyEnabled == "1" ? "1"
                   : anyEnabled.empty()           ? en
                                                  : anyEnabled + " || " + en;
    }
    if (anyEnabled != "1")
      c_.code("if (!(" + anyEnabled + ")) goto " + p_ +
              "_end; /* every clause removed by its guard */");
    if (w_.elseBranch.present) {
      c_.code(elseEnabled_ == "1" ? "goto " + p_ + "_else;"
                                  : "if (" + elseEnabled_ + ") goto " + p_ + "_else;");
      if (elseEnabled_ == "1") return; // nothing blocks
    }
    blocks_ = true;
    c_.note("");
    c_.note("/* block: register every enabled clause, park until one completes */");
    c_.code("switch (wuc_wu_block_all_or(&" + p_ + ")) {");
    for (const Clause &c : w_.clauses)
      c_.code("case " + std::to_string(c.index) + ": goto " + name(c.index, "_won") + ";");
    c_.code("default: goto " + p_ + "_end;");
    c_.note("}");
  }

  // ---- mixed statements: the completion predicate ---------------------------
  void emitMixed() {
    std::vector<PredicateLeaf> leaves;
    for (const Clause &c : w_.clauses) {
      std::string cl = p_ + "_clauses[" + std::to_string(c.index) + "]";
      leaves.push_back({enabled_[c.index], cl + ".__wuc_ran", cl + ".__wuc_needed"});
    }
    MixedPredicate pred = mixedPredicate(w_.tree, leaves, p_);
    blocks_ = true;
    c_.note("");
    c_.note("/* run bodies until the and/or tree is satisfied */");
    for (const std::string &l : pred.presence) c_.code(l);
    c_.code("wuc_wu_mixed_begin(&" + p_ + ", " + (w_.elseBranch.present ? elseEnabled_ : "0") +
            ");");
    c_.note("int " + p_ + "_next;");
    c_.outdent();
    c_.note(p_ + "_step:;");
    c_.indent();
    c_.note("{");
    c_.indent();
    c_.note("/* completion predicate: which clauses are still needed */");
    for (const std::string &l : pred.step) c_.code(l);
    c_.code(p_ + "_next = wuc_wu_mixed_step(&" + p_ + ", " + pred.complete + ");");
    c_.outdent();
    c_.note("}");
    c_.code("switch (" + p_ + "_next) {");
    c_.code("case WUC_WU_RECOMPUTE: goto " + p_ + "_step;");
    if (w_.elseBranch.present) c_.code("case WUC_WU_ELSE: goto " + p_ + "_else;");
    for (const Clause &c : w_.clauses)
      c_.code("case " + std::to_string(c.index) + ": goto " + name(c.index, "_won") + ";");
    c_.code("default: goto " + p_ + "_end;");
    c_.note("}");
  }

  // ---- bodies ------------------------------------------------------------
  void emitBodies() {
    for (const Clause &c : w_.clauses) {
      unsigned i = c.index;
      const ClauseFacts &f = facts(i);
      c_.note("");
      c_.note(clauseComment(c));
      c_.outdent();
      if (allOr_) {
        c_.note(name(i, "_tried") + ": /* its try on the fast path completed */");
        c_.indent();
        c_.code("wuc_wu_won_try(&" + p_ + ", " + std::to_string(i) + ");");
        c_.outdent();
      }
      if (blocks_) c_.note(name(i, "_won") + ":");
      c_.indent();
      if (f.kind == ClauseFacts::Recv && f.recvTargetIsRegister)
        c_.user(c.lhs, text(c.lhs) + " = " + name(i, "_elem") + "; /* the element, converted */");
      else if (f.kind == ClauseFacts::Recv && !f.recvInPlace)
        c_.code("*" + name(i, "_target") + " = " + name(i, "_elem") +
                "; /* the element, converted */");
      if (allOr_) {
        c_.code("if (" + selFn(f) + "(" + resArg(i) + ", " + node(i) + ")) {");
        c_.indent();
        c_.body(c.body);
        c_.outdent();
        c_.note("}");
        c_.code("wuc_wu_end_winner(&" + p_ + ", " + std::to_string(i) + ");");
        c_.code("(void)" + unregFn(f) + "(" + resArg(i) + ", " + node(i) + ");");
        c_.code("goto " + p_ + "_end;");
      } else {
        c_.note("{");
        c_.body(c.body);
        c_.note("}");
        c_.code("wuc_wu_mixed_ran(&" + p_ + ", " + std::to_string(i) + ");");
        c_.code("goto " + p_ + "_step;");
      }
    }
    if (w_.elseBranch.present) {
      c_.note("");
      c_.outdent();
      c_.note(p_ + "_else: /* the else at " + whereText(w_.elseBranch.keywordOffset) + " */");
      c_.indent();
      c_.note("{");
      c_.body(w_.elseBranch.body);
      c_.note("}");
      c_.code("goto " + p_ + "_end;");
    }
  }

  const Renderer &r_;
  const WaitUntil &w_;
  const std::vector<ClauseFacts> &facts_;
  std::string &out_;
  std::string p_;
  CWriter c_;
  bool allOr_;
  std::vector<std::string> names_;   // per clause: __wucN_clauseI_<kind>
  std::vector<std::string> enabled_; // per clause: its guard variable, or "1"
  std::string elseEnabled_ = "1";
  bool blocks_ = false; // a switch reaches the bodies' _won labels
};

} // namespace

std::string lowerFile(const SourceFile &file, const FrontendResult &fe, const SemaFacts &facts) {
  // Type definitions inserted before a declaration keep the lines after
  // them where they were.
  FrontendResult adjusted = fe;
  insertPrelude(dialectPrelude(file, fe), adjusted.edits);
  Renderer plain(file, fe, nullptr);
  lowerTypeDefinitions(file, plain, facts.typeTags, adjusted.edits);
  for (Edit &e : adjusted.edits) {
    if (e.kind != Edit::TypeDefinition) continue;
    std::string text = "\n" + e.text;
    plain.lineDirective(e.range.begin, text);
    text.append(file.lineCol(e.range.begin).col - 1, ' ');
    e.text = text;
  }
  std::string out = "/* Generated by wucc from " + commentText(file.path(), 400) +
                    "; edit the source, not this file. */\n";
  Renderer renderer(file, adjusted, [&](const WaitUntil &w, std::string &o) {
    StatementLowering(renderer, w, facts.statements.at(w.id), o).emit();
  });
  renderer.lineDirective(0, out);
  renderer.renderFile(out);
  return out;
}

} // namespace wuc
