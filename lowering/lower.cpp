// lower.cpp — emits the C for each waituntil statement (docs/lowering.md).
//
// One statement becomes one block:
//
//   { /* waituntil statement N at file:line:col: all-or, K clauses */
//     wuc_wu_clause wuN_c[K];                     the nodes, in this frame
//     wuc_wu wuN __attribute__((cleanup(...)));   withdraws on any exit
//     ...evaluation: per clause, guard then resource, in source order...
//     ...all-or: the fast path, then the blocking path; or, mixed: the
//        completion predicate and the step loop...
//   wuN_sel0: ... { body 0 } ...                  each body once, reached
//   wuN_sel1: ... { body 1 } ...                  by goto: no loop or
//   wuN_end:;                                     switch around a body
//   }
//
// Bodies are never inside a generated loop or switch, so break, continue,
// return and goto in them bind to the user's constructs; leaving the block
// runs the cleanup, which withdraws every clause still registered.
#include "lower.h"

#include <functional>
#include <map>

#include "render.h"

namespace wuc {

namespace {

std::string cStringLiteral(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + '"';
}

bool isAllOr(const TreeNode &n) {
  if (n.kind == TreeNode::Leaf) return true;
  if (n.kind == TreeNode::And) return false;
  for (const TreeNode &k : n.kids)
    if (!isAllOr(k)) return false;
  return true;
}

// One line of source text for a comment: whitespace collapsed, no "*/".
std::string commentText(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  for (size_t p; (p = out.find("*/")) != std::string::npos;) out.replace(p, 2, "* /");
  if (out.size() > 80) out = out.substr(0, 77) + "...";
  return out;
}

class StatementLowering {
public:
  StatementLowering(const Renderer &r, const WaitUntil &w, const std::vector<ClauseFacts> &facts,
                    std::string &out)
      : r_(r), w_(w), facts_(facts), out_(out), p_("wu" + std::to_string(w.id)) {}

  void emit() {
    const SourceFile &f = r_.file();
    LineCol lc = f.lineCol(w_.range.begin);
    bool allOr = isAllOr(w_.tree);
    unsigned k = unsigned(w_.clauses.size());
    // A directive must start a line, also when this statement is the first
    // thing in a body or an expression being rendered on its own.
    if (out_.empty()) out_ += '\n';
    r_.lineDirective(w_.range.begin, out_);
    out_ += "{ /* waituntil statement " + std::to_string(w_.id) + " at " + f.path() + ":" +
            std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": " +
            (allOr ? "all-or" : "mixed") + ", " + std::to_string(k) +
            (k == 1 ? " clause" : " clauses") + (w_.elseBranch.present ? ", else" : "") + " */\n";
    out_ += "  wuc_wu_clause " + p_ + "_c[" + std::to_string(k) + "];\n";
    out_ += "  wuc_wu " + p_ + " __attribute__((cleanup(wuc_wu_cleanup)));\n";
    out_ += "  wuc_wu_init(&" + p_ + ", " + p_ + "_c, " + (allOr ? "1" : "0") + ");\n";
    allOr_ = allOr;
    if (allOr) out_ += "  _Bool " + p_ + "_any = 0; /* some clause is enabled */\n";
    for (const Clause &c : w_.clauses) emitEvaluation(c);
    emitElseGuard();
    if (allOr)
      emitAllOr();
    else
      emitMixed();
    emitBodies(allOr);
    out_ += p_ + "_end:;\n}";
    r_.lineDirective(w_.range.end, out_);
    // The text after the statement continues at the statement's last column.
    unsigned col = f.lineCol(w_.range.end).col;
    out_.append(col - 1, ' ');
  }

private:
  // ---- names -------------------------------------------------------------
  std::string var(const char *what, unsigned i) const { return p_ + "_" + what + std::to_string(i); }
  std::string clause(unsigned i) const { return p_ + "_c[" + std::to_string(i) + "]"; }
  std::string node(unsigned i) const { return "&" + clause(i) + ".node"; }
  const ClauseFacts &facts(unsigned i) const { return facts_[i]; }

