// clause_bodies.cpp — rules about what a clause body may contain that the
// grammar does not express.
//
// Statements may nest (a body holding another statement) up to
// kMaxStatementDepth levels: the lowering and the semantic pass emit a
// nested statement inside its parent's text, so depth costs them more than
// linear time, and each level adds three levels of braces to the lowered C,
// which clang as a back end accepts up to 256 deep by default.
//
// A computed goto (`goto *p`, GNU labels as values) in a clause body is an
// error: neither compiler runs __attribute__((cleanup)) for it (gcc skips
// it silently, clang rejects the jump), so leaving the statement that way
// would leave its clauses registered.  A goto to a named label is fine.
//
// A jump *into* a body is an error too (docs/lowering.md, "Limits"): each
// body is emitted once behind a label of the lowered statement, after the
// statement's evaluation and inside the scope of its cleanup variable, so a
// `goto` from outside the body, or a `case` / `default` label of a switch
// outside it, would start the body without a winning clause (gcc accepts
// the jump and the program crashes; clang rejects it, naming generated
// code).  Reported at the label:
//   - a label in a body that a `goto` (or a GNU `&&label`) outside that
//     body names, in the same function (or the same block, for a label
//     declared with __label__);
//   - a `case` or `default` label in a body whose switch is outside it.
// Jumps out of a body, labels used only inside their body, and a switch
// wholly inside a body are fine.  Bodies nest: "the body" is the innermost
// one holding the label, so a jump between two clauses' bodies, or from an
// outer body into a nested statement's body, is refused as well.
#include "clause_bodies.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string_view>

#include "lexer.h"
#include "messages.h"

namespace wuc {

namespace {

void checkNesting(const FrontendResult &fe, DiagEngine &diags) {
  constexpr size_t kMaxStatementDepth = 64;
  std::vector<unsigned> open;                // ends of the statements enclosing the current one
  for (const WaitUntil &w : fe.statements) { // ordered by begin: parents first
    while (!open.empty() && open.back() <= w.range.begin) open.pop_back();
    if (open.size() == kMaxStatementDepth) {
      diags.error(w.range.begin,
                  format(msg::StatementsNestedTooDeeply, std::to_string(kMaxStatementDepth)));
      return;
    }
    open.push_back(w.range.end);
  }
}

// The raw tokens of the file with what the jump checks need: spellings,
// bracket pairs and, for each token, the innermost `{` around it.
class Tokens {
public:
  Tokens(const fe::Splice &splice, const std::vector<fe::RawTok> &toks)
      : toks_(toks), match_(toks.size(), -1), brace_(toks.size(), -1) {
    for (const fe::RawTok &t : toks)
      spell_.push_back(std::string_view(splice.clean()).substr(t.cbegin, t.cend - t.cbegin));
    std::vector<size_t> stack;
    std::vector<long> braces;
    for (size_t i = 0; i < toks.size(); i++) {
      brace_[i] = braces.empty() ? -1 : braces.back();
      if (isOpen(i)) {
        stack.push_back(i);
        if (isPunct(i, "{")) braces.push_back(long(i));
      } else if (isClose(i) && !stack.empty() && closes(stack.back(), i)) {
        match_[i] = long(stack.back());
        match_[stack.back()] = long(i);
        if (isPunct(i, "}")) braces.pop_back();
        stack.pop_back();
      }
    }
  }

  size_t size() const { return toks_.size(); }
  const fe::RawTok &operator[](size_t i) const { return toks_[i]; }
  std::string_view spell(size_t i) const { return spell_[i]; }
  bool is(size_t i, const char *s) const { return i < toks_.size() && spell_[i] == s; }
  bool isIdent(size_t i) const { return i < toks_.size() && toks_[i].kind == fe::RawKind::Ident; }
  bool isPunct(size_t i, const char *p) const {
    return i < toks_.size() && toks_[i].kind == fe::RawKind::Punct &&
           std::strcmp(toks_[i].punct, p) == 0;
  }
  long match(size_t i) const { return match_[i]; }
  // The innermost `{` around token i (-1: none).
  long brace(size_t i) const { return brace_[i]; }

private:
  bool isOpen(size_t i) const { return isPunct(i, "(") || isPunct(i, "[") || isPunct(i, "{"); }
  bool isClose(size_t i) const { return isPunct(i, ")") || isPunct(i, "]") || isPunct(i, "}"); }
  bool closes(size_t open, size_t close) const {
    return (isPunct(open, "(") && isPunct(close, ")")) ||
           (isPunct(open, "[") && isPunct(close, "]")) ||
           (isPunct(open, "{") && isPunct(close, "}"));
  }

