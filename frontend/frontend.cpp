// frontend.cpp — parseSource: scan, classify tokens, parse, collect edits.
#include "frontend.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>

#include "frontend_internal.h"
#include "messages.h"
#include "parser.hpp"
#include "quote.h"

namespace wuc {

namespace fe {
namespace {

using K = Parser::token;

// Brackets nested deeper than this are refused (docs/language.md §7).  The
// frontend itself does not recurse on brackets; the semantic pass's Clang
// does, a few KB of stack per level (sema/sema.cpp: -fbracket-depth just
// above this, and a stack for it).  GCC itself overflows its 8 MiB stack
// at about 35,000 nested parentheses; 100,000 levels of any bracket are
// accepted (issue 14).
constexpr unsigned kMaxNesting = 1u << 17; // 131072

bool punctIs(const RawTok &t, const char *p) {
  return t.kind == RawKind::Punct && std::strcmp(t.punct, p) == 0;
}

bool isAsmQualifier(std::string_view s) {
  return s == "volatile" || s == "__volatile__" || s == "__volatile" || s == "inline" ||
         s == "__inline__" || s == "__inline" || s == "goto";
}

bool isAttribute(std::string_view s) { return s == "__attribute__" || s == "__attribute"; }
bool isTagKeyword(std::string_view s) { return s == "struct" || s == "union" || s == "enum"; }

// Base kind of a raw token, before any lookahead.
int baseKind(const RawTok &t, std::string_view s) {
  switch (t.kind) {
  case RawKind::Ident: {
    struct Kw {
      const char *name;
      int kind;
    };
    static const Kw kKeywords[] = {
        {"if", K::IF},
        {"else", K::ELSE},
        {"while", K::WHILE},
        {"do", K::DO},
        {"for", K::FOR},
        {"switch", K::SWITCH},
        {"case", K::CASE},
        {"default", K::DEFAULT},
        {"goto", K::GOTO},
        {"break", K::BREAK},
        {"continue", K::CONTINUE},
        {"return", K::RETURN},
        {"waituntil", K::WAITUNTIL},
        {"when", K::WHEN},
    };
    for (const Kw &k : kKeywords)
      if (s == k.name) return k.kind;
    return K::IDENT;
  }
  case RawKind::Punct:
    switch (t.punct[0]) {
    case '(':
      return K::LPAREN;
    case ')':
      return K::RPAREN;
    case '[':
      return K::LBRACK;
    case ']':
      return K::RBRACK;
    case '{':
      return K::LBRACE;
    case '}':
      return K::RBRACE;
    case ';':
      return K::SEMI;
    case '?':
      return K::QUESTION;
    case ':':
      return K::COLON;
    case '|':
      return t.punct[1] == '|' ? int(K::OROR) : int(K::OTHER);
    case '&':
      return t.punct[1] == '&' ? int(K::ANDAND) : int(K::OTHER);
    default:
      return K::OTHER;
    }
  default:
    return K::OTHER;
  }
}

// Keywords that can only start a statement (or continue an if).
bool startsStatement(int k) {
  return k == K::IF || k == K::ELSE || k == K::WHILE || k == K::DO || k == K::FOR ||
         k == K::SWITCH || k == K::CASE || k == K::DEFAULT || k == K::GOTO || k == K::BREAK ||
         k == K::CONTINUE || k == K::RETURN || k == K::WAITUNTIL || k == K::WHEN ||
         k == K::WUC_FAIR;
}

bool isOpen(int k) { return k == K::LPAREN || k == K::LBRACK || k == K::LBRACE; }
bool isClose(int k) { return k == K::RPAREN || k == K::RBRACK || k == K::RBRACE; }
bool closes(int open, int close) {
  return (open == K::LPAREN && close == K::RPAREN) || (open == K::LBRACK && close == K::RBRACK) ||
         (open == K::LBRACE && close == K::RBRACE);
}

// `[[wuc::NAME]]`, a C2x attribute in wucc's namespace (docs/language.md,
// "Fair choice"), found on the raw tokens: kAttrMarker marks the first `[`
// of a `[[wuc::fair]]` right before a waituntil statement, which becomes one
// token, WUC_FAIR; kAttrHidden marks the tokens the parser does not see (the
// rest of that marker, and the whole of a misused one, reported here, so
// that no second error follows from it).  Any other attribute,
// `[[nodiscard]]`, `[[gnu::cold]]`, is C, token soup for the back end.
constexpr char kAttrMarker = 1, kAttrHidden = 2;
std::vector<char> wucAttributes(const Splice &splice, const LexOutput &lex,
                                std::vector<PendingDiag> &diags) {
  const size_t n = lex.toks.size();
  std::vector<char> attr(n, 0);
  auto p = [&](size_t i, const char *s) { return i < n && punctIs(lex.toks[i], s); };
  auto word = [&](size_t i) {
    return i < n && lex.toks[i].kind == RawKind::Ident ? spellingOf(splice, lex.toks[i])
                                                       : std::string_view();
  };
  for (size_t i = 0; i + 4 < n; i++) {
    if (!p(i, "[") || !p(i + 1, "[") || word(i + 2) != "wuc" || !p(i + 3, "::") ||
        (i > 0 && p(i - 1, "[")))
      continue;
    // The `]]` that closes it.
    size_t close = i + 2;
    for (unsigned d = 0; close < n; close++) {
      if (p(close, "[") || p(close, "(")) d++;
      if (p(close, "]") || p(close, ")")) {
        if (d == 0) break;
        d--;
      }
    }
    if (!p(close, "]") || !p(close + 1, "]")) continue;
    const size_t last = close + 1;
    const std::string_view name = word(i + 4);
    bool reported = true;
    if (name != "fair")
      diags.push_back({lex.toks[i + 4].begin, format(msg::UnknownWucAttribute, std::string(name))});
    else if (last != i + 6)
      diags.push_back({lex.toks[i].begin, msg::FairArguments});
    else
      reported = false;
    // What follows: waituntil, or `(`s and then waituntil or `when (` (a
    // statement that starts with a group or a guard).
    size_t j = last + 1;
    while (p(j, "(")) j++;
    const bool statement = word(j) == "waituntil" || (word(j) == "when" && p(j + 1, "("));
    const std::string_view before = i > 0 ? spellingOf(splice, lex.toks[i - 1]) : "";
    const bool inside =
        before == "or" || before == "and" || before == "||" || before == "&&" || before == "(";
    if (!reported && !statement) diags.push_back({lex.toks[i].begin, msg::FairNotOnWaituntil});
    if (!reported && statement && inside)
      diags.push_back({lex.toks[i].begin, msg::FairInsideStatement});
    const bool marker = statement && !inside;
    for (size_t k = i; k <= last; k++) attr[k] = kAttrHidden;
    if (marker) attr[i] = kAttrMarker;
    i = last;
  }
  return attr;
}

} // namespace

std::string_view spellingOf(const Splice &splice, const RawTok &t) {
  return std::string_view(splice.clean()).substr(t.cbegin, t.cend - t.cbegin);
}

// The token filter: classifies every raw token for the grammar, resolving
// with lookahead what LALR(1) cannot (parser.y lists the classes).
bool classifyTokens(const Splice &splice, const LexOutput &lex, std::vector<PendingDiag> &diags,
                    std::vector<Tok> &out, std::vector<int> &externalDecls,
                    std::vector<unsigned> &pragmas) {
  // `_Pragma ( "..." )` is a directive written as an operator: it may stand
  // between any two tokens (a statement and the next one, without a `;`), so
  // the parser does not see it; the renderer copies it with the text around.
  // Indices below are into `live`, the raw tokens without them.
  const std::vector<char> attr = wucAttributes(splice, lex, diags);
  std::vector<unsigned> live;
  live.reserve(lex.toks.size());
  pragmas.clear();
  for (size_t i = 0; i < lex.toks.size(); i++) {
    const RawTok &t = lex.toks[i];
    if (attr[i] == kAttrHidden) continue;
    if (t.kind == RawKind::Ident && spellingOf(splice, t) == "_Pragma" && i + 1 < lex.toks.size() &&
        punctIs(lex.toks[i + 1], "(")) {
      size_t j = i + 2;
      for (unsigned d = 1; j < lex.toks.size(); j++) {
        if (punctIs(lex.toks[j], "(")) d++;
        if (punctIs(lex.toks[j], ")") && --d == 0) break;
      }
      if (j < lex.toks.size()) {
        pragmas.push_back(t.begin);
        i = j;
        continue;
      }
    }
    live.push_back(unsigned(i));
  }
  const size_t n = live.size();
  auto rt = [&](size_t i) -> const RawTok & { return lex.toks[live[i]]; };
  std::vector<int> kind(n);
  std::vector<std::string_view> spell(n);
  for (size_t i = 0; i < n; i++) {
    spell[i] = spellingOf(splice, rt(i));
    kind[i] = baseKind(rt(i), spell[i]);
    if (attr[live[i]] == kAttrMarker) kind[i] = K::WUC_FAIR;
  }

  // Brackets: a closer pairs with the innermost opener only if they agree;
  // anything else stays unmatched and the grammar reports it.
  std::vector<int> match(n, -1);
  std::vector<unsigned> stack;
  for (size_t i = 0; i < n; i++) {
    if (isOpen(kind[i])) {
      if (stack.size() >= kMaxNesting) {
        diags.push_back({rt(i).begin, format(msg::NestingTooDeep, std::to_string(kMaxNesting))});
        return false;
      }
      stack.push_back(unsigned(i));
    } else if (isClose(kind[i]) && !stack.empty() && closes(kind[stack.back()], kind[i])) {
      match[i] = int(stack.back());
      match[stack.back()] = int(i);
      stack.pop_back();
    }
  }

  // `when` is the guard keyword only where a guard can start: never after
  // `.` or `->` (a member, a designator), and elsewhere only before `(`, or
  // at the start of a statement or clause when no operator that continues
  // an expression follows (`when = 1;`, `when++`, `when.x` use a name).
  for (size_t i = 0; i < n; i++) {
    if (kind[i] != K::WHEN) continue;
    const RawTok *prev = i > 0 ? &rt(i - 1) : nullptr;
    const int pk = i > 0 ? kind[i - 1] : K::SEMI;
    const std::string_view ps = i > 0 ? spell[i - 1] : std::string_view();
    bool guard;
    if (prev && (punctIs(*prev, ".") || punctIs(*prev, "->"))) {
      guard = false;
    } else if (i + 1 < n && kind[i + 1] == K::LPAREN) {
      guard = true;
    } else {
      static const char *const kContinues[] = {"=",  "+=", "-=", "*=", "/=",  "%=",
                                               "&=", "|=", "^=", ";",  ",",   ".",
                                               "->", "[",  "++", "--", "<<=", ">>="};
      bool continues = false;
      if (i + 1 < n)
        for (const char *p : kContinues) continues |= punctIs(rt(i + 1), p);
      const bool boundary = pk == K::SEMI || pk == K::LBRACE || pk == K::RBRACE ||
                            pk == K::RPAREN || pk == K::COLON || pk == K::ELSE || pk == K::DO ||
                            pk == K::OROR || pk == K::ANDAND || ps == "or" || ps == "and";
      guard = boundary && !continues;
    }
    if (!guard) kind[i] = K::IDENT;
  }

  // A `{` is a block (not an initializer or a struct body) when a `;` or a
  // keyword that only begins a statement stands directly inside it: so the
  // block behind a loop macro, `REPEAT (3) { waituntil ... }`, is searched.
  std::vector<bool> block(n, false);
  stack.clear();
  for (size_t i = 0; i < n; i++) {
    if ((kind[i] == K::SEMI || startsStatement(kind[i])) && !stack.empty() &&
        kind[stack.back()] == K::LBRACE)
      block[stack.back()] = true;
    if (isOpen(kind[i]) && match[i] > int(i)) {
      stack.push_back(unsigned(i));
    } else if (isClose(kind[i]) && match[i] >= 0 && !stack.empty()) {
      const unsigned open = stack.back();
      stack.pop_back();
      // Braces whose only content is a block are a block too (`M(x) { { ... } }`).
      if (kind[open] == K::LBRACE && block[open] && !stack.empty() &&
          kind[stack.back()] == K::LBRACE)
        block[stack.back()] = true;
    }
  }

  // A `(` is a waituntil group when `(`s and then waituntil/when/else follow.
  std::vector<bool> group(n + 1, false);
  for (size_t i = n; i-- > 0;) {
    if (kind[i] != K::LPAREN || i + 1 >= n) continue;
    int k = kind[i + 1];
    group[i] = k == K::WAITUNTIL || k == K::WHEN || k == K::ELSE || group[i + 1];
  }

  // `extern "C" {` ... `}` at file scope (headers written for C++ too):
  // the braces are no scope, so the parser does not see them.
  // (`namespace a::b {` too: a header shared with C++ may wrap its C++
  // part so.)  Returns where the specification starts, or i.
  std::vector<bool> drop(n, false);
  auto linkageStart = [&](size_t i) {
    if (i > 1 && rt(i - 1).kind == RawKind::String && spell[i - 2] == "extern") return i - 2;
    size_t j = i;
    while (j > 0 && (kind[j - 1] == K::IDENT || spell[j - 1] == "::") &&
           spell[j - 1] != "namespace")
      j--;
    return j > 0 && spell[j - 1] == "namespace" ? j - 1 : i;
  };

  // `M (...)` at the start of a statement and followed by a keyword that
  // begins one (not `else`, `case`, `default`): a macro expanding to a
  // statement's head, such as a loop.  The start of a statement: after `;`,
  // a brace, a label's `:`, `else`, `do`, or the header of if/while/for/switch.
  auto macroHead = [&](size_t i) {
    if (i + 1 >= n || kind[i + 1] != K::LPAREN || match[i + 1] <= int(i + 1)) return false;
    if (spell[i] == "or" || spell[i] == "and") return false;
    const size_t after = size_t(match[i + 1]) + 1;
    if (after >= n) return false;
    const int a = kind[after];
    if (!startsStatement(a) || a == K::ELSE || a == K::CASE || a == K::DEFAULT) return false;
    if (i == 0) return true;
    const int p = kind[i - 1];
    if (p == K::RPAREN && match[i - 1] > 0) {
      const int h = kind[size_t(match[i - 1] - 1)];
      return h == K::IF || h == K::WHILE || h == K::FOR || h == K::SWITCH;
    }
    return p == K::SEMI || p == K::LBRACE || p == K::RBRACE || p == K::COLON || p == K::ELSE ||
           p == K::DO;
  };

  std::vector<Tok> all(n);
  unsigned depth = 0;
  bool sawAssign = false; // an `=` at file scope in this external declaration
  for (size_t i = 0; i < n; i++) {
    int k = kind[i];
    int next = i + 1 < n ? kind[i + 1] : 0;
    std::string_view s = spell[i];
    if (k == K::LPAREN) {
      if (next == K::LBRACE)
        k = K::SE_LPAREN;
      else if (group[i])
        k = K::WU_LPAREN;
    } else if (k == K::IDENT) {
      bool nextGroup = i + 1 < n && group[i + 1];
      if ((s == "or" || s == "and") && next != K::COLON) {
        bool isOr = s == "or";
        if (next == K::WAITUNTIL || next == K::WHEN || next == K::ELSE || nextGroup)
          k = isOr ? K::OR_OP : K::AND_OP;
        else if (next == K::LPAREN)
          k = isOr ? K::OR_PAREN : K::AND_PAREN;
      } else if (s == "asm" || s == "__asm__" || s == "__asm") {
        size_t j = i + 1;
        while (j < n && (kind[j] == K::IDENT || kind[j] == K::GOTO) && isAsmQualifier(spell[j]))
          j++;
        if (j < n && kind[j] == K::LPAREN) k = K::ASM;
      }
      if (k == K::IDENT && next == K::COLON) k = K::IDENT_COLON;
      if (k == K::IDENT && macroHead(i)) k = K::MACRO_CALL;
    } else if (k == K::LBRACE && depth == 0 && match[i] >= 0 && linkageStart(i) < i) {
      for (size_t j = linkageStart(i); j <= i; j++) drop[j] = true;
      drop[size_t(match[i])] = true;
      sawAssign = false;
      continue; // not a bracket for the depth count either
    } else if (k == K::LBRACE && depth == 0 && i > 0 && kind[i - 1] == K::RPAREN && !sawAssign) {
      // A function body: `{` right after a declarator's `)` (or after
      // __attribute__((...))), unless those are the attributes of a struct,
      // union or enum being defined.
      bool tagAttributes = false;
      int open = match[i - 1];
      if (open > 0 && isAttribute(spell[size_t(open - 1)])) {
        int j = open - 1; // the attribute keyword
        while (j > 0 && kind[size_t(j - 1)] == K::RPAREN && match[size_t(j - 1)] > 0 &&
               isAttribute(spell[size_t(match[size_t(j - 1)] - 1)]))
          j = match[size_t(j - 1)] - 1;
        if (j > 0 && isTagKeyword(spell[size_t(j - 1)])) tagAttributes = true;
        if (j > 1 && kind[size_t(j - 1)] == K::IDENT && isTagKeyword(spell[size_t(j - 2)]))
          tagAttributes = true;
      }
      if (!tagAttributes) k = K::FUNC_LBRACE;
    }
    if (k == K::LBRACE && block[i]) k = K::BLOCK_LBRACE;
    if (k == K::RBRACE && match[i] >= 0 && all[size_t(match[i])].kind == K::BLOCK_LBRACE &&
        (startsStatement(next) || (next == K::IDENT && macroHead(i + 1))))
      k = K::BLOCK_RBRACE;
    all[i].kind = k;
    all[i].raw = live[i];

    // File-scope bookkeeping for the next function-body decision.
    if (drop[i]) {
      sawAssign = false; // the `}` of a linkage specification
    } else if (isOpen(kind[i])) {
      depth++;
    } else if (isClose(kind[i]) && match[i] >= 0) {
      depth--;
      if (depth == 0 && all[size_t(match[i])].kind == K::FUNC_LBRACE) sawAssign = false;
    } else if (depth == 0 && kind[i] == K::SEMI) {
      sawAssign = false;
    } else if (depth == 0 && punctIs(rt(i), "=")) {
      sawAssign = true;
    }
  }

  // The parser's tokens: all but the dropped ones, brackets re-paired.
  // An external declaration ends with a `;` at file scope or with the `}`
  // of a function body.
  std::vector<int> index(n, -1);
  out.clear();
  out.reserve(n);
  externalDecls.clear();
  bool startsDecl = true;
  depth = 0;
  for (size_t i = 0; i < n; i++) {
    if (drop[i]) continue;
    index[i] = int(out.size());
    if (startsDecl) externalDecls.push_back(int(out.size()));
    out.push_back(all[i]);
    startsDecl = false;
    if (isOpen(kind[i])) {
      depth++;
    } else if (isClose(kind[i]) && match[i] >= 0) {
      depth--;
      startsDecl = depth == 0 && all[size_t(match[i])].kind == K::FUNC_LBRACE;
    } else if (depth == 0 && kind[i] == K::SEMI) {
      startsDecl = true;
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (index[i] < 0) continue;
    int m = match[i];
    out[size_t(index[i])].match = m >= 0 && !drop[size_t(m)] ? index[size_t(m)] : -1;
  }
  return true;
}

// A directive between the clauses of a statement (or in a guard or an
// operand) would make the clauses depend on the preprocessor, which runs
// after wucc: refused at the directive.  Inside a body it is copied with it.
void checkDirectives(ParseContext &ctx) {
  // Where each directive and each `_Pragma` starts, in source order.
  using Mark = std::pair<unsigned, const char *>; // offset, message
  std::vector<Mark> marks;
  for (const Directive &d : ctx.lex.directives)
    marks.push_back({ctx.splice.orig(d.cbegin), msg::DirectiveInStatement});
  for (unsigned p : ctx.pragmas) marks.push_back({p, msg::PragmaInStatement});
  if (marks.empty()) return;
  auto before = [](const Mark &x, const Mark &y) { return x.first < y.first; };
  std::stable_sort(marks.begin(), marks.end(), before);
  for (const WaitUntil &w : ctx.out.statements) {
    auto d = std::lower_bound(marks.begin(), marks.end(), Mark{w.range.begin, nullptr}, before);
    for (; d != marks.end() && d->first < w.range.end; ++d) {
      const unsigned at = d->first;
      auto inBody = [&](Range body) { return body.begin <= at && at < body.end; };
      bool ok = w.elseBranch.present && inBody(w.elseBranch.body);
      // Bodies are in source order: the last one starting at or before `at`.
      auto c = std::upper_bound(w.clauses.begin(), w.clauses.end(), at,
                                [](unsigned off, const Clause &cl) { return off < cl.body.begin; });
      if (c != w.clauses.begin() && inBody((c - 1)->body)) ok = true;
      if (!ok) ctx.error(at, d->second);
    }
  }
}

// A waituntil statement in a GCC nested function (`int f(void) { ... }`
// inside another function's body) is refused, at the first one in each:
// Clang, which the semantic pass uses, does not accept nested functions.
// A nested function is a `{` in a body right after `T name (...)` (and any
// attributes): a type word or `*` before the name tells it from a loop
// macro, `REPEAT (3) {`.
void checkNestedFunctions(ParseContext &ctx) {
  if (ctx.out.statements.empty()) return;
  struct Nested {
    Range range;
    std::string name;
  };
  std::vector<Nested> nested;
  const int n = int(ctx.toks.size());
  auto kind = [&](int i) { return ctx.toks[unsigned(i)].kind; };
  auto match = [&](int i) { return ctx.toks[unsigned(i)].match; };
  int funcEnd = -1; // the `}` of the function being walked
  for (int i = 0; i < n; i++) {
    const int k = kind(i);
    if (k == K::FUNC_LBRACE) {
      funcEnd = match(i);
      continue;
    }
    if (i >= funcEnd || (k != K::LBRACE && k != K::BLOCK_LBRACE) || match(i) < 0) continue;
    int j = i - 1;
    while (j > 0 && kind(j) == K::RPAREN && match(j) > 0 &&
           (isAttribute(ctx.spelling(match(j) - 1)) || ctx.spelling(match(j) - 1) == "__asm__" ||
            ctx.spelling(match(j) - 1) == "asm"))
      j = match(j) - 2;
    if (j < 2 || kind(j) != K::RPAREN || match(j) < 2) continue;
    const int open = match(j);
    const bool typed = kind(open - 2) == K::IDENT || punctIs(ctx.raw(open - 2), "*");
    if (kind(open - 1) != K::IDENT || !typed) continue;
    nested.push_back({{ctx.begin(i), ctx.end(match(i))}, std::string(ctx.spelling(open - 1))});
  }
  // Each statement belongs to the innermost nested function around it (the
  // last one starting before it that contains it); one error per function.
  std::vector<bool> reported(nested.size(), false);
  for (const WaitUntil &w : ctx.out.statements) {
    for (size_t f = nested.size(); f-- > 0;) {
      const Nested &fn = nested[f];
      if (fn.range.begin > w.range.begin || w.range.begin >= fn.range.end) continue;
      if (!reported[f])
        ctx.error(w.range.begin,
                  format(msg::NestedFunction, printable(fn.name), printable(fn.name)));
      reported[f] = true;
      break;
    }
  }
}

Limits findLimits(const ParseContext &ctx) {
  Limits out;
  const auto &dirs = ctx.lex.directives;
  // A branch of a conditional: where its directive starts, which one it
  // is, and its brackets.
  struct Branch {
    unsigned at;
    std::string directive;
    int depth = 0;
    bool under = false; // closed a bracket opened before it
  };
  std::vector<Branch> open;
  auto check = [&](const Branch &b) {
    if ((b.depth != 0 || b.under) && (!out.branch || b.at < out.branch->at))
      out.branch = Limits::Branch{b.at, b.directive};
  };
  size_t t = 0;
  for (size_t d = 0; d <= dirs.size(); d++) {
    const unsigned upTo = d < dirs.size() ? ctx.splice.orig(dirs[d].cbegin) : ~0u;
    for (; t < ctx.toks.size() && ctx.begin(int(t)) < upTo; t++) {
      if (open.empty()) continue;
      const RawTok &r = ctx.raw(int(t));
      if (r.kind != RawKind::Punct) continue;
      const char c = r.punct[0];
      if ((c == '(' || c == '[' || c == '{') && r.punct[1] == 0) open.back().depth++;
      if ((c == ')' || c == ']' || c == '}') && --open.back().depth < 0) {
        open.back().under = true;
        open.back().depth = 0;
      }
    }
    if (d == dirs.size()) break;
    LexOutput lx;
    const unsigned from = dirs[d].cbegin + (ctx.splice.clean()[dirs[d].cbegin] == '#' ? 1 : 2);
    if (!scanRange(ctx.splice, from, dirs[d].cend, lx) || lx.toks.empty()) continue;
    const std::string name(spellingOf(ctx.splice, lx.toks[0]));
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      open.push_back({upTo, "#" + name});
    } else if (name == "elif" || name == "elifdef" || name == "elifndef" || name == "else") {
      if (open.empty()) continue;
      check(open.back());
      open.back() = {upTo, "#" + name};
    } else if (name == "endif") {
      if (open.empty()) continue;
      check(open.back());
      open.pop_back();
    } else if (name == "define" && lx.toks.size() > 1 && lx.toks[1].kind == RawKind::Ident) {
      // The replacement list (after the parameters of a function-like macro).
      size_t k = 2;
      if (k < lx.toks.size() && lx.toks[k].cbegin == lx.toks[1].cend && punctIs(lx.toks[k], "(")) {
        while (k < lx.toks.size() && !punctIs(lx.toks[k], ")")) k++;
        k++;
      }
      int depth = 0;
      bool under = false;
      for (; k < lx.toks.size(); k++) {
        const RawTok &r = lx.toks[k];
        if (r.kind != RawKind::Punct) continue;
        const char c = r.punct[0];
        if ((c == '(' || c == '[' || c == '{') && r.punct[1] == 0) depth++;
        if ((c == ')' || c == ']' || c == '}') && --depth < 0) under = true;
      }
      if (depth != 0 || under) out.macros.insert(std::string(spellingOf(ctx.splice, lx.toks[1])));
    }
  }
  for (const Branch &b : open) check(b);
  return out;
}

namespace {

// The message for an unterminated literal (its spelling, prefix included).
const char *unterminatedMessage(std::string_view spelling) {
  return spelling.find('"') < spelling.find('\'') ? msg::UnterminatedString : msg::UnterminatedChar;
}

// Unterminated literals inside a waituntil statement are errors (at their
// opening quote); elsewhere they are the back end's business, as with GCC,
// which reads one as a token to the end of its line and accepts it in a
// skipped group (docs/language.md, 'Lexical additions').
void reportUnterminated(ParseContext &ctx) {
  // The union of the statements' ranges (sorted by begin; nested ones
  // lie inside their outer one).
  std::vector<Range> covered;
  for (const WaitUntil &w : ctx.out.statements) {
    if (!covered.empty() && w.range.begin < covered.back().end)
      covered.back().end = std::max(covered.back().end, w.range.end);
    else
      covered.push_back(w.range);
  }
  if (covered.empty()) return;
  for (const RawTok &t : ctx.lex.toks) {
    if (t.kind != RawKind::Unterminated) continue;
    auto c = std::upper_bound(covered.begin(), covered.end(), t.begin,
                              [](unsigned off, const Range &r) { return off < r.begin; });
    if (c != covered.begin() && t.begin < (c - 1)->end)
      ctx.error(t.begin, unterminatedMessage(spellingOf(ctx.splice, t)));
  }
}

} // namespace

} // namespace fe

bool parseSource(const SourceFile &file, DiagEngine &diags, FrontendResult &out) {
  out = FrontendResult{};
  unsigned errorsBefore = diags.errorCount();
  if (file.text().size() >= UINT_MAX / 2) {
    diags.error(0, format(msg::CannotRead, file.path(), "file too large"));
    return false;
  }
  fe::Splice splice(file.text());
  fe::LexOutput lex;
  if (!fe::scanFile(file, splice, diags, lex)) return false;

  std::vector<fe::PendingDiag> early;
  std::vector<fe::Tok> toks;
  std::vector<int> decls;
  std::vector<unsigned> pragmas;
  if (!fe::classifyTokens(splice, lex, early, toks, decls, pragmas)) {
    for (auto &d : early) diags.error(d.offset, d.message);
    return false;
  }

  // Parse one external declaration at a time.  A declaration the skeleton
  // grammar cannot parse is reported only if it holds a waituntil statement
  // (or a `when (`): anything else is plain C, copied through untouched, and
  // the back-end compiler is the judge of it (the skeleton may just not see
  // through a macro).  So an error stops only its own declaration.
  fe::ParseContext ctx(file, splice, lex, std::move(toks), out);
  ctx.externalDecls = decls;
  ctx.diags = std::move(early); // misplaced [[wuc::...]] markers
  ctx.pragmas = std::move(pragmas);
  decls.push_back(int(ctx.toks.size()));
  bool failed = false, branchFailed = false;
  std::optional<fe::Limits> limits;
  for (size_t d = 0; d + 1 < decls.size(); d++) {
    const size_t first = size_t(decls[d]), last = size_t(decls[d + 1]);
    ctx.next = first;
    ctx.limit = last;
    ctx.syntaxFailed = false;
    ctx.nodes.clear();
    const size_t stmtsBefore = out.statements.size(), diagsBefore = ctx.diags.size();
    fe::Parser parser(ctx);
    if (parser.parse() != 0) ctx.syntaxFailed = true;
    if (!ctx.syntaxFailed) continue;
    out.statements.resize(stmtsBefore);
    bool ours = false;
    for (size_t i = first; i < last && !ours; i++) {
      int k = ctx.toks[i].kind;
      ours = k == fe::Parser::token::WAITUNTIL || k == fe::Parser::token::WUC_FAIR ||
             (k == fe::Parser::token::WHEN && i + 1 < last && ctx.raw(int(i + 1)).punct &&
              ctx.raw(int(i + 1)).punct[0] == '(');
    }
    if (!ours) {
      ctx.diags.resize(diagsBefore);
      continue;
    }
    failed = true;
    // An unterminated literal in it (it ran to the end of its line) is
    // the likely cause: said instead of the syntax error.
    size_t bad = first;
    while (bad < last && ctx.raw(int(bad)).kind != fe::RawKind::Unterminated) bad++;
    if (bad < last) {
      ctx.diags.resize(diagsBefore);
      ctx.error(ctx.begin(int(bad)), fe::unterminatedMessage(ctx.spelling(int(bad))));
      continue;
    }
    // What the skeleton cannot see through (a conditional whose branches
    // balance only together, a macro that opens a bracket) is said as such.
    // (A branch after the error cannot have caused it.)
    const unsigned errorAt =
        ctx.diags.size() > diagsBefore ? ctx.diags[diagsBefore].offset : ctx.end(int(last - 1));
    if (!limits) limits = fe::findLimits(ctx);
    if (limits->branch && limits->branch->at < errorAt) {
      ctx.diags.resize(diagsBefore); // reported once, at the branch, below
      branchFailed = true;
      continue;
    }
    for (size_t i = first; i < last; i++) {
      if (ctx.toks[i].kind != fe::Parser::token::IDENT &&
          ctx.toks[i].kind != fe::Parser::token::MACRO_CALL)
        continue;
      auto m = limits->macros.find(std::string(ctx.spelling(int(i))));
      if (m == limits->macros.end()) continue;
      ctx.diags.resize(diagsBefore);
      ctx.error(ctx.begin(int(i)), format(msg::UnbalancedMacro, printable(*m)));
      break;
    }
  }
  if (branchFailed)
    ctx.error(limits->branch->at, format(msg::UnbalancedBranch, limits->branch->directive));
  // Nested statements finish first: order them by their first token.
  std::stable_sort(
      out.statements.begin(), out.statements.end(),
      [](const WaitUntil &a, const WaitUntil &b) { return a.range.begin < b.range.begin; });
  for (size_t i = 0; i < out.statements.size(); i++) out.statements[i].id = unsigned(i);
  fe::reportUnterminated(ctx);
  fe::checkDirectives(ctx);
  fe::checkNestedFunctions(ctx);
  if (!failed) fe::collectEdits(ctx);

  std::stable_sort(
      ctx.diags.begin(), ctx.diags.end(),
      [](const fe::PendingDiag &a, const fe::PendingDiag &b) { return a.offset < b.offset; });
  for (auto &d : ctx.diags) diags.error(d.offset, d.message);
  if (diags.errorCount() == errorsBefore) fe::warnBareDurations(ctx, diags);
  return diags.errorCount() == errorsBefore;
}

} // namespace wuc