  std::string text(Range r) const {
    std::string s;
    r_.render(r, s);
    return s;
  }
  // The trait's functions, called directly on the fast path.
  static std::string traitSuffix(const ClauseFacts &f) {
    static const std::string prefix = "wuc_selectable_trait_";
    return f.traitVar.compare(0, prefix.size(), prefix) == 0 ? f.traitVar.substr(prefix.size())
                                                             : f.traitVar;
  }
  static std::string regFn(const ClauseFacts &f) {
    return f.registerFn.empty() ? f.traitVar + ".register_select" : f.registerFn;
  }
  static std::string unregFn(const ClauseFacts &f) {
    return f.unregisterFn.empty() ? f.traitVar + ".unregister_select" : f.unregisterFn;
  }
  static std::string selFn(const ClauseFacts &f) {
    return f.onSelectedFn.empty() ? f.traitVar + ".on_selected" : f.onSelectedFn;
  }
  static std::string ops(const ClauseFacts &f) { return "&wuc_selectable_ops_" + traitSuffix(f); }
  // The resource argument of the trait's functions for clause i.
  std::string resArg(unsigned i) const {
    return (facts(i).kind == ClauseFacts::Resource ? "" : "&") + var("r", i);
  }
  std::string site(const Clause &c) const {
    LineCol lc = r_.file().lineCol(c.keywordOffset);
    return cStringLiteral(r_.file().path() + ":" + std::to_string(lc.line) + ":" +
                          std::to_string(lc.col));
  }