  const std::vector<fe::RawTok> &toks_;
  std::vector<std::string_view> spell_;
  std::vector<long> match_, brace_;
};

bool isKeyword(std::string_view s) {
  static const char *const kKeywords[] = {
      "auto",     "break",  "case",   "char",     "const",     "continue", "default",  "do",
      "double",   "else",   "enum",   "extern",   "float",     "for",      "goto",     "if",
      "inline",   "int",    "long",   "register", "restrict",  "return",   "short",    "signed",
      "sizeof",   "static", "struct", "switch",   "typedef",   "union",    "unsigned", "void",
      "volatile", "while",  "_Bool",  "_Generic", "waituntil", "when"};
  for (const char *k : kKeywords)
    if (s == k) return true;
  return false;
}

struct PendingError {
  unsigned offset;
  std::string message;
};

class JumpCheck {
public:
  JumpCheck(const FrontendResult &fe, const Tokens &t, std::vector<PendingError> &errors)
      : t_(t), errors_(errors) {
    for (const WaitUntil &w : fe.statements) {
      for (const Clause &c : w.clauses) bodies_.push_back(c.body);
      if (w.elseBranch.present) bodies_.push_back(w.elseBranch.body);
      statementEnds_[w.range.begin] = w.range.end;
      for (const Clause &c : w.clauses)
        if (c.family) familyBodies_.push_back(c.body);
    }
  }

  void run() {
    collectLocalLabels();
    // Labels and the references to them (goto L, &&L), by scope and name.
    std::map<std::pair<long, std::string_view>, std::vector<size_t>> labels, refs;
    std::vector<size_t> caseLabels;
    for (size_t i = 0; i < t_.size(); i++) {
      if (!t_.isIdent(i)) continue;
      std::string_view s = t_.spell(i);
      if (s == "goto" && t_.isIdent(i + 1)) {
        refs[{scope(i + 1), t_.spell(i + 1)}].push_back(i + 1);
      } else if (s == "case" || (s == "default" && t_.isPunct(i + 1, ":"))) {
        // `default:` in a _Generic association follows a `,`.
        if (!t_.isPunct(i - 1, ",") && !t_.isPunct(i - 1, "(") && innermostBody(i) >= 0)
          caseLabels.push_back(i);
      } else if (t_.isPunct(i + 1, ":") && !isKeyword(s) && startsStatement(i)) {
        labels[{scope(i), s}].push_back(i);
      } else if (i > 0 && t_.isPunct(i - 1, "&&") && !endsOperand(i - 2)) {
        refs[{scope(i), s}].push_back(i); // &&label, GNU labels as values
      }
    }
    for (const auto &[key, defs] : labels) {
      auto r = refs.find(key);
      if (r == refs.end()) continue;
      for (size_t def : defs) {
        long b = innermostBody(def);
        if (b < 0) continue;
        for (size_t ref : r->second) {
          if (!inBody(b, ref)) {
            errors_.push_back({t_[def].begin, format(msg::JumpIntoBody, std::string(key.second))});
            break;
          }
        }
      }
    }
    checkFamilyLoopJumps();
    if (!caseLabels.empty()) collectSwitches();
    for (size_t c : caseLabels) {
      long sw = innermostSwitch(c);
      if (sw >= 0 && !inBody(innermostBody(c), size_t(sw)))
        errors_.push_back({t_[c].begin, format(msg::CaseIntoBody, std::string(t_.spell(c)))});
    }
  }

private:
  // ---- bodies ------------------------------------------------------------
  bool inBody(long b, size_t tok) const {
    const Range &r = bodies_[size_t(b)];
    return r.begin <= t_[tok].begin && t_[tok].end <= r.end;
  }
  // The innermost body holding token `tok` (-1: none).  Bodies nest or are
  // apart: the innermost is the smallest.
  long innermostBody(size_t tok) const {
    long best = -1;
    for (size_t b = 0; b < bodies_.size(); b++)
      if (inBody(long(b), tok) && (best < 0 || bodies_[b].size() < bodies_[size_t(best)].size()))
        best = long(b);
    return best;
  }

