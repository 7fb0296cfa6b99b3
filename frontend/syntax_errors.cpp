// syntax_errors.cpp — what to say when the grammar stops: the waituntil
// statement's own messages where the tokens around the error identify the
// misuse (docs/language.md §7), else "expected X before 'y'".
#include <algorithm>
#include <cctype>

#include "frontend_internal.h"
#include "messages.h"
#include "parser.hpp"
#include "quote.h"

namespace wuc::fe {

namespace {

using S = Parser::symbol_kind;
using K = Parser::token;

// A token's text for a message: short, printable.
std::string display(std::string_view s) {
  std::string out = printable(s.substr(0, 40));
  if (s.size() > 40) out += "...";
  return out;
}

bool isOperator(int tokKind) {
  return tokKind == K::OR_OP || tokKind == K::OR_PAREN || tokKind == K::OROR ||
         tokKind == K::AND_OP || tokKind == K::AND_PAREN || tokKind == K::ANDAND;
}

} // namespace

std::string ParseContext::tokenName(int kind) const {
  switch (kind) {
  case S::S_YYEOF:
    return "end of input";
  case S::S_IDENT:
  case S::S_IDENT_COLON:
  case S::S_MACRO_CALL:
    return "an identifier";
  case S::S_OTHER:
    return "an expression";
  case S::S_LPAREN:
  case S::S_SE_LPAREN:
  case S::S_WU_LPAREN:
    return "'('";
  case S::S_RPAREN:
    return "')'";
  case S::S_LBRACK:
    return "'['";
  case S::S_RBRACK:
    return "']'";
  case S::S_LBRACE:
  case S::S_BLOCK_LBRACE:
  case S::S_FUNC_LBRACE:
    return "'{'";
  case S::S_RBRACE:
  case S::S_BLOCK_RBRACE:
    return "'}'";
  case S::S_SEMI:
    return "';'";
  case S::S_COLON:
    return "':'";
  case S::S_QUESTION:
    return "'?'";
  case S::S_OROR:
    return "'||'";
  case S::S_ANDAND:
    return "'&&'";
  case S::S_OR_OP:
  case S::S_OR_PAREN:
    return "'or'";
  case S::S_AND_OP:
  case S::S_AND_PAREN:
    return "'and'";
  case S::S_WAITUNTIL:
    return "'waituntil'";
  case S::S_WHEN:
    return "'when'";
  case S::S_WUC_FAIR:
    return "'[[wuc::fair]]'";
  default: {
    // The keywords: named as C spells them (the grammar's names are upper case).
    std::string name = Parser::symbol_name(Parser::symbol_kind_type(kind));
    for (char &c : name) c = char(std::tolower((unsigned char)c));
    return "'" + name + "'";
  }
  }
}

void ParseContext::syntaxError(int lookahead, const std::vector<int> &expected) {
  syntaxFailed = true;
  const bool atEnd = lookahead == S::S_YYEOF;
  const int la = atEnd ? int(limit) : int(next) - 1; // the lookahead token
  // The end of the declaration is the end of input only at the file's end.
  const unsigned at = la < int(toks.size()) ? begin(la) : unsigned(file.text().size());
  const std::string laText = atEnd ? std::string() : display(spelling(la));
  const int prev = la - 1;
  const int prevKind = prev >= 0 ? toks[unsigned(prev)].kind : 0;
  // The keyword before a `(` (waituntil, when, closed...), or -1.
  auto keywordBefore = [&](int open) { return open > 0 ? toks[unsigned(open - 1)].kind : -1; };
  auto isEmptyParens = [&](int i) {
    return !atEnd && toks[unsigned(i)].kind == K::LPAREN && toks[unsigned(i)].match == i + 1;
  };
  auto has = [&](int kind) {
    return std::find(expected.begin(), expected.end(), kind) != expected.end();
  };
  const bool wantsStatement = has(S::S_IF) || has(S::S_WAITUNTIL);

  // The waituntil statement's misuses.
  if (prevKind == K::RPAREN) {
    int open = toks[unsigned(prev)].match;
    if (open >= 0 && keywordBefore(open) == K::WAITUNTIL && wantsStatement) {
      error(at, msg::ClauseNoStatement);
      return;
    }
    if (open >= 0 && keywordBefore(open) == K::WHEN) {
      error(at, isEmptyParens(la) ? msg::EmptyParens : msg::WhenWithoutClause);
      return;
    }
  }
  if (prevKind == K::ELSE && wantsStatement && prev > 0) {
    int before = toks[unsigned(prev - 1)].kind;
    bool wuElse = isOperator(before) || before == K::WU_LPAREN;
    if (before == K::RPAREN) {
      int open = toks[unsigned(prev - 1)].match;
      wuElse = open >= 0 && keywordBefore(open) == K::WHEN;
    }
    if (wuElse) {
      error(at, msg::ElseNoStatement);
      return;
    }
  }
  // `waituntil x << c`: a word after `waituntil` is taken for a family's
  // joining word (`waituntil and for`) until the token after it.
  if ((prevKind == K::IDENT || prevKind == K::OROR || prevKind == K::ANDAND) && prev > 0 &&
      toks[unsigned(prev - 1)].kind == K::WAITUNTIL) {
    error(begin(prev), format(msg::ExpectedLParenAfter, "waituntil"));
    return;
  }
  if (prevKind == K::WAITUNTIL || prevKind == K::WHEN) {
    error(at, format(msg::ExpectedLParenAfter, prevKind == K::WAITUNTIL ? "waituntil" : "when"));
    return;
  }
  if (isOperator(prevKind) && (has(S::S_WAITUNTIL) || has(S::S_WU_LPAREN))) {
    error(at, isEmptyParens(la) ? std::string(msg::EmptyParens)
                                : format(msg::ExpectedClauseAfter, std::string(spelling(prev))));
    return;
  }

  // Plain C.
  if (lookahead == S::S_ELSE) {
    error(at, msg::ElseWithoutIf);
    return;
  }
  if ((lookahead == S::S_WAITUNTIL || lookahead == S::S_WHEN) && !wantsStatement) {
    error(at, format(msg::KeywordNotStatement, laText));
    return;
  }
  if (!atEnd &&
      (lookahead == S::S_RPAREN || lookahead == S::S_RBRACK || lookahead == S::S_RBRACE) &&
      toks[unsigned(la)].match < 0) {
    error(at, format(msg::UnmatchedClose, laText));
    return;
  }
  std::string what;
  if (atEnd && (has(S::S_RBRACE) || has(S::S_RPAREN) || has(S::S_RBRACK))) {
    what = has(S::S_RBRACE) ? "'}'" : has(S::S_RPAREN) ? "')'" : "']'"; // what is still open
  } else if (has(S::S_SEMI) && !wantsStatement) {
    what = "';'";
  } else if (wantsStatement) {
    what = "a statement";
  } else {
    std::vector<std::string> names;
    for (int k : expected) {
      std::string name = tokenName(k);
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    if (!names.empty() && names.size() <= 3) {
      for (size_t i = 0; i < names.size(); i++)
        what += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    }
  }
  if (atEnd)
    error(at, what.empty() ? std::string(msg::UnexpectedEnd) : format(msg::ExpectedAtEnd, what));
  else
    error(at, what.empty() ? format(msg::UnexpectedToken, laText)
                           : format(msg::ExpectedBefore, what, laText));
}

} // namespace wuc::fe