  // ---- evaluation (LANGUAGE.md §2.1 rule 1) -------------------------------
  // Per clause in source order: its guard; if true, its resource expression
  // (with the value of a send and the deadline of a timeout).
  void emitEvaluation(const Clause &c) {
    unsigned i = c.index;
    const ClauseFacts &f = facts(i);
    std::string g = var("g", i), ch = var("ch", i), r = var("r", i);
    r_.lineDirective(c.keywordOffset, out_);
    out_ += "  /* clause " + std::to_string(i) + ": " +
            commentText(r_.file().slice(c.operand)) + " */\n";
    if (c.hasGuard)
      userLine(c.guard, "  _Bool " + g + " = (" + text(c.guard) + ") != 0;");
    else
      out_ += "  _Bool " + g + " = 1;\n";
    // The channel operand's address (or the pointer itself).
    auto channelAt = [&](Range operand) {
      return f.channelIsPointer ? "(" + text(operand) + ")" : "&(" + text(operand) + ")";
    };
    // The element type without qualifiers (a comma expression drops them),
    // for temporaries that are assigned.
    std::string elemType = "__typeof__(((void)0, " + ch + "->elem[0]))";
    std::string data = "0";
    switch (f.kind) {
    case ClauseFacts::Recv: {
      std::string x = var("x", i);
      if (!f.recvTargetIsRegister)
        userLine(c.lhs, "  __auto_type " + x + " = " + g + " ? &(" + text(c.lhs) + ") : 0;");
      userLine(c.rhs, "  __auto_type " + ch + " = " + g + " ? " + channelAt(c.rhs) + " : 0;");
      if (f.recvInPlace) {
        data = x;
      } else {
        std::string t = var("t", i);
        out_ += "  " + elemType + " " + t + "; /* received, then assigned */\n";
        out_ += "  memset(&" + t + ", 0, sizeof " + t + ");\n";
        data = "&" + t;
      }
      out_ += "  wuc_chan_recv_clause " + r + " = " + g + " ? chan_recv_clause(" + ch +
              ") : (wuc_chan_recv_clause){0};\n";
      break;
    }
    case ClauseFacts::Send: {
      std::string v = var("v", i);
      userLine(c.lhs, "  __auto_type " + ch + " = " + g + " ? " + channelAt(c.lhs) + " : 0;");
      out_ += "  " + elemType + " " + v + "; /* the value sent */\n";
      out_ += "  memset(&" + v + ", 0, sizeof " + v + ");\n";
      userLine(c.rhs, "  if (" + g + ") " + v + " = (" + text(c.rhs) + ");");
      out_ += "  wuc_chan_send_clause " + r + " = " + g + " ? chan_send_clause(" + ch +
              ") : (wuc_chan_send_clause){0};\n";
      data = "&" + v;
      break;
    }
    case ClauseFacts::Closed:
      userLine(c.arg, "  __auto_type " + ch + " = " + g + " ? " + channelAt(c.arg) + " : 0;");
      out_ += "  wuc_chan_closed_clause " + r + " = " + g + " ? chan_closed_clause(" + ch +
              ") : (wuc_chan_closed_clause){0};\n";
      break;
    case ClauseFacts::Timeout:
      userLine(c.arg, "  wuc_timeout " + r + " = " + g + " ? wuc_timeout_make(" + text(c.arg) +
                          ") : (wuc_timeout){0};");
      break;
    case ClauseFacts::Resource:
    case ClauseFacts::Invalid: {
      std::string path;
      for (const std::string &m : f.memberPath)
        path += (path.empty() && f.resourceIsPointer ? "->" : ".") + m;
      std::string operand = text(c.operand);
      std::string addr = f.resourceIsPointer
                             ? (path.empty() ? "(" + operand + ")" : "&(" + operand + ")" + path)
                             : "&(" + operand + ")" + path;
      userLine(c.operand, "  __auto_type " + r + " = " + g + " ? " + addr + " : 0;");
      break;
    }
    }
    r_.lineDirective(c.keywordOffset, out_);
    if (allOr_) out_ += "  " + p_ + "_any |= " + g + ";\n";
    out_ += "  wuc_wu_clause_init(&" + p_ + ", " + std::to_string(i) + ", " + g + ", (void *)" +
            resArg(i) + ", " + ops(f) + ", (void *)" + data + ", " + site(c) + ");\n";
    // Mixed statements can be left by a jump while this clause completes:
    // the cleanup then converts the element into the target itself.
    if (!allOr_ && f.kind == ClauseFacts::Recv && !f.recvInPlace && !f.recvTargetIsRegister)
      out_ += "  wuc_wu_clause_converts(&" + p_ + ", " + std::to_string(i) + ", (void *)" + var("x", i) +
              ", WUC_WU_KIND(*" + var("x", i) + "), WUC_WU_KIND(" + ch + "->elem[0]));\n";
  }

  // A line of generated code holding the user's text `r`: a #line directive
  // first, so the back end's messages about it point at the source.
  void userLine(Range r, const std::string &line) {
    r_.lineDirective(r.begin, out_);
    out_ += line + '\n';
  }

  void emitElseGuard() {
    const ElseBranch &e = w_.elseBranch;
    if (!e.present) return;
    if (e.hasGuard) {
      userLine(e.guard, "  _Bool " + p_ + "_ge = (" + text(e.guard) + ") != 0; /* the else guard, last */");
      r_.lineDirective(w_.range.begin, out_);
    } else {
      out_ += "  _Bool " + p_ + "_ge = 1;\n";
    }
  }

  // ---- all-or statements --------------------------------------------------
  void emitAllOr() {
    out_ += "  /* fast path: try each clause in order without registering */\n";
    for (const Clause &c : w_.clauses) {
      unsigned i = c.index;
      out_ += "  if (" + clause(i) + ".enabled && " + regFn(facts(i)) + "(" + resArg(i) +
              ", wuc_wu_try_node(&" + p_ + ", " + std::to_string(i) + "))) {\n";
      out_ += "    wuc_wu_won_try(&" + p_ + ", " + std::to_string(i) + ");\n";
      out_ += "    goto " + var("sel", i) + ";\n  }\n";
    }
    out_ += "  if (!" + p_ + "_any) goto " + p_ + "_end; /* every clause removed by its guard */\n";
    if (w_.elseBranch.present) out_ += "  if (" + p_ + "_ge) goto " + p_ + "_else;\n";
    out_ += "  /* block: register every clause, park once */\n";
    out_ += "  switch (wuc_wu_block_all_or(&" + p_ + ")) {\n";
    for (const Clause &c : w_.clauses)
      out_ += "  case " + std::to_string(c.index) + ": goto " + var("sel", c.index) + ";\n";
    out_ += "  default: goto " + p_ + "_end;\n  }\n";
  }

