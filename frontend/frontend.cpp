// frontend.cpp — parseSource: scan, classify tokens, parse, collect edits.
#include "frontend.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include "frontend_internal.h"
#include "messages.h"
#include "parser.hpp"

namespace wuc {

namespace fe {
namespace {

using K = Parser::token;

// Brackets nested deeper than this are refused: nothing realistic comes
// close (clang's default limit is 256), and it bounds every recursion in
// the frontend and in what consumes its AST.
constexpr unsigned kMaxNesting = 4096;

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
         k == K::CONTINUE || k == K::RETURN || k == K::WAITUNTIL || k == K::WHEN;
}

bool isOpen(int k) { return k == K::LPAREN || k == K::LBRACK || k == K::LBRACE; }
bool isClose(int k) { return k == K::RPAREN || k == K::RBRACK || k == K::RBRACE; }
bool closes(int open, int close) {
  return (open == K::LPAREN && close == K::RPAREN) || (open == K::LBRACK && close == K::RBRACK) ||
         (open == K::LBRACE && close == K::RBRACE);
}

} // namespace

std::string_view spellingOf(const Splice &splice, const RawTok &t) {
  return std::string_view(splice.clean()).substr(t.cbegin, t.cend - t.cbegin);
}

// The token filter: classifies every raw token for the grammar, resolving
// with lookahead what LALR(1) cannot (parser.y lists the classes).
bool classifyTokens(const Splice &splice, const LexOutput &lex, std::vector<PendingDiag> &diags,
                    std::vector<Tok> &out, std::vector<int> &externalDecls) {
  const size_t n = lex.toks.size();
  std::vector<int> kind(n);
  std::vector<std::string_view> spell(n);
  for (size_t i = 0; i < n; i++) {
    spell[i] = spellingOf(splice, lex.toks[i]);
    kind[i] = baseKind(lex.toks[i], spell[i]);
  }

  // Brackets: a closer pairs with the innermost opener only if they agree;
  // anything else stays unmatched and the grammar reports it.
  std::vector<int> match(n, -1);
  std::vector<bool> block(n, false); // a `{` with a `;` directly inside
  std::vector<unsigned> stack;
  for (size_t i = 0; i < n; i++) {
    if (kind[i] == K::SEMI && !stack.empty() && kind[stack.back()] == K::LBRACE)
      block[stack.back()] = true;
    if (isOpen(kind[i])) {
      if (stack.size() >= kMaxNesting) {
        diags.push_back(
            {lex.toks[i].begin, format(msg::NestingTooDeep, std::to_string(kMaxNesting))});
        return false;
      }
      stack.push_back(unsigned(i));
    } else if (isClose(kind[i]) && !stack.empty() && closes(kind[stack.back()], kind[i])) {
      match[i] = int(stack.back());
      match[stack.back()] = int(i);
      stack.pop_back();
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
    if (i > 1 && lex.toks[i - 1].kind == RawKind::String && spell[i - 2] == "extern") return i - 2;
    size_t j = i;
    while (j > 0 && (kind[j - 1] == K::IDENT || spell[j - 1] == "::") &&
           spell[j - 1] != "namespace")
      j--;
    return j > 0 && spell[j - 1] == "namespace" ? j - 1 : i;
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
        startsStatement(next))
      k = K::BLOCK_RBRACE;
    all[i].kind = k;
    all[i].raw = unsigned(i);

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
    } else if (depth == 0 && punctIs(lex.toks[i], "=")) {
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
  for (Tok &t : out) {
    int m = match[t.raw];
    t.match = m >= 0 && !drop[size_t(m)] ? index[size_t(m)] : -1;
  }
  return true;
}

// A directive between the clauses of a statement (or in a guard or an
// operand) would make the clauses depend on the preprocessor, which runs
// after wucc: refused at the directive.  Inside a body it is copied with it.
void checkDirectives(ParseContext &ctx) {
  const auto &dirs = ctx.lex.directives;
  if (dirs.empty()) return;
  for (const WaitUntil &w : ctx.out.statements) {
    auto d = std::lower_bound(
        dirs.begin(), dirs.end(), w.range.begin,
        [&](const Directive &x, unsigned b) { return ctx.splice.orig(x.cbegin) < b; });
    for (; d != dirs.end() && ctx.splice.orig(d->cbegin) < w.range.end; ++d) {
      unsigned at = ctx.splice.orig(d->cbegin);
      auto inBody = [&](Range body) { return body.begin <= at && at < body.end; };
      bool ok = w.elseBranch.present && inBody(w.elseBranch.body);
      // Bodies are in source order: the last one starting at or before `at`.
      auto c = std::upper_bound(w.clauses.begin(), w.clauses.end(), at,
                                [](unsigned off, const Clause &cl) { return off < cl.body.begin; });
      if (c != w.clauses.begin() && inBody((c - 1)->body)) ok = true;
      if (!ok) ctx.error(at, msg::DirectiveInStatement);
    }
  }
}

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
  if (!fe::classifyTokens(splice, lex, early, toks, decls)) {
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
  decls.push_back(int(ctx.toks.size()));
  bool failed = false;
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
      ours = k == fe::Parser::token::WAITUNTIL ||
             (k == fe::Parser::token::WHEN && i + 1 < last && ctx.raw(int(i + 1)).punct &&
              ctx.raw(int(i + 1)).punct[0] == '(');
    }
    if (ours)
      failed = true;
    else
      ctx.diags.resize(diagsBefore);
  }
  // Nested statements finish first: order them by their first token.
  std::stable_sort(
      out.statements.begin(), out.statements.end(),
      [](const WaitUntil &a, const WaitUntil &b) { return a.range.begin < b.range.begin; });
  for (size_t i = 0; i < out.statements.size(); i++) out.statements[i].id = unsigned(i);
  fe::checkDirectives(ctx);
  if (!failed) fe::collectEdits(ctx);

  std::stable_sort(
      ctx.diags.begin(), ctx.diags.end(),
      [](const fe::PendingDiag &a, const fe::PendingDiag &b) { return a.offset < b.offset; });
  for (auto &d : ctx.diags) diags.error(d.offset, d.message);
  return diags.errorCount() == errorsBefore;
}

} // namespace wuc
