// lower.cpp — emits the C for each waituntil statement (docs/lowering.md).
//
// One statement becomes one block, indented like the statement's line:
//
//   { /* waituntil statement N at file:line:col: all-or, K clauses */
//     struct {                                       the statement's state:
//       wuc_wu __wuc_wu;                             one local for a debugger
//       wuc_wu_clause __wuc_clauses[K];              the nodes, in this frame
//       ...one member per temporary: __wuc_clauseI_recv...
//     } __wucN __attribute__((__cleanup__(...)));    withdraws on any exit
//     /* clause I at file:line:col: when (g) waituntil (x << ch) */
//     ...evaluation, per clause in source order: __wucN.__wuc_clauseI_recv = ...
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

bool isAllOr(const TreeNode &n, const WaitUntil &w) {
  if (n.kind == TreeNode::Leaf) return !w.clauses[n.clause].familyAnd;
  if (n.kind == TreeNode::And) return false;
  for (const TreeNode &k : n.kids)
    if (!isAllOr(k, w)) return false;
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
        wu_(p_ + ".__wuc_wu"), f_(p_ + "_values"), j_(f_ + ".__wuc_j"),
        c_(r, out, r.file().lineCol(w.range.begin).line, indentationOf(r.file(), w.range.begin)),
        allOr_(isAllOr(w.tree, w)),
        lastLine_(
            r.file().lineCol(w.range.end > w.range.begin ? w.range.end - 1 : w.range.begin).line) {
    for (const Clause &c : w.clauses) {
      labels_.push_back(p_ + "_clause" + std::to_string(c.index) + "_" + kindName(facts[c.index]));
      names_.push_back(p_ + ".__wuc_clause" + std::to_string(c.index) + "_" +
                       kindName(facts[c.index]));
      enabled_.push_back("1");
      data_.push_back("0");
      families_ += c.family;
    }
    // The early try (docs/select.md, "The early try"): an all-or statement
    // without families and not [[wuc::fair]] tries its leading channel
    // receives and sends before it is set up.
    if (allOr_ && !families_ && !w.fair)
      while (earlyCount_ < w.clauses.size() && (facts[earlyCount_].kind == ClauseFacts::Recv ||
                                                facts[earlyCount_].kind == ClauseFacts::Send))
        earlyCount_++;
    early_ = earlyCount_ > 0;
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
            (w_.elseBranch.present ? ", else" : "") + (w_.fair ? ", fair" : "") +
            (families_
                 ? ", " + std::to_string(families_) + (families_ == 1 ? " family" : " families")
                 : "") +
            " */");
    c_.indent();
    // With families, the clause array starts in the frame with room for
    // every written clause and WUC_WU_FAMILY_FRAME elements per family, and
    // moves to the heap past it (docs/language.md, "Clause families").
    std::string capacity = std::to_string(k + 7 * families_);
    // The statement's state is one struct, declared here once every member
    // is known (stateDeclaration), so a debugger shows one variable.
    size_t splice = out_.size();
    member("wuc_wu_clause", p_ + ".__wuc_clauses",
           "[" + (families_ ? capacity : std::to_string(k)) + "]");
    c_.forget();
    if (early_) {
      // Only what the cleanup reads: the statement starts in its early try.
      // One block holds the evaluation's locals up to the paths (they are
      // needed by the set-up after the early try), none of the bodies.
      c_.code("wuc_wu_begin(&" + wu_ + ", " + p_ + ".__wuc_clauses);");
      c_.note("{ /* the clauses' evaluation, the early try, the set-up and the paths */");
      c_.indent();
    } else {
      c_.code("wuc_wu_init(&" + wu_ + ", " + p_ + ".__wuc_clauses, " + (allOr_ ? "1" : "0") + ");");
    }
    if (families_) {
      c_.code("wuc_wu_storage_init(&" + p_ + ".__wuc_storage, " + capacity + ", " +
              cStringLiteral(where(w_.range.begin)) + ");");
      member("unsigned", j_); /* an element of a family */
    }
    for (const Clause &c : w_.clauses) {
      if (c.family) {
        emitFamilyEvaluation(c);
        continue;
      }
      emitEvaluation(c);
    }
    emitElseGuard();
    // The paths and each body's prologue continue the last line evaluated;
    // each body's epilogue and the block's end (its cleanup) are the
    // statement's last line: `next` never returns to its first line.
    dispatchLine_ = c_.codeLine();
    if (early_) emitEarlyTry();
    if (allOr_ && families_)
      emitAllOrFamilies();
    else if (allOr_)
      emitAllOr();
    else
      emitMixed();
    if (early_) {
      c_.outdent();
      c_.note("}");
    }
    emitBodies();
    c_.outdent();
    c_.codeLine(lastLine_);
    c_.note(p_ + "_end:;");
    c_.code("}");
    out_.insert(splice, stateDeclaration());
    c_.after(w_.range.end);
  }

