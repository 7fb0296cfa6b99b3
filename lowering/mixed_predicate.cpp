#include "mixed_predicate.h"

#include <map>

namespace wuc {

namespace {

// A boolean C expression with constant folding: "1" and "0" vanish from
// && and || chains, and a chain's operands of the other operator are
// parenthesised (needed for || under &&; -Wparentheses wants it the other
// way round).
struct Expr {
  std::string text;
  char op = 0; // 0: an operand; '&' or '|': a chain
  bool is(const char *c) const { return op == 0 && text == c; }
};

Expr atom(std::string s) { return {std::move(s), 0}; }

Expr chain(char op, const std::vector<Expr> &terms) {
  const char *identity = op == '&' ? "1" : "0", *absorbing = op == '&' ? "0" : "1";
  std::vector<const Expr *> kept;
  for (const Expr &t : terms) {
    if (t.is(absorbing)) return atom(absorbing);
    if (!t.is(identity)) kept.push_back(&t);
  }
  if (kept.empty()) return atom(identity);
  if (kept.size() == 1) return *kept[0];
  Expr e{"", op};
  for (const Expr *t : kept) {
    if (!e.text.empty()) e.text += op == '&' ? " && " : " || ";
    e.text += t->op != 0 && t->op != op ? "(" + t->text + ")" : t->text;
  }
  return e;
}

Expr all(const std::vector<Expr> &terms) { return chain('&', terms); }
Expr any(const std::vector<Expr> &terms) { return chain('|', terms); }

Expr negate(const Expr &e) {
  if (e.is("1")) return atom("0");
  if (e.is("0")) return atom("1");
  return atom(e.op ? "!(" + e.text + ")" : "!" + e.text);
}

class Builder {
public:
  Builder(const std::vector<PredicateLeaf> &leaves, const std::string &prefix, MixedPredicate &out)
      : leaves_(leaves), prefix_(prefix), out_(out) {}

  void build(const TreeNode &root) {
    name(root);
    present(root);
    Expr done = satisfied(root);
    needed(root, done);
    out_.complete = any({negate(present(root)), done}).text;
  }

private:
  void name(const TreeNode &n) {
    for (const TreeNode &k : n.kids) name(k);
    if (n.kind == TreeNode::Leaf) return;
    names_[&n] =
        prefix_ + (n.kind == TreeNode::And ? "_and" : "_or") + std::to_string(names_.size());
  }

  // A node's value as an operand: folded constants stay constants, other
  // values get a _Bool of their own.
  Expr declare(std::vector<std::string> &lines, const std::string &var, const Expr &e) {
    if (e.op == 0) return e;
    lines.push_back("_Bool " + var + " = " + e.text + ";");
    return atom(var);
  }

  Expr present(const TreeNode &n) {
    if (n.kind == TreeNode::Leaf) return atom(leaves_[n.clause].enabled);
    auto it = present_.find(&n);
    if (it != present_.end()) return it->second;
    std::vector<Expr> kids;
    for (const TreeNode &k : n.kids) kids.push_back(present(k));
    Expr e = declare(out_.presence, names_.at(&n) + "_present", any(kids));
    present_.emplace(&n, e);
    return e;
  }

  // A removed kid (not present) is its parent's identity.
  Expr satisfied(const TreeNode &n) {
    if (n.kind == TreeNode::Leaf) return atom(leaves_[n.clause].ran);
    std::vector<Expr> kids;
    for (const TreeNode &k : n.kids) {
      Expr s = satisfied(k), p = present(k);
      kids.push_back(n.kind == TreeNode::And ? any({negate(p), s}) : all({p, s}));
    }
    Expr e = declare(out_.step, names_.at(&n) + "_satisfied",
                     n.kind == TreeNode::And ? all(kids) : any(kids));
    satisfied_.emplace(&n, e);
    return e;
  }

  // done: this node or one above it is satisfied; a clause under a done
  // node, or that ran, is no longer needed.
  void needed(const TreeNode &n, const Expr &done) {
    if (n.kind == TreeNode::Leaf) { // a statement of one clause family
      neededLeaf(n, done);
      return;
    }
    for (const TreeNode &k : n.kids) {
      if (k.kind == TreeNode::Leaf) {
        neededLeaf(k, done);
      } else {
        Expr kidDone = declare(out_.step, names_.at(&k) + "_done", any({done, satisfied_.at(&k)}));
        needed(k, kidDone);
      }
    }
  }

  void neededLeaf(const TreeNode &k, const Expr &done) {
    const PredicateLeaf &l = leaves_[k.clause];
    if (!l.familyNeed.empty()) {
      Expr d = l.orFamily ? any({done, atom(l.ran)}) : done;
      out_.step.push_back(l.familyNeed + d.text + ");");
      return;
    }
    out_.step.push_back(l.needed + " = " + all({negate(atom(l.ran)), negate(done)}).text + ";");
  }

  const std::vector<PredicateLeaf> &leaves_;
  const std::string &prefix_;
  MixedPredicate &out_;
  std::map<const TreeNode *, std::string> names_;
  std::map<const TreeNode *, Expr> present_, satisfied_;
};

} // namespace

MixedPredicate mixedPredicate(const TreeNode &root, const std::vector<PredicateLeaf> &leaves,
                              const std::string &prefix) {
  MixedPredicate p;
  Builder(leaves, prefix, p).build(root);
  return p;
}

} // namespace wuc