  // ---- labels ------------------------------------------------------------
  // `x :` starts a labelled statement when what precedes it ends a
  // statement or a label (not `a ? x :`, not a bit-field's `int x :`).
  bool startsStatement(size_t i) const {
    if (i == 0) return false;
    size_t p = i - 1;
    if (t_.isPunct(p, ";") || t_.isPunct(p, "{") || t_.isPunct(p, "}") || t_.isPunct(p, ":") ||
        t_.isPunct(p, ")"))
      return true;
    return t_.is(p, "else") || t_.is(p, "do");
  }
  // Token i ends an operand, so a `&&` after it is a logical and.
  bool endsOperand(size_t i) const {
    if (i >= t_.size()) return false;
    switch (t_[i].kind) {
    case fe::RawKind::Ident:
      return !isKeyword(t_.spell(i));
    case fe::RawKind::Number:
    case fe::RawKind::String:
    case fe::RawKind::Char:
      return true;
    case fe::RawKind::Punct:
      return t_.isPunct(i, ")") || t_.isPunct(i, "]") || t_.isPunct(i, "++") || t_.isPunct(i, "--");
    default:
      return false;
    }
  }

  // Blocks that declare local labels (`__label__ a, b;`): a label and its
  // gotos are scoped to the innermost such block that declares the name,
  // else to the function.
  void collectLocalLabels() {
    for (size_t i = 0; i < t_.size(); i++) {
      if (!t_.is(i, "__label__") || t_.brace(i) < 0) continue;
      for (size_t j = i + 1; j < t_.size() && !t_.isPunct(j, ";"); j++)
        if (t_.isIdent(j)) localLabels_.insert({t_.brace(i), t_.spell(j)});
    }
  }
  long scope(size_t i) const {
    std::string_view name = t_.spell(i);
    long b = t_.brace(i), outer = -1;
    for (; b >= 0; b = t_.brace(size_t(b))) {
      if (!localLabels_.empty() && localLabels_.count({b, name})) return b;
      // `extern "C" {` at file scope is no function.
      bool linkage =
          b >= 2 && t_[size_t(b - 1)].kind == fe::RawKind::String && t_.is(size_t(b - 2), "extern");
      if (!linkage) outer = b;
    }
    return outer; // the function body
  }

  // ---- clause families (docs/language.md, "Clause families") ------------
  // A `break` or `continue` in a family's body that no loop (or, for
  // `break`, switch) inside the body encloses would bind to one around the
  // whole statement, while the family's `for` reads as the loop it leaves.
  void checkFamilyLoopJumps() {
    for (const Range &b : familyBodies_) {
      std::vector<std::pair<size_t, size_t>> loops, switches; // keyword .. last token
      for (size_t i = 0; i < t_.size(); i++) {
        if (t_[i].begin < b.begin || t_[i].end > b.end) continue;
        bool family = i > 0 && (t_.is(i - 1, "waituntil") ||
                                (i > 1 && t_.is(i - 2, "waituntil") &&
                                 (t_.is(i - 1, "or") || t_.is(i - 1, "and") ||
                                  t_.isPunct(i - 1, "||") || t_.isPunct(i - 1, "&&"))));
        if ((t_.is(i, "for") && !family) || t_.is(i, "while") || t_.is(i, "do"))
          loops.push_back({i, statementEnd(i)});
        else if (t_.is(i, "switch"))
          switches.push_back({i, statementEnd(i)});
        bool isBreak = t_.is(i, "break");
        if ((!isBreak && !t_.is(i, "continue")) || !t_.isPunct(i + 1, ";")) continue;
        auto inside = [&](const std::vector<std::pair<size_t, size_t>> &v) {
          for (const auto &[k, e] : v)
            if (k < i && i <= e) return true;
          return false;
        };
        if (inside(loops) || (isBreak && inside(switches))) continue;
        std::string word(t_.spell(i));
        errors_.push_back({t_[i].begin, format(msg::FamilyLoopJump, word, word)});
      }
    }
  }

