// waituntil.cpp — the grammar actions of the waituntil statement: parse
// nodes, the checks of docs/language.md §3 that have their own messages, and the
// ast.h WaitUntil they turn into.
#include <algorithm>
#include <cstring>
#include <string>

#include "frontend_internal.h"
#include "messages.h"

namespace wuc::fe {

std::string_view ParseContext::spelling(int i) const { return spellingOf(splice, raw(i)); }

Range ParseContext::span(int a, int b, unsigned emptyAt) const {
  if (b < a) return {emptyAt, emptyAt};
  return {begin(a), end(b)};
}

int ParseContext::clause(int keyword, Sem parens, Sem body) {
  PNode p;
  p.kind = PNode::Clause;
  p.keyword = keyword;
  p.opOpen = parens.first;
  p.opClose = parens.last;
  p.bodyFirst = body.first;
  p.bodyLast = body.last;
  p.first = keyword;
  p.last = body.last;
  if (p.opClose == p.opOpen + 1) error(begin(p.opClose), msg::EmptyResource);
  nodes.push_back(std::move(p));
  return int(nodes.size() - 1);
}

int ParseContext::family(int keyword, Sem head, Sem when, Sem guard, Sem parens, Sem body) {
  int n = clause(keyword, parens, body);
  PNode &p = nodes[unsigned(n)];
  p.family = true;
  p.familyJoin = head.node;
  p.familyFor = head.node >= 0 ? head.node + 1 : head.first;
  p.headerClose = head.last;
  p.headerOpen = toks[unsigned(head.last)].match;
  if (p.familyJoin >= 0) {
    std::string_view j = spelling(p.familyJoin);
    if (j != "or" && j != "and" && j != "||" && j != "&&")
      error(begin(p.familyJoin), format(msg::FamilyJoinWord, std::string(j)));
  }
  if (when.first >= 0) {
    if (guard.last == guard.first + 1) error(begin(guard.last), msg::EmptyGuard);
    p.elemWhen = when.first;
    p.elemGuardOpen = guard.first;
    p.elemGuardClose = guard.last;
  }
  return n;
}

int ParseContext::elseItem(int keyword, Sem body) {
  PNode p;
  p.kind = PNode::Else;
  p.keyword = keyword;
  p.bodyFirst = body.first;
  p.bodyLast = body.last;
  p.first = keyword;
  p.last = body.last;
  nodes.push_back(std::move(p));
  return int(nodes.size() - 1);
}

int ParseContext::guard(int when, Sem parens, int item) {
  PNode &p = nodes[unsigned(item)];
  if (parens.last == parens.first + 1) error(begin(parens.last), msg::EmptyGuard);
  if (p.family) {
    error(begin(when), msg::FamilyOuterGuard);
  } else if (p.guarded) {
    // `when (a) when (b) ...`: the first guard is not followed by a clause.
    error(begin(p.when), msg::WhenWithoutClause);
  } else if (p.parenthesised) {
    error(begin(when), msg::WhenOnGroup);
  }
  p.guarded = true;
  p.when = when;
  p.guardOpen = parens.first;
  p.guardClose = parens.last;
  p.first = when;
  return item;
}

int ParseContext::join(PNode::Kind kind, int left, int right) {
  // A chain `A or B or C` is one node; a parenthesised operand is a kid.
  PNode &l = nodes[unsigned(left)];
  const unsigned rightGroups = nodes[unsigned(right)].groups;
  if (l.kind == kind && !l.parenthesised) {
    l.kids.push_back(right);
    l.last = nodes[unsigned(right)].last;
    l.groups = std::max(l.groups, rightGroups);
    return left;
  }
  PNode p;
  p.kind = kind;
  p.groups = std::max(l.groups, rightGroups);
  p.kids = {left, right};
  p.first = l.first;
  p.last = nodes[unsigned(right)].last;
  nodes.push_back(std::move(p));
  return int(nodes.size() - 1);
}

int ParseContext::group(int open, int inner, int close) {
  PNode &p = nodes[unsigned(inner)];
  // Groups nest without bound in the grammar, but the clause tree and
  // whatever walks it recurse once per level: refused past kMaxGroups (at
  // the first parenthesis too many, once per statement).
  if (++p.groups == kMaxGroups + 1)
    error(begin(open), format(msg::GroupsNestedTooDeeply, std::to_string(kMaxGroups)));
  p.parenthesised = true;
  p.parenTok = open;
  p.first = open;
  p.last = close;
  return inner;
}

void ParseContext::finishStatement(Sem stmt, bool fair) {
  const size_t errorsBefore = diags.size();
  const int root = stmt.node;

  // Where may each `else` stand?  Walk the tree (iteratively: groups may
  // nest deeply) with each node's parent and parentheses.
  struct Visit {
    int node, parent;
    unsigned index; // in the parent's kids
    bool inParens;  // the node or an enclosing node is parenthesised
  };
  std::vector<Visit> work{{root, -1, 0, false}};
  // Two `else`s at the top level are reported once, at the second, rather
  // than the first as "not last".
  unsigned topElses = 0, topElseCount = 0;
  if (nodes[unsigned(root)].kind == PNode::Or && !nodes[unsigned(root)].parenthesised)
    for (int kid : nodes[unsigned(root)].kids)
      topElseCount += nodes[unsigned(kid)].kind == PNode::Else;
  bool hasAnd = false;
  int andFamily = -1; // a `waituntil and for` (its `and`)
  // Visit in source order (kids are in source order; push them reversed).
  while (!work.empty()) {
    Visit v = work.back();
    work.pop_back();
    const PNode &p = nodes[unsigned(v.node)];
    bool inParens = v.inParens || p.parenthesised;
    hasAnd |= p.kind == PNode::And;
    if (p.family && p.familyJoin >= 0 && andFamily < 0) {
      std::string_view j = spelling(p.familyJoin);
      if (j == "and" || j == "&&") andFamily = p.familyJoin;
    }
    if (p.kind == PNode::And || p.kind == PNode::Or) {
      for (size_t k = p.kids.size(); k-- > 0;)
        work.push_back({p.kids[k], v.node, unsigned(k), inParens});
      continue;
    }
    if (p.kind != PNode::Else) continue;
    unsigned at = begin(p.keyword);
    if (inParens) {
      error(at, msg::ElseInParens);
    } else if (v.parent < 0) {
      error(at, msg::ElseFirst);
    } else {
      const PNode &parent = nodes[unsigned(v.parent)];
      if (parent.kind == PNode::And) {
        error(at, v.index > 0 ? msg::ElseAfterAnd : msg::ElseNotLast);
      } else if (v.parent != root) {
        // Under an `or` that is itself under an `and`: `A and B or else S`
        // groups as `(A and B) or else S`, so this is the `and` side of an
        // enclosing `or` only when written `A or else S and B`.
        error(at, msg::ElseNotLast);
      } else if (v.index == 0) {
        error(at, msg::ElseFirst);
        topElses++;
      } else if (++topElses > 1) {
        if (topElses == 2) error(at, msg::ElseTwice);
      } else if (topElseCount < 2 && v.index + 1 != parent.kids.size()) {
        error(at, msg::ElseNotLast);
      }
    }
  }
  // Fairness is a choice among alternatives; an `and` needs all of its
  // operands, in whatever order they complete (docs/language.md, "Fair
  // choice").
  if (fair && hasAnd)
    error(begin(stmt.first), msg::FairWithAnd);
  else if (fair && andFamily >= 0)
    error(begin(andFamily), msg::FairWithAndFamily);
  if (diags.size() != errorsBefore || nodes[unsigned(root)].groups > kMaxGroups) return;

  WaitUntil w;
  w.range = span(stmt.first, stmt.last, begin(stmt.first));
  w.fair = fair;
  buildTree(root, w);
  out.statements.push_back(std::move(w));
}

void ParseContext::buildTree(int root, WaitUntil &w) {
  const PNode &r = nodes[unsigned(root)];
  if (r.kind == PNode::Or && nodes[unsigned(r.kids.back())].kind == PNode::Else) {
    const PNode &e = nodes[unsigned(r.kids.back())];
    w.elseBranch.present = true;
    w.elseBranch.keywordOffset = begin(e.keyword);
    w.elseBranch.hasGuard = e.guarded;
    if (e.guarded) {
      w.elseBranch.guardOffset = begin(e.when);
      w.elseBranch.guard = span(e.guardOpen + 1, e.guardClose - 1, end(e.guardOpen));
    }
    w.elseBranch.body = span(e.bodyFirst, e.bodyLast, end(e.keyword));
    if (r.kids.size() == 2) {
      w.tree = convert(r.kids[0], w);
    } else {
      w.tree.kind = TreeNode::Or;
      w.tree.parenthesised = r.parenthesised;
      for (size_t k = 0; k + 1 < r.kids.size(); k++) w.tree.kids.push_back(convert(r.kids[k], w));
    }
    return;
  }
  w.tree = convert(root, w);
}

namespace {

bool punctIs(const RawTok &t, const char *p) {
  return t.kind == RawKind::Punct && std::strcmp(t.punct, p) == 0;
}

// Operators that bind less tightly than `<<` (C's precedence table); a
// top-level one means the operand is not a shift.
bool lowerThanShift(const char *p) {
  static const char *const kOps[] = {
      "<", ">",  "<=", ">=", "==", "!=", "^",   "|",   "&&", "||", "?",  ":",
      "=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", ","};
  for (const char *op : kOps)
    if (std::strcmp(p, op) == 0) return true;
  return false;
}

// Does a token end an operand (so that a following `&` is binary)?
bool endsOperand(const RawTok &t) {
  switch (t.kind) {
  case RawKind::Ident:
  case RawKind::Number:
  case RawKind::String:
  case RawKind::Char:
    return true;
  case RawKind::Punct:
    return punctIs(t, ")") || punctIs(t, "]") || punctIs(t, "++") || punctIs(t, "--");
  default:
    return false;
  }
}

} // namespace

// A clause family's header, `for (T i = a; cond; step)`, and its per-element
// guard (docs/language.md, "Clause families").
void ParseContext::family(const PNode &p, Clause &c) {
  c.family = true;
  c.familyOffset = begin(p.familyFor);
  if (p.familyJoin >= 0) {
    std::string_view j = spelling(p.familyJoin);
    c.familyAnd = j == "and" || j == "&&";
  }
  if (p.elemWhen >= 0) {
    c.hasGuard = true;
    c.guardOffset = begin(p.elemWhen);
    c.guard = span(p.elemGuardOpen + 1, p.elemGuardClose - 1, end(p.elemGuardOpen));
  }
  // The two `;` outside brackets.
  std::vector<int> semis;
  for (int i = p.headerOpen + 1; i < p.headerClose; i++) {
    if (punctIs(raw(i), ";")) semis.push_back(i);
    int m = toks[unsigned(i)].match;
    if (m > i) i = m;
  }
  if (semis.size() != 2) {
    error(begin(p.headerOpen), msg::FamilyBadHeader);
    return;
  }
  const int a = p.headerOpen + 1, b = semis[0] - 1;
  c.familyInit = span(a, b, end(p.headerOpen));
  c.familyCond = span(semis[0] + 1, semis[1] - 1, end(semis[0]));
  c.familyStep = span(semis[1] + 1, p.headerClose - 1, end(semis[1]));
  // `T name = value`: the first `=` outside brackets, one identifier right
  // before it and a type (identifiers, `*`s, parenthesised groups) before that.
  int eq = -1;
  bool comma = false;
  for (int i = a; i <= b; i++) {
    if (eq < 0 && punctIs(raw(i), "=")) eq = i;
    comma |= punctIs(raw(i), ",");
    int m = toks[unsigned(i)].match;
    if (m > i) i = m;
  }
  if (a > b || (eq < 0 && a == b) || eq == a + 1) {
    error(begin(p.familyFor), msg::FamilyNoIndex);
    return;
  }
  bool typeOk = eq > a + 1 && eq < b && !comma && raw(eq - 1).kind == RawKind::Ident;
  // (A parenthesised group belongs to the type: `channel(int) *p`, `__typeof__(x) i`.)
  for (int i = a; typeOk && i < eq - 1; i++) {
    typeOk = raw(i).kind == RawKind::Ident || punctIs(raw(i), "*") ||
             (punctIs(raw(i), "(") && toks[unsigned(i)].match < eq - 1);
    if (typeOk && punctIs(raw(i), "(")) i = toks[unsigned(i)].match;
  }
  if (!typeOk) {
    error(begin(a), format(msg::FamilyBadIndex, std::string(file.slice(c.familyInit))));
    return;
  }
  c.indexType = span(a, eq - 2, begin(eq - 1));
  c.indexName = span(eq - 1, eq - 1, begin(eq - 1));
}

TreeNode ParseContext::convert(int n, WaitUntil &w) {
  const PNode &p = nodes[unsigned(n)];
  TreeNode t;
  t.parenthesised = p.parenthesised;
  if (p.kind == PNode::And || p.kind == PNode::Or) {
    t.kind = p.kind == PNode::And ? TreeNode::And : TreeNode::Or;
    t.kids.reserve(p.kids.size());
    for (int kid : p.kids) t.kids.push_back(convert(kid, w));
    return t;
  }
  // A clause (an else reaches here only where finishStatement reported it).
  Clause c;
  c.index = unsigned(w.clauses.size());
  c.keywordOffset = begin(p.keyword);
  c.hasGuard = p.guarded;
  if (p.guarded) {
    c.guardOffset = begin(p.when);
    c.guard = span(p.guardOpen + 1, p.guardClose - 1, end(p.guardOpen));
  }
  const int a = p.opOpen + 1, b = p.opClose - 1; // the operand's tokens
  c.operand = span(a, b, end(p.opOpen));
  c.body = span(p.bodyFirst, p.bodyLast, end(p.opClose));
  if (p.family) family(p, c);

  // closed(x) / timeout(x) / readable(x) / writable(x): exactly the word
  // and one parenthesised group.
  std::string_view word = a <= b ? spelling(a) : std::string_view();
  const ClauseForm wordForm = word == "closed"     ? ClauseForm::Closed
                              : word == "timeout"  ? ClauseForm::Timeout
                              : word == "readable" ? ClauseForm::Readable
                              : word == "writable" ? ClauseForm::Writable
                                                   : ClauseForm::Resource;
  if (wordForm != ClauseForm::Resource && raw(a).kind == RawKind::Ident && a + 1 <= b &&
      punctIs(raw(a + 1), "(") && toks[unsigned(a + 1)].match == b) {
    c.form = wordForm;
    c.arg = span(a + 2, b - 1, end(a + 1));
    if (c.arg.empty()) error(begin(b), format(msg::EmptyClauseArgument, std::string(word)));
  } else {
    // x << y: the last shift operator outside brackets, if it is `<<` and
    // nothing of lower precedence is outside brackets too.
    int lastShift = -1;
    bool lower = false;
    int prev = -1;
    for (int i = a; i <= b; i++) {
      const RawTok &t = raw(i);
      if (t.kind == RawKind::Punct) {
        if (punctIs(t, "<<") || punctIs(t, ">>")) {
          lastShift = i;
        } else if (punctIs(t, "&")) {
          if (prev >= 0 && endsOperand(raw(prev))) lower = true; // binary &
        } else if (lowerThanShift(t.punct)) {
          lower = true;
        }
      }
      int m = toks[unsigned(i)].match;
      if (m > i && (punctIs(t, "(") || punctIs(t, "[") || punctIs(t, "{"))) i = m;
      prev = i;
    }
    const bool isShift = !lower && lastShift >= a && punctIs(raw(lastShift), "<<");
    if (isShift && lastShift == b) // `x << ` : at the ')'
      error(begin(p.opClose), msg::ShiftOperandMissing);
    else if (isShift && lastShift == a) // ` << ch` : at the '<<'
      error(begin(a), msg::ShiftOperandMissing);
    else if (isShift) {
      c.form = ClauseForm::Shift;
      c.shiftOffset = begin(lastShift);
      c.lhs = span(a, lastShift - 1, begin(lastShift));
      c.rhs = span(lastShift + 1, b, end(lastShift));
    }
  }
  t.kind = TreeNode::Leaf;
  t.clause = c.index;
  w.clauses.push_back(c);
  return t;
}

} // namespace wuc::fe