  // ---- mixed statements: the completion predicate ---------------------------
  // For every tree node: present (some clause under it is enabled; fixed
  // after evaluation) and satisfied (by clauses whose bodies ran).  A
  // removed clause or subtree is its parent's identity: skipped under both
  // `and` and `or`.  A clause is needed while it has not run and no node
  // above it is satisfied.
  struct NodeNames {
    std::string present, sat, dead;
  };

  void numberNodes(const TreeNode &n, std::vector<const TreeNode *> &order) const {
    for (const TreeNode &k : n.kids) numberNodes(k, order);
    if (n.kind != TreeNode::Leaf) order.push_back(&n); // post-order: kids first
  }
  std::string presentOf(const TreeNode &n) const {
    return n.kind == TreeNode::Leaf ? clause(n.clause) + ".enabled" : names_.at(&n).present;
  }
  std::string satOf(const TreeNode &n) const {
    return n.kind == TreeNode::Leaf ? clause(n.clause) + ".ran" : names_.at(&n).sat;
  }

  void emitPresence() {
    std::vector<const TreeNode *> order;
    numberNodes(w_.tree, order);
    for (size_t j = 0; j < order.size(); j++) {
      std::string id = std::to_string(j);
      names_[order[j]] = {p_ + "_p" + id, p_ + "_s" + id, p_ + "_d" + id};
    }
    postOrder_ = order;
    for (const TreeNode *n : order) {
      out_ += "  _Bool " + names_[n].present + " = 0;\n";
      for (const TreeNode &k : n->kids) out_ += "  " + names_[n].present + " |= " + presentOf(k) + ";\n";
    }
  }

  void emitNeeded(const TreeNode &n, const std::string &deadAbove) {
    for (const TreeNode &k : n.kids) {
      if (k.kind == TreeNode::Leaf) {
        out_ += "  " + clause(k.clause) + ".node.needed = !" + clause(k.clause) + ".ran && !" +
                deadAbove + ";\n";
      } else {
        const NodeNames &kn = names_.at(&k);
        out_ += "  _Bool " + kn.dead + " = " + deadAbove + " || " + kn.sat + ";\n";
        emitNeeded(k, kn.dead);
      }
    }
  }

  void emitMixed() {
    emitPresence();
    bool withElse = w_.elseBranch.present;
    out_ += "  wuc_wu_mixed_begin(&" + p_ + ", " + (withElse ? p_ + "_ge" : std::string("0")) +
            ");\n";
    out_ += "  int " + p_ + "_i;\n";
    out_ += p_ + "_next:;\n  {\n  /* completion predicate */\n";
    for (const TreeNode *n : postOrder_) {
      const NodeNames &nn = names_.at(n);
      bool isAnd = n->kind == TreeNode::And;
      out_ += "  _Bool " + nn.sat + " = " + (isAnd ? "1" : "0") + ";\n";
      for (const TreeNode &k : n->kids) {
        if (isAnd)
          out_ += "  " + nn.sat + " = " + nn.sat + " && (!" + presentOf(k) + " || " + satOf(k) +
                  ");\n";
        else
          out_ += "  " + nn.sat + " = " + nn.sat + " || (" + presentOf(k) + " && " + satOf(k) +
                  ");\n";
      }
    }
    const NodeNames &root = names_.at(&w_.tree);
    out_ += "  _Bool " + root.dead + " = " + root.sat + ";\n";
    emitNeeded(w_.tree, root.dead);
    out_ += "  " + p_ + "_i = wuc_wu_mixed_step(&" + p_ + ", !" + root.present + " || " + root.sat +
            ");\n  }\n";
    out_ += "  switch (" + p_ + "_i) {\n";
    out_ += "  case WUC_WU_RECOMPUTE: goto " + p_ + "_next;\n";
    if (withElse) out_ += "  case WUC_WU_ELSE: goto " + p_ + "_else;\n";
    for (const Clause &c : w_.clauses)
      out_ += "  case " + std::to_string(c.index) + ": goto " + var("sel", c.index) + ";\n";
    out_ += "  default: goto " + p_ + "_end;\n  }\n";
  }