  // ---- switches ----------------------------------------------------------
  // The last token of the statement that starts at token i (approximate for
  // malformed code; the back end judges that).  depth bounds the recursion.
  size_t statementEnd(size_t i, unsigned depth = 0) const {
    const size_t n = t_.size();
    if (i >= n) return n - 1;
    if (depth > 1000) return n - 1;
    auto afterParens = [&](size_t kw) -> size_t {
      if (!t_.isPunct(kw + 1, "(") || t_.match(kw + 1) < 0) return kw + 1;
      return size_t(t_.match(kw + 1)) + 1;
    };
    auto w = statementEnds_.find(t_[i].begin);
    if (w != statementEnds_.end()) {
      size_t j = i;
      while (j + 1 < n && t_[j + 1].end <= w->second) j++;
      return j;
    }
    if (t_.isPunct(i, "{")) return t_.match(i) >= 0 ? size_t(t_.match(i)) : n - 1;
    if (t_.is(i, "if")) {
      size_t e = statementEnd(afterParens(i), depth + 1);
      return t_.is(e + 1, "else") ? statementEnd(e + 2, depth + 1) : e;
    }
    if (t_.is(i, "while") || t_.is(i, "for") || t_.is(i, "switch"))
      return statementEnd(afterParens(i), depth + 1);
    if (t_.is(i, "do")) {
      size_t e = statementEnd(i + 1, depth + 1); // then: while ( ... ) ;
      size_t close = t_.is(e + 1, "while") ? afterParens(e + 1) : e + 1;
      return std::min(close, n - 1);
    }
    if (t_.is(i, "case") || t_.is(i, "default") ||
        (t_.isIdent(i) && t_.isPunct(i + 1, ":") && !isKeyword(t_.spell(i)))) {
      size_t j = i + 1;
      while (j < n && !t_.isPunct(j, ":")) j = skip(j);
      return statementEnd(j + 1, depth + 1);
    }
    size_t j = i;
    while (j < n && !t_.isPunct(j, ";") && !t_.isPunct(j, "}")) j = skip(j);
    return std::min(j, n - 1);
  }
  // The token after the bracketed group starting at j, or j + 1.
  size_t skip(size_t j) const {
    if ((t_.isPunct(j, "(") || t_.isPunct(j, "[") || t_.isPunct(j, "{")) && t_.match(j) > long(j))
      return size_t(t_.match(j)) + 1;
    return j + 1;
  }
  void collectSwitches() {
    for (size_t i = 0; i < t_.size(); i++) {
      if (!t_.is(i, "switch") || !t_.isPunct(i + 1, "(") || t_.match(i + 1) < 0) continue;
      size_t body = size_t(t_.match(i + 1)) + 1;
      switches_.push_back({i, body, statementEnd(body)});
    }
  }
  // The switch whose body holds the case label at token c, innermost first
  // (-1: none; the back end reports a case outside a switch).
  long innermostSwitch(size_t c) const {
    long best = -1;
    for (const Switch &s : switches_)
      if (s.bodyBegin <= c && c <= s.bodyEnd && long(s.keyword) > best) best = long(s.keyword);
    return best;
  }

  struct Switch {
    size_t keyword, bodyBegin, bodyEnd;
  };
  const Tokens &t_;
  std::vector<PendingError> &errors_;
  std::vector<Range> bodies_, familyBodies_;
  std::map<unsigned, unsigned> statementEnds_; // waituntil statements: begin -> end
  std::set<std::pair<long, std::string_view>> localLabels_;
  std::vector<Switch> switches_;
};

} // namespace

void checkClauseBodies(const SourceFile &file, const FrontendResult &fe, DiagEngine &diags) {
  checkNesting(fe, diags);
  std::vector<Range> bodies;
  for (const WaitUntil &w : fe.statements)
    for (const Clause &c : w.clauses) bodies.push_back(c.body);
  if (bodies.empty()) return;
  fe::Splice splice(file.text());
  fe::LexOutput lex;
  DiagEngine scratch(file); // the file parsed already: nothing new to report
  if (!fe::scanFile(file, splice, scratch, lex)) return;
  const auto &toks = lex.toks;
  std::vector<PendingError> errors;
  for (size_t i = 0; i + 1 < toks.size(); i++) {
    const fe::RawTok &t = toks[i], &next = toks[i + 1];
    if (t.kind != fe::RawKind::Ident || file.slice({t.begin, t.end}) != "goto") continue;
    if (next.kind != fe::RawKind::Punct || std::strcmp(next.punct, "*") != 0) continue;
    for (const Range &b : bodies) {
      if (t.begin >= b.begin && t.end <= b.end) {
        errors.push_back({t.begin, msg::ComputedGotoInBody});
        break;
      }
    }
  }
  Tokens tokens(splice, toks);
  JumpCheck(fe, tokens, errors).run();
  std::stable_sort(errors.begin(), errors.end(), [](const PendingError &a, const PendingError &b) {
    return a.offset < b.offset;
  });
  for (PendingError &e : errors) diags.error(e.offset, std::move(e.message));
}

} // namespace wuc
