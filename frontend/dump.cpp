// dump.cpp — dumpFrontend: one line per statement, clause, else and edit
// (wucc --dump-ast, and the frontend's tests).
#include <ostream>

#include "frontend.h"
#include "quote.h"

namespace wuc {

namespace {

std::string pos(const SourceFile &f, unsigned offset) {
  LineCol lc = f.lineCol(offset);
  return std::to_string(lc.line) + ":" + std::to_string(lc.col);
}

std::string range(const SourceFile &f, Range r) { return pos(f, r.begin) + "-" + pos(f, r.end); }

std::string text(const SourceFile &f, Range r) { return "`" + oneLine(f.slice(r)) + "`"; }

// (or 0 (and 1 2)); iterative so that deep trees cannot exhaust the stack.
std::string sexpr(const TreeNode &root) {
  std::string out;
  struct Item {
    const TreeNode *node;
    size_t next; // kids emitted so far
  };
  std::vector<Item> stack{{&root, 0}};
  while (!stack.empty()) {
    Item &it = stack.back();
    const TreeNode &n = *it.node;
    if (n.kind == TreeNode::Leaf) {
      if (!out.empty() && out.back() != '(') out += ' ';
      out += std::to_string(n.clause);
      stack.pop_back();
      continue;
    }
    if (it.next == 0) {
      if (!out.empty() && out.back() != '(') out += ' ';
      out += n.kind == TreeNode::And ? "(and" : "(or";
    }
    if (it.next == n.kids.size()) {
      out += ')';
      stack.pop_back();
      continue;
    }
    const TreeNode *kid = &n.kids[it.next++];
    stack.push_back({kid, 0});
  }
  return out;
}

const char *formName(ClauseForm f) {
  switch (f) {
  case ClauseForm::Resource:
    return "resource";
  case ClauseForm::Shift:
    return "shift";
  case ClauseForm::Closed:
    return "closed";
  case ClauseForm::Timeout:
    return "timeout";
  case ClauseForm::Readable:
    return "readable";
  case ClauseForm::Writable:
    return "writable";
  }
  return "?";
}

const char *editName(Edit::Kind k) {
  switch (k) {
  case Edit::ChannelType:
    return "channel-type";
  case Edit::FutureType:
    return "future-type";
  case Edit::Duration:
    return "duration";
  case Edit::TypeDefinition:
    return "type-definition";
  }
  return "?";
}

} // namespace

void dumpFrontend(const SourceFile &file, const FrontendResult &fe, std::ostream &os) {
  for (const WaitUntil &w : fe.statements) {
    os << "statement " << w.id << " " << range(file, w.range) << " " << sexpr(w.tree)
       << (w.elseBranch.present ? " else" : "") << (w.fair ? " fair" : "") << "\n";
    for (const Clause &c : w.clauses) {
      os << "  clause " << c.index << " " << pos(file, c.keywordOffset) << " " << formName(c.form);
      if (c.family)
        os << (c.familyAnd ? " and-family " : " or-family ") << pos(file, c.familyOffset)
           << " index " << text(file, c.indexType) << " | " << text(file, c.indexName) << " init "
           << text(file, c.familyInit) << " cond " << text(file, c.familyCond) << " step "
           << text(file, c.familyStep);
      if (c.hasGuard) os << " when " << pos(file, c.guardOffset) << " " << text(file, c.guard);
      os << " operand " << text(file, c.operand);
      if (c.form == ClauseForm::Shift)
        os << " lhs " << text(file, c.lhs) << " << " << pos(file, c.shiftOffset) << " rhs "
           << text(file, c.rhs);
      if (c.form == ClauseForm::Closed || c.form == ClauseForm::Timeout ||
          c.form == ClauseForm::Readable || c.form == ClauseForm::Writable)
        os << " arg " << text(file, c.arg);
      os << " body " << range(file, c.body) << " " << text(file, c.body) << "\n";
    }
    if (w.elseBranch.present) {
      const ElseBranch &e = w.elseBranch;
      os << "  else " << pos(file, e.keywordOffset);
      if (e.hasGuard) os << " when " << pos(file, e.guardOffset) << " " << text(file, e.guard);
      os << " body " << range(file, e.body) << " " << text(file, e.body) << "\n";
    }
  }
  for (const Edit &e : fe.edits) {
    os << "edit " << editName(e.kind) << " " << range(file, e.range) << " " << text(file, e.range)
       << " -> `" << oneLine(e.text) << "`\n";
  }
}

} // namespace wuc