  // ---- bodies ------------------------------------------------------------
  void emitBodies(bool allOr) {
    for (const Clause &c : w_.clauses) {
      unsigned i = c.index;
      const ClauseFacts &f = facts(i);
      out_ += var("sel", i) + ":\n";
      if (f.kind == ClauseFacts::Recv && f.recvTargetIsRegister)
        userLine(c.lhs, "  " + text(c.lhs) + " = " + var("t", i) + "; /* the element, converted */");
      else if (f.kind == ClauseFacts::Recv && !f.recvInPlace)
        out_ += "  *" + var("x", i) + " = " + var("t", i) + "; /* the element, converted */\n";
      if (allOr) out_ += "  if (" + selFn(f) + "(" + resArg(i) + ", " + node(i) + "))\n";
      emitBody(c.body);
      if (allOr) {
        out_ += "  wuc_wu_end_winner(&" + p_ + ", " + std::to_string(i) + ");\n";
        out_ += "  (void)" + unregFn(f) + "(" + resArg(i) + ", " + node(i) + ");\n";
        out_ += "  goto " + p_ + "_end;\n";
      } else {
        out_ += "  wuc_wu_mixed_ran(&" + p_ + ", " + std::to_string(i) + ");\n";
        out_ += "  goto " + p_ + "_next;\n";
      }
    }
    if (w_.elseBranch.present) {
      out_ += p_ + "_else:\n";
      emitBody(w_.elseBranch.body);
      out_ += "  goto " + p_ + "_end;\n";
    }
  }

  void emitBody(Range body) {
    r_.lineDirective(body.begin, out_);
    out_.append(r_.file().lineCol(body.begin).col - 1, ' ');
    out_ += "{ " + text(body) + " }";
    r_.lineDirective(w_.range.begin, out_);
  }

  const Renderer &r_;
  const WaitUntil &w_;
  const std::vector<ClauseFacts> &facts_;
  std::string &out_;
  std::string p_;
  bool allOr_ = false;
  std::map<const TreeNode *, NodeNames> names_;
  std::vector<const TreeNode *> postOrder_;
};

} // namespace

std::string lowerFile(const SourceFile &file, const FrontendResult &fe, const SemaFacts &facts) {
  // Type definitions inserted before a declaration keep the lines after
  // them where they were.
  FrontendResult adjusted = fe;
  Renderer plain(file, fe, nullptr);
  for (Edit &e : adjusted.edits) {
    if (e.kind != Edit::TypeDefinition) continue;
    std::string text = "\n" + e.text;
    plain.lineDirective(e.range.begin, text);
    text.append(file.lineCol(e.range.begin).col - 1, ' ');
    e.text = text;
  }
  std::string out =
      "/* Generated by wucc from " + file.path() + "; edit the source, not this file. */\n"
      "#include <string.h>\n#include <wuc.h>\n#include <wuc/waituntil.h>\n";
  Renderer renderer(file, adjusted, [&](const WaitUntil &w, std::string &o) {
    StatementLowering(renderer, w, facts.statements.at(w.id), o).emit();
  });
  renderer.lineDirective(0, out);
  renderer.renderFile(out);
  return out;
}

} // namespace wuc