private:
  // ---- names -------------------------------------------------------------
  // __wucN_clauseI_<kind>: the clause's resource or clause object; its other
  // temporaries and labels add a suffix.
  // With families, the families' counters and array pointers and the
  // clauses' places are members of __wucN_values instead (stateDeclaration).
  std::string name(unsigned i, const char *suffix = "") const {
    if (families_ && (w_.clauses[i].family || strcmp(suffix, "_at") == 0))
      return f_ + names_[i].substr(p_.size()) + suffix;
    return names_[i] + suffix;
  }
  // Clause i's labels: __wucN_clauseI_<kind>_won...
  std::string label(unsigned i, const char *suffix) const { return labels_[i] + suffix; }

  // ---- the state struct --------------------------------------------------
  // `ref` (__wucN.__wuc_...) becomes a member of the statement's struct, of
  // `type` (`dims`: an array's), attributed to `line` (0: no directive; a
  // type naming the user's text is attributed to that text's line, for the
  // back end's messages).
  void member(const std::string &type, const std::string &ref, const std::string &dims = "",
              unsigned line = 0) {
    bool star = ref[0] == '*';
    bool family = ref.compare(star, f_.size() + 1, f_ + ".") == 0;
    size_t skip = (family ? f_.size() : p_.size()) + 1 + star;
    std::string m = (star ? "*" : "") + ref.substr(skip);
    (family ? familyMembers_ : members_).push_back({type + " " + m + dims + ";", line});
  }
  // The struct, for the top of the block: the wuc_wu first (and the
  // storage second) for the cleanup, which gcc attributes to the variable's
  // line and clang to the block's closing brace: both the statement's last
  // line.  -Wpadded would warn about padding between the user's types.
  std::string stateDeclaration() const {
    std::string in = indentationOf(r_.file(), w_.range.begin) + "  ", t;
    for (const auto &d : typedefs_)
      t += "#line " + std::to_string(d.second) + "\n" + in + d.first + "\n";
    t += in +
         "_Pragma(\"GCC diagnostic push\") _Pragma(\"GCC diagnostic ignored \\\"-Wpadded\\\"\")\n";
    t += in + "struct { /* the statement's state */\n";
    t += in + "  wuc_wu __wuc_wu; /* withdraws on any exit: wuc_wu_exit */\n";
    if (families_) t += in + "  wuc_wu_storage __wuc_storage; /* frees heap nodes */\n";
    for (const auto &m : members_) {
      if (m.second) t += "#line " + std::to_string(m.second) + "\n";
      t += in + "  " + m.first + "\n";
    }
    t += "#line " + std::to_string(lastLine_) + "\n";
    t += in + "} " + p_ + " __attribute__((__cleanup__(" +
         (families_ ? "wuc_wu_family_state_exit" : "wuc_wu_state_exit") + ")));\n";
    if (!familyMembers_.empty()) {
      // Scalars whose address is never taken: the back end keeps them in
      // registers (as a member of __wucN, whose address escapes, the
      // element loop's counter is stored to the frame and read back after
      // each call: +65 instructions a statement in bench/family_cost.wc).
      t += in + "struct { /* the families' counters and arrays, the clauses' places */\n";
      for (const auto &m : familyMembers_) t += in + "  " + m.first + "\n";
      t += in + "} " + f_ + ";\n";
    }
    t += in + "_Pragma(\"GCC diagnostic pop\")\n";
    return t;
  }

  std::string node(unsigned i) const {
    if (families_) return "&wuc_wu_clause_at(&" + wu_ + ", " + at(i) + ")->__wuc_node";
    return "&" + p_ + ".__wuc_clauses[" + std::to_string(i) + "].__wuc_node";
  }
  // Clause i's place in the statement's clause array: its index, or with
  // families a run-time value (an element: at + __wucN_j).
  std::string at(unsigned i) const {
    if (!families_) return std::to_string(i);
    if (w_.clauses[i].family) return name(i, "_at") + " + " + j_;
    return name(i, "_at");
  }
  // A family's arrays, element __wucN_j.
  std::string el(unsigned i, const char *suffix = "") const {
    return name(i, suffix) + "[" + j_ + "]";
  }
  const ClauseFacts &facts(unsigned i) const { return facts_[i]; }
  // A receive lands in its target only in an all-or statement, where one
  // clause wins.  In a mixed one several may complete, each by a thread of
  // its own, while this thread runs another clause's body: each lands in a
  // temporary of its own and is copied into the target just before its body
  // (docs/lowering.md), so a body never sees a target change under it.
  bool receivesInPlace(const ClauseFacts &f) const { return f.recvInPlace && allOr_; }
  unsigned lineOf(unsigned offset) const { return r_.file().lineCol(offset).line; }
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
    if (c.family)
      return "/* clause " + std::to_string(c.index) + " at " + whereText(c.keywordOffset) +
             ": a family, " +
             commentText(std::string("waituntil ") + (c.familyAnd ? "and " : "") + "for (" +
                         std::string(r_.file().slice(c.familyInit)) + "; " +
                         std::string(r_.file().slice(c.familyCond)) + "; " +
                         std::string(r_.file().slice(c.familyStep)) + ") " + guard + "(" +
                         std::string(r_.file().slice(c.operand)) + ")") +
             " */";
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
    if (w_.clauses[i].family)
      return (facts(i).kind == ClauseFacts::Resource || facts(i).kind == ClauseFacts::Invalid
                  ? ""
                  : "&") +
             el(i);
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
    // The channel's address (and a receive's target in place) are needed
    // only here: locals of a block of their own, out of scope (and out of
    // `info locals`) by the time a body runs, and never stored in the frame.
    std::string r = name(i), ch = label(i, "_chan");
    c_.note("");
    c_.note(clauseComment(c));
    c_.codeLine(lineOf(c.hasGuard ? c.guardOffset : c.keywordOffset));
    // The type of the user's expression `e` (not evaluated), unqualified.
    auto typeOf = [](const std::string &e) { return "__typeof__(((void)0, " + e + "))"; };
    auto line = [&](Range userText) { return lineOf(userText.begin); };
    if (families_) {
      member("unsigned", name(i, "_at"));
      c_.code(name(i, "_at") + " = wuc_wu_count(&" + wu_ + "); /* its place */");
      c_.code("wuc_wu_reserve(&" + p_ + ".__wuc_storage, &" + wu_ + ", " + name(i, "_at") +
              " + 1);");
    }
    if (c.hasGuard) {
      enabled_[i] = name(i, "_enabled");
      member("_Bool", enabled_[i]);
      c_.user(c.guard, enabled_[i] + " = (" + text(c.guard) + ") != 0;");
    }
    const std::string &en = enabled_[i];
    // A mixed statement names a resource's address only here too (its
    // bodies run without on_selected, its steps reach it through the node).
    const bool localResource =
        !allOr_ && (f.kind == ClauseFacts::Resource || f.kind == ClauseFacts::Invalid);
    std::string res = localResource ? label(i, "") : resArg(i);
    // (In a statement with an early try, one block holds them all.)
    const bool block = !early_ && (f.kind == ClauseFacts::Recv || f.kind == ClauseFacts::Send ||
                                   f.kind == ClauseFacts::Closed || localResource);
    if (block) {
      c_.note("{");
      c_.indent();
    }
    // The channel operand's address (or the pointer itself).
    auto channelAt = [&](Range operand) {
      return f.channelIsPointer ? "(" + text(operand) + ")" : "&(" + text(operand) + ")";
    };
    // The element type without qualifiers (a comma expression drops them),
    // for temporaries that are assigned.
    // (the channel's text, as the member is not declared yet)
    auto elemType = [&](Range operand) {
      return typeOf("(" + channelAt(operand) + ")->__wuc_elem[0]");
    };
    // The channel's address, once.
    auto channel = [&](Range operand) {
      c_.user(operand, "__extension__ __auto_type " + ch + " = " +
                           ifEnabled(en, channelAt(operand), "0") + ";");
    };
    std::string data = "0";
    switch (f.kind) {
    case ClauseFacts::Recv: {
      // (a member when the body's prologue converts into it)
      std::string target = receivesInPlace(f) ? label(i, "_target") : name(i, "_target");
      if (!f.recvTargetIsRegister && receivesInPlace(f)) {
        c_.user(c.lhs, "__extension__ __auto_type " + target + " = " +
                           ifEnabled(en, "&(" + text(c.lhs) + ")", "0") + ";");
      } else if (!f.recvTargetIsRegister) {
        member("__typeof__(&(" + text(c.lhs) + "))", target, "", line(c.lhs));
        c_.user(c.lhs, target + " = " + ifEnabled(en, "&(" + text(c.lhs) + ")", "0") + ";");
      }
      channel(c.rhs);
      if (receivesInPlace(f)) {
        data = target;
      } else {
        std::string elem = name(i, "_elem");
        member(elemType(c.rhs), elem, "", line(c.rhs)); // received, then converted
        c_.code("__builtin_memset(&" + elem + ", 0, sizeof " + elem + ");");
        data = "&" + elem;
      }
      member("wuc_chan_recv_clause", r);
      c_.code(r + " = " +
              ifEnabled(en, "WUC_CHAN_RECV_CLAUSE(" + ch + ")", "(wuc_chan_recv_clause){0}") + ";");
      break;
    }
    case ClauseFacts::Send: {
      std::string value = name(i, "_value");
      channel(c.lhs);
      member(elemType(c.lhs), value, "", line(c.lhs));
      if (en == "1") {
        c_.user(c.rhs, value + " = (" + text(c.rhs) + ");");
      } else {
        c_.code("__builtin_memset(&" + value + ", 0, sizeof " + value + ");");
        c_.user(c.rhs, "if (" + en + ") " + value + " = (" + text(c.rhs) + ");");
      }
      member("wuc_chan_send_clause", r);
      c_.code(r + " = " +
              ifEnabled(en, "WUC_CHAN_SEND_CLAUSE(" + ch + ")", "(wuc_chan_send_clause){0}") + ";");
      data = "&" + value;
      break;
    }
    case ClauseFacts::Closed:
      channel(c.arg);
      member("wuc_chan_closed_clause", r);
      c_.code(r + " = " +
              ifEnabled(en, "WUC_CHAN_CLOSED_CLAUSE(" + ch + ")", "(wuc_chan_closed_clause){0}") +
              ";");
      break;
    case ClauseFacts::Timeout:
      member("wuc_timeout", r);
      c_.user(c.arg,
              r + " = " +
                  ifEnabled(en, "wuc_timeout_make(" + text(c.arg) + ")", "(wuc_timeout){0}") + ";");
      break;
    case ClauseFacts::Readable:
    case ClauseFacts::Writable: {
      // fd once, when the clause is enabled (<wuc/fd.h>).
      const char *make =
          f.kind == ClauseFacts::Readable ? "wuc_readable_make(" : "wuc_writable_make(";
      member("wuc_fd_clause", r);
      c_.user(c.arg,
              r + " = " + ifEnabled(en, make + text(c.arg) + ")", "(wuc_fd_clause){0}") + ";");
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
      if (localResource) {
        c_.user(c.operand,
                "__extension__ __auto_type " + res + " = " + ifEnabled(en, addr, "0") + ";");
      } else {
        member(typeOf(addr), r, "", line(c.operand));
        c_.user(c.operand, r + " = " + ifEnabled(en, addr, "0") + ";");
      }
      break;
    }
    }
    data_[i] = data;
    std::string init = "wuc_wu_clause_init(&" + wu_ + ", " + at(i) + ", " + en + ", (void *)" +
                       res + ", " + ops(f) + ", (void *)" + data + ", " + site(c) + ");";
    if (early_)
      setups_.push_back(init); // after the early try
    else
      c_.code(init);
    // Mixed statements can be left by a jump while this clause completes:
    // the cleanup then converts the element into the target itself.
    if (!allOr_ && f.kind == ClauseFacts::Recv && !receivesInPlace(f) && !f.recvTargetIsRegister)
      c_.code("wuc_wu_clause_converts(&" + wu_ + ", " + at(i) + ", (void *)" + name(i, "_target") +
              ", WUC_WU_KIND(*" + name(i, "_target") + "), WUC_WU_KIND(" + ch +
              "->__wuc_elem[0]));");
    if (block) {
      c_.outdent();
      c_.note("}");
    }
  }

  // ---- clause families (docs/language.md, "Clause families") ------------
  // The family's loop runs once, in index order: each iteration evaluates
  // the element's guard and, if it is true, its resource expression into
  // the family's arrays (in the frame up to WUC_WU_FAMILY_FRAME elements,
  // then on the heap); after it, each element gets its clause in the
  // statement's array, in index order.
  void emitFamilyEvaluation(const Clause &c) {
    unsigned i = c.index;
    const ClauseFacts &f = facts(i);
    std::string r = name(i), n = name(i, "_n"), cap = name(i, "_cap"), at = name(i, "_at");
    std::string st = "&" + p_ + ".__wuc_storage", w = "&" + wu_;
    std::string idx = text(c.indexName);
    std::vector<std::string> arrays;
    c_.note("");
    c_.note(clauseComment(c));
    c_.codeLine(lineOf(c.keywordOffset));
    // The index's type, before the state struct whose arrays use it.
    std::string indexT = label(i, "_index_t");
    typedefs_.push_back(
        {"typedef " + text(c.indexType) + " " + indexT + ";", lineOf(c.indexType.begin)});
    // The type of an expression of the index (not evaluated).
    auto typeOf = [&](const std::string &e) {
      return "__typeof__(__extension__({ " + indexT + " " + idx + "; (void)" + idx + "; " + e +
             "; }))";
    };
    auto array = [&](const std::string &type, const char *suffix) {
      std::string a = name(i, suffix), frame = p_ + a.substr(f_.size()) + "_frame";
      member(type, frame, "[WUC_WU_FAMILY_FRAME]");
      member(type, "*" + a);
      arrays.push_back(a);
    };
    auto channelAt = [&](Range operand) {
      return f.channelIsPointer ? "(" + text(operand) + ")" : "&(" + text(operand) + ")";
    };
    auto elemOf = [&](Range operand) {
      return typeOf("((void)0, (" + channelAt(operand) + ")->__wuc_elem[0])");
    };
    // The arrays: the index, what the body needs besides it, and the
    // clause objects the elements' clauses point to.
    array(indexT, "_index");
    std::string e = name(i) + "[" + n + "]", data = "0";
    const bool converts = f.kind == ClauseFacts::Recv && !receivesInPlace(f);
    switch (f.kind) {
    case ClauseFacts::Recv:
      if (converts) {
        array(typeOf("&(" + text(c.lhs) + ")"), "_target");
        array(elemOf(c.rhs), "_elem");
        data = "&" + name(i, "_elem") + "[" + n + "]";
      } else {
        data = "&(" + text(c.lhs) + ")"; // evaluated once, for this element
      }
      array("wuc_chan_recv_clause", "");
      break;
    case ClauseFacts::Send:
      array(elemOf(c.lhs), "_value");
      array("wuc_chan_send_clause", "");
      data = "&" + name(i, "_value") + "[" + n + "]";
      break;
    case ClauseFacts::Closed:
      array("wuc_chan_closed_clause", "");
      break;
    case ClauseFacts::Timeout:
      array("wuc_timeout", "");
      break;
    case ClauseFacts::Readable:
    case ClauseFacts::Writable:
      array("wuc_fd_clause", "");
      break;
    case ClauseFacts::Resource:
    case ClauseFacts::Invalid:
      array(typeOf(resourceAddress(c)), "");
      break;
    }
    std::string res =
        f.kind == ClauseFacts::Resource || f.kind == ClauseFacts::Invalid ? e : "&" + e;
    member("unsigned", at);
    member("unsigned", n);
    member("unsigned", cap);
    for (const std::string &a : arrays) c_.code(a + " = " + p_ + a.substr(f_.size()) + "_frame;");
    c_.code(at + " = wuc_wu_count(&" + wu_ + "); /* its first element's place */");
    c_.code(n + " = 0;");
    c_.code(cap + " = WUC_WU_FAMILY_FRAME; /* its size */");
    c_.code("wuc_wu_reserve(" + st + ", " + w + ", " + at + " + " + cap + ");");
    c_.user(c.familyInit, "for (" + text(c.familyInit) + "; " + text(c.familyCond) + "; " +
                              text(c.familyStep) + ") {");
    c_.indent();
    if (c.hasGuard)
      c_.user(c.guard, "if (!(" + text(c.guard) + ")) continue; /* the element's guard */");
    c_.code("if (" + n + " == " + cap + ") { /* full: the arrays move to the heap */");
    c_.indent();
    c_.code(cap + " = wuc_wu_next_cap(" + st + ", " + cap + ", " + site(c) + ");");
    c_.code("wuc_wu_set_count(&" + wu_ + ", " + at + " + " + n +
            "); /* the clauses the move copies */");
    c_.code("wuc_wu_reserve(" + st + ", " + w + ", " + at + " + " + cap + ");");
    for (const std::string &a : arrays)
      c_.code(a + " = wuc_wu_grow_family(" + st + ", " + w + ", " + at + ", " + a + ", " + n +
              ", " + cap + ", sizeof *" + a + ");");
    c_.outdent();
    c_.note("}");
    c_.code(name(i, "_index") + "[" + n + "] = " + idx + ";");
    std::string ch = label(i, "_chan"); // a local of the loop's block
    switch (f.kind) {
    case ClauseFacts::Recv:
      if (converts) {
        c_.user(c.lhs, name(i, "_target") + "[" + n + "] = &(" + text(c.lhs) + ");");
        c_.code("__builtin_memset(&" + name(i, "_elem") + "[" + n + "], 0, sizeof *" +
                name(i, "_elem") + ");");
      }
      c_.user(c.rhs, "__extension__ __auto_type " + ch + " = " + channelAt(c.rhs) + ";");
      c_.code(e + " = WUC_CHAN_RECV_CLAUSE(" + ch + ");");
      break;
    case ClauseFacts::Send:
      c_.user(c.lhs, "__extension__ __auto_type " + ch + " = " + channelAt(c.lhs) + ";");
      c_.user(c.rhs, name(i, "_value") + "[" + n + "] = (" + text(c.rhs) + ");");
      c_.code(e + " = WUC_CHAN_SEND_CLAUSE(" + ch + ");");
      break;
    case ClauseFacts::Closed:
      c_.user(c.arg, "__extension__ __auto_type " + ch + " = " + channelAt(c.arg) + ";");
      c_.code(e + " = WUC_CHAN_CLOSED_CLAUSE(" + ch + ");");
      break;
    case ClauseFacts::Timeout:
      c_.user(c.arg, e + " = wuc_timeout_make(" + text(c.arg) + ");");
      break;
    case ClauseFacts::Readable:
    case ClauseFacts::Writable:
      c_.user(c.arg,
              e + " = " +
                  (f.kind == ClauseFacts::Readable ? "wuc_readable_make(" : "wuc_writable_make(") +
                  text(c.arg) + ");");
      break;
    case ClauseFacts::Resource:
    case ClauseFacts::Invalid:
      c_.user(c.operand, e + " = " + resourceAddress(c) + ";");
      break;
    }
    std::string init = "wuc_wu_element_init(wuc_wu_clause_at(&" + wu_ + ", " + at + " + " + n +
                       "), (void *)" + res + ", " + ops(f) + ", (void *)" + data + ", " + site(c) +
                       ");";
    if (f.kind == ClauseFacts::Recv && !converts)
      c_.user(c.lhs, init); // the target's address, evaluated here
    else
      c_.code(init);
    if (converts && !allOr_)
      c_.code("wuc_wu_clause_converts(" + w + ", " + at + " + " + n + ", (void *)" +
              name(i, "_target") + "[" + n + "], WUC_WU_KIND(*" + name(i, "_target") + "[" + n +
              "]), WUC_WU_KIND(" + name(i, "_elem") + "[" + n + "]));");
    c_.code(n + "++;");
    c_.outdent();
    c_.note("}");
    c_.code("wuc_wu_set_count(&" + wu_ + ", " + at + " + " + n + ");");
    c_.code("if (" + cap + " != WUC_WU_FAMILY_FRAME) wuc_wu_family_grew(" + site(c) + ", " + n +
            "); /* where to start next time */");
  }

  // A resource operand's address (the object the trait is declared for).
  std::string resourceAddress(const Clause &c) const {
    const ClauseFacts &f = facts(c.index);
    std::string path;
    for (const std::string &m : f.memberPath)
      path += (path.empty() && f.resourceIsPointer ? "->" : ".") + m;
    std::string operand = text(c.operand);
    return f.resourceIsPointer ? (path.empty() ? "(" + operand + ")" : "&(" + operand + ")" + path)
                               : "&(" + operand + ")" + path;
  }

  // Goes to clause `var`'s label (`suffix`): the clause whose place it is,
  // or the family it falls in (setting __wucN_j).  Falls through if none.
  void emitDispatch(const std::string &var, const char *suffix) {
    for (const Clause &c : w_.clauses) {
      if (c.family)
        c_.code("if (" + var + " - " + name(c.index, "_at") + " < " + name(c.index, "_n") + ") { " +
                j_ + " = " + var + " - " + name(c.index, "_at") + "; goto " +
                label(c.index, suffix) + "; }");
      else
        c_.code("if (" + var + " == " + name(c.index, "_at") + ") goto " + label(c.index, suffix) +
                ";");
    }
  }

  // `acc || en`, folding the constant 1 (an unguarded clause).
  static std::string orEnabled(const std::string &acc, const std::string &en) {
    if (en == "1" || acc == "1") return "1";
    return acc.empty() ? en : acc + " || " + en;
  }

  // After an all-or fast path that found nothing ready: leave when no clause
  // is enabled (`anyEnabled`, their conditions joined), take the else when
  // there is one.  Returns whether the statement can still block.
  bool emitFastPathExits(const std::string &anyEnabled, const char *removed) {
    if (anyEnabled != "1")
      c_.code("if (!(" + anyEnabled + ")) goto " + p_ + "_end; /* " + removed + " */");
    if (w_.elseBranch.present) {
      c_.code(elseEnabled_ == "1" ? "goto " + p_ + "_else;"
                                  : "if (" + elseEnabled_ + ") goto " + p_ + "_else;");
      if (elseEnabled_ == "1") return false; // nothing blocks
    }
    blocks_ = true;
    return true;
  }

  // An all-or statement without an `else` with a readable(fd) clause: its
  // failed try pass is always followed by the registration pass, so the
  // clause's try may fail without a poll(2) when the fd is known empty
  // (docs/io.md, "Park first after a short read"; wuc_select_stmt).
  void emitWaitsAfterTry() {
    if (w_.elseBranch.present) return;
    for (const Clause &c : w_.clauses)
      if (facts(c.index).kind == ClauseFacts::Readable) {
        c_.code(wu_ + ".s.waits_after_try = 1;");
        return;
      }
  }

  // An all-or statement with families: the fast path tries the elements in
  // index order where the family stands (or, fair, every clause and element
  // in a random order); the blocking path is the same runtime call.
  void emitAllOrFamilies() {
    c_.note("");
    emitWaitsAfterTry();
    if (w_.fair) {
      c_.note("/* fast path, fair: try the enabled clauses and elements in a random order (a");
      c_.note("   Fisher-Yates permutation of their places) without registering */");
      c_.note("{");
      c_.indent();
      c_.code("unsigned " + p_ + "_k = (unsigned)wuc_wu_try_fair_storage(&" + wu_ + ", &" + p_ +
              ".__wuc_storage);");
      emitDispatch(p_ + "_k", "_tried");
      c_.outdent();
      c_.note("}");
    } else {
      c_.note("/* fast path: try each clause and element in order without registering */");
    }
    std::string anyEnabled;
    for (const Clause &c : w_.clauses) {
      unsigned i = c.index;
      std::string en = c.family ? name(i, "_n") : enabled_[i];
      if (!w_.fair && c.family) {
        c_.code("for (" + j_ + " = 0; " + j_ + " < " + name(i, "_n") + "; " + j_ + "++)");
        c_.indent();
        c_.code("if (" + regFn(facts(i)) + "(" + resArg(i) + ", wuc_wu_try_node(&" + wu_ + ", " +
                at(i) + "))) goto " + label(i, "_tried") + ";");
        c_.outdent();
      } else if (!w_.fair) {
        c_.code("if (" + (en == "1" ? "" : en + " && ") + regFn(facts(i)) + "(" + resArg(i) +
                ", wuc_wu_try_node(&" + wu_ + ", " + at(i) + "))) goto " + label(i, "_tried") +
                ";");
      }
      anyEnabled = orEnabled(anyEnabled, en);
    }
    if (!emitFastPathExits(anyEnabled, "every clause and element removed")) return;
    c_.note("");
    c_.note("/* block: register every enabled clause and element, park until one completes */");
    c_.note("{");
    c_.indent();
    c_.code("unsigned " + p_ + "_k = wuc_wu_block_all_or(&" + wu_ + ");");
    emitDispatch(p_ + "_k", "_won");
    c_.code("goto " + p_ + "_end;");
    c_.outdent();
    c_.note("}");
  }

  // The early try of the leading channel clauses 0 to earlyCount_ - 1, in
  // source order, once every clause and the else's guard are evaluated: no
  // node, no set-up before it; the first that completes runs its body (its
  // _early label).  The first call starts the statement; if none completes,
  // the last has set it up, its clauses are set up here, and the fast path
  // goes on from clause earlyCount_.
  void emitEarlyTry() {
    const unsigned k = earlyCount_;
    c_.note("");
    if (k == 1)
      c_.note("/* early try: clause 0 before the statement is set up, without a node */");
    else
      c_.note("/* early try: clauses 0 to " + std::to_string(k - 1) +
              ", in source order, before the statement is set up, without nodes */");
    for (unsigned i = 0; i < k; i++) {
      const std::string &en = enabled_[i];
      // The first call starts the statement, the last sets it up if none
      // completed (one clause: both).
      const char *which = k == 1 ? "" : i == 0 ? "_first" : i == k - 1 ? "_last" : "_next";
      if (facts(i).kind == ClauseFacts::Recv)
        c_.code("if (wuc_wu_recv_early" + std::string(which) + "(&" + wu_ + ", &" + name(i) +
                ", (void *)" + data_[i] + ", " + en + ")) {");
      else
        c_.code("if (wuc_wu_send_early" + std::string(which) + "(&" + wu_ + ", &" + name(i) + ", " +
                data_[i] + ", " + en + ", " + site(w_.clauses[i]) + ")) {");
      c_.indent();
      c_.code("wuc_wu_won_early(&" + wu_ + ", " + std::to_string(i) + ");");
      c_.code("goto " + label(i, "_early") + ";");
      c_.outdent();
      c_.note("}");
    }
    c_.note("");
    c_.note("/* set-up: the clauses (the early try set the statement up) */");
    for (const std::string &l : setups_) c_.code(l);
  }

  void emitElseGuard() {
    const ElseBranch &e = w_.elseBranch;
    if (!e.present || !e.hasGuard) return;
    elseEnabled_ = p_ + ".__wuc_else_enabled";
    c_.note("");
    c_.note("/* the else guard, evaluated last, at " + whereText(e.guardOffset) + " */");
    member("_Bool", elseEnabled_);
    c_.user(e.guard, elseEnabled_ + " = (" + text(e.guard) + ") != 0;");
  }

  // ---- all-or statements --------------------------------------------------
  void emitAllOr() {
    c_.note("");
    emitWaitsAfterTry();
    if (w_.fair) {
      // [[wuc::fair]]: the same tries, through the type-erased tables, in a
      // uniformly random order of the enabled clauses (docs/lowering.md).
      std::string k = std::to_string(w_.clauses.size());
      c_.note("/* fast path, fair: try the enabled clauses in a random order (a Fisher-Yates");
      c_.note("   permutation of their indices) without registering */");
      member("unsigned", p_ + ".__wuc_order", "[" + k + "]");
      c_.code("switch (wuc_wu_try_fair(&" + wu_ + ", " + p_ + ".__wuc_order)) {");
      for (const Clause &c : w_.clauses)
        c_.code("case " + std::to_string(c.index) + ": goto " + label(c.index, "_tried") + ";");
      c_.code("default: break; /* none was ready */");
      c_.note("}");
    }
    if (!w_.fair) c_.note("/* fast path: try each clause in source order without registering */");
    std::string anyEnabled;
    for (const Clause &c : w_.clauses) {
      unsigned i = c.index;
      const std::string &en = enabled_[i];
      if (i < earlyCount_)
        c_.code((en == "1" ? "" : "if (" + en + ") ") + "(void)wuc_wu_try_node(&" + wu_ + ", " +
                std::to_string(i) + "); /* tried early: its node only */");
      else if (!w_.fair)
        c_.code("if (" + (en == "1" ? "" : en + " && ") + regFn(facts(i)) + "(" + resArg(i) +
                ", wuc_wu_try_node(&" + wu_ + ", " + std::to_string(i) + "))) goto " +
                label(i, "_tried") + ";");
      anyEnabled = orEnabled(anyEnabled, en);
    }
    if (!emitFastPathExits(anyEnabled, "every clause removed by its guard")) return;
    c_.note("");
    c_.note("/* block: register every enabled clause, park until one completes */");
    c_.code("switch (wuc_wu_block_all_or(&" + wu_ + ")) {");
    for (const Clause &c : w_.clauses)
      c_.code("case " + std::to_string(c.index) + ": goto " + label(c.index, "_won") + ";");
    c_.code("default: goto " + p_ + "_end;");
    c_.note("}");
  }

  // ---- mixed statements: the completion predicate ---------------------------
  void emitMixed() {
    std::vector<PredicateLeaf> leaves;
    std::vector<std::string> familySatisfied;
    for (const Clause &c : w_.clauses) {
      // (with families the place is a run-time value; the leaf reads its flags through a pointer)
      std::string cl = families_ ? "wuc_wu_clause_at(&" + wu_ + ", " + at(c.index) + ")->"
                                 : p_ + ".__wuc_clauses[" + std::to_string(c.index) + "].";
      if (c.family) {
        // A family: present when it has an element; satisfied by one (`or`)
        // or all (`and`) of its elements, computed before each step.
        std::string atN = wu_ + ", " + name(c.index, "_at") + ", " + name(c.index, "_n");
        std::string sat = label(c.index, "_satisfied"); // a local of the step's block
        familySatisfied.push_back("_Bool " + sat + " = wuc_wu_family_satisfied(&" + atN + ", " +
                                  (c.familyAnd ? "1" : "0") + ");");
        PredicateLeaf l{"(" + name(c.index, "_n") + " != 0)", sat, "", "", false};
        l.familyNeed = "wuc_wu_family_need(&" + atN + ", ";
        l.orFamily = !c.familyAnd;
        leaves.push_back(l);
        continue;
      }
      leaves.push_back({enabled_[c.index], cl + "__wuc_ran", cl + "__wuc_needed", "", false});
    }
    MixedPredicate pred = mixedPredicate(w_.tree, leaves, p_);
    blocks_ = true;
    c_.note("");
    c_.note("/* run bodies until the and/or tree is satisfied */");
    // The presence flags (`_Bool __wucN_and0_present = ...;`) are members.
    for (std::string l : pred.presence) {
      size_t eq = l.find(" = ");
      std::string var = l.substr(6, eq - 6), ref = p_ + ".__wuc" + var.substr(p_.size());
      member("_Bool", ref);
      c_.code(ref + l.substr(eq));
      auto rename = [&](std::string &t) {
        for (size_t at = t.find(var); at != std::string::npos; at = t.find(var, at + ref.size()))
          t.replace(at, var.size(), ref);
      };
      for (std::string &t : pred.presence) rename(t);
      for (std::string &t : pred.step) rename(t);
      rename(pred.complete);
    }
    c_.code("wuc_wu_mixed_begin(&" + wu_ + ", " + (w_.elseBranch.present ? elseEnabled_ : "0") +
            ");");
    c_.outdent();
    c_.note(p_ + "_step:;");
    c_.indent();
    // The step's locals (the predicate, the next clause) live in its block.
    c_.note("{");
    c_.indent();
    c_.note("/* completion predicate: which clauses are still needed */");
    for (const std::string &l : familySatisfied) c_.code(l);
    for (const std::string &l : pred.step) c_.code(l);
    std::string next = p_ + "_next";
    c_.code("int " + next + " = wuc_wu_mixed_step(&" + wu_ + ", " + pred.complete + ");");
    if (families_) {
      c_.code("if (" + next + " == WUC_WU_RECOMPUTE) goto " + p_ + "_step;");
      if (w_.elseBranch.present) c_.code("if (" + next + " == WUC_WU_ELSE) goto " + p_ + "_else;");
      c_.note("if (" + next + " >= 0) {");
      c_.indent();
      c_.code("unsigned " + p_ + "_k = (unsigned)" + next + ";");
      emitDispatch(p_ + "_k", "_won");
      c_.outdent();
      c_.note("}");
      c_.code("goto " + p_ + "_end;");
    } else {
      c_.code("switch (" + next + ") {");
      c_.code("case WUC_WU_RECOMPUTE: goto " + p_ + "_step;");
      if (w_.elseBranch.present) c_.code("case WUC_WU_ELSE: goto " + p_ + "_else;");
      for (const Clause &c : w_.clauses)
        c_.code("case " + std::to_string(c.index) + ": goto " + label(c.index, "_won") + ";");
      c_.code("default: goto " + p_ + "_end;");
      c_.note("}");
    }
    c_.outdent();
    c_.note("}");
  }

  // ---- bodies ------------------------------------------------------------
  void emitBodies() {
    for (const Clause &c : w_.clauses) {
      unsigned i = c.index;
      c_.note("");
      c_.note(clauseComment(c));
      c_.codeLine(dispatchLine_);
      c_.outdent();
      const bool early = i < earlyCount_; // reached by its early try, not by a fast-path try
      if (allOr_ && !early) {
        c_.note(label(i, "_tried") + ": /* its try on the fast path completed */");
        c_.indent();
        c_.code("wuc_wu_won_try(&" + wu_ + ", " + at(i) + ");");
        c_.outdent();
      }
      if (blocks_) c_.note(label(i, "_won") + ":");
      c_.indent();
      if (c.family) {
        emitFamilyBody(c);
        continue;
      }
      // A channel clause's on_selected says yes after a try that completed:
      // the early try enters the body past it, and converts there.
      if (!early) emitConversion(i);
      emitWinnerBody(i, c.body, 0, early);
    }
    if (w_.elseBranch.present) {
      c_.note("");
      c_.outdent();
      c_.note(p_ + "_else: /* the else at " + whereText(w_.elseBranch.keywordOffset) + " */");
      c_.indent();
      c_.codeLine(dispatchLine_);
      c_.note("{");
      c_.body(w_.elseBranch.body);
      c_.codeLine(lastLine_);
      c_.note("}");
      c_.code("goto " + p_ + "_end;");
    }
  }

  // The body of family element __wucN_j, with the index declared as written
  // and holding that element's value.
  void emitFamilyBody(const Clause &c) {
    unsigned i = c.index;
    const ClauseFacts &f = facts(i);
    c_.note("{");
    c_.indent();
    c_.user(c.indexType, text(c.indexType) + " " + text(c.indexName) + " = " + el(i, "_index") +
                             "; /* the element's index */");
    c_.code("(void)" + text(c.indexName) + ";");
    if (f.kind == ClauseFacts::Recv && !receivesInPlace(f))
      c_.code("*" + el(i, "_target") + " = " + el(i, "_elem") + "; /* the element, converted */");
    emitWinnerBody(i, c.body, 1);
  }

  // Clause i's element, received into a temporary, into its target (a
  // register variable by name); nothing for a receive in place or another kind.
  void emitConversion(unsigned i) {
    const ClauseFacts &f = facts(i);
    if (f.kind != ClauseFacts::Recv) return;
    const std::string elem = name(i, "_elem") + "; /* the element, converted */";
    if (f.recvTargetIsRegister)
      c_.user(w_.clauses[i].lhs, text(w_.clauses[i].lhs) + " = " + elem);
    else if (!receivesInPlace(f))
      c_.code("*" + name(i, "_target") + " = " + elem);
  }

  // Clause i's body as the winner, then what follows it: the end of the
  // statement (all-or) or the next mixed step.  `scopes` blocks opened
  // around the body (a family element's index) close before leaving.
  void emitWinnerBody(unsigned i, Range body, int scopes, bool early = false) {
    const ClauseFacts &f = facts(i);
    if (allOr_) {
      c_.code("if (" + selFn(f) + "(" + resArg(i) + ", " + node(i) + ")) {");
      c_.indent();
    } else {
      c_.note("{");
    }
    if (early) {
      c_.outdent();
      c_.note(label(i, "_early") + ": /* its early try completed */");
      c_.indent();
      emitConversion(i);
    }
    c_.body(body);
    c_.codeLine(lastLine_);
    if (allOr_) c_.outdent();
    c_.note("}");
    for (int k = 0; k < scopes; k++) {
      c_.outdent();
      c_.note("}");
    }
    if (allOr_) {
      // (No unreg after a try won by a resource whose unreg would have
      // nothing to do: wuc_wu_won_try, WUC_SELECTABLE_TRY_WIN_FINAL.)
      c_.code("if (wuc_wu_end_winner(&" + wu_ + ", " + at(i) + ")) (void)" + unregFn(f) + "(" +
              resArg(i) + ", " + node(i) + ");");
      c_.code("goto " + p_ + "_end;");
    } else {
      c_.code("wuc_wu_mixed_ran(&" + wu_ + ", " + at(i) + ");");
      c_.code("goto " + p_ + "_step;");
    }
  }

  const Renderer &r_;
  const WaitUntil &w_;
  const std::vector<ClauseFacts> &facts_;
  std::string &out_;
  std::string p_;
  std::string wu_; // __wucN.__wuc_wu
  std::string f_;  // __wucN_values
  std::string j_;  // __wucN_values.__wuc_j
  CWriter c_;
  bool allOr_;
  std::vector<std::string> names_;                        // per clause: __wucN.__wuc_clauseI_<kind>
  std::vector<std::string> labels_;                       // per clause: __wucN_clauseI_<kind>
  std::vector<std::pair<std::string, unsigned>> members_; // of the state struct: text, line
  std::vector<std::pair<std::string, unsigned>> typedefs_;      // before it: families' index types
  std::vector<std::pair<std::string, unsigned>> familyMembers_; // of __wucN_values
  std::vector<std::string> enabled_; // per clause: its guard variable, or "1"
  std::vector<std::string> data_;    // per clause: its node's data (a receive's target...)
  std::vector<std::string> setups_;  // with an early try: the clauses' set-up, after it
  bool early_ = false;               // the statement has an early try
  unsigned earlyCount_ = 0;          // of its clauses 0 to earlyCount_ - 1
  std::string elseEnabled_ = "1";
  bool blocks_ = false;       // a switch reaches the bodies' _won labels
  unsigned families_ = 0;     // how many clauses are families
  unsigned lastLine_;         // the statement's last line
  unsigned dispatchLine_ = 0; // the last line evaluated
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
