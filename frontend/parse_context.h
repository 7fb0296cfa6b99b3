// parse_context.h — state shared by the Bison grammar's actions and the rest
// of the frontend (frontend-internal).
//
// The parser reads a vector of significant tokens that the token filter
// (frontend.cpp) has classified with lookahead; semantic values are token
// index ranges plus, for the waituntil grammar, indices into an arena of
// parse nodes that finishStatement() checks and turns into an ast.h WaitUntil.
#pragma once

#include <string>
#include <vector>

#include "ast.h"
#include "diag.h"
#include "lexer.h"

namespace wuc::fe {

// Semantic value: the first and last significant token of a construct, and
// for waituntil items the arena node.
struct Sem {
  int first = -1;
  int last = -1;
  int node = -1;
};

// A token as the parser sees it.
struct Tok {
  int kind = 0;     // the Bison token kind
  unsigned raw = 0; // index into LexOutput::toks
  // What an opening bracket is closed by (index into the significant
  // tokens), or -1 when unmatched; for a closing bracket, its opener.
  int match = -1;
};

// Parenthesised groups of clauses nest at most this deep in one statement
// (docs/language.md §7, GroupsNestedTooDeeply): the clause tree, its
// consumers and the size of the lowered C grow with it.
inline constexpr unsigned kMaxGroups = 4096;

// A waituntil item while its statement is being parsed.
struct PNode {
  enum Kind { Clause, Else, And, Or } kind = Clause;
  bool parenthesised = false; // written in parentheses (a group)
  unsigned groups = 0;        // groups nested in it, itself included
  int parenTok = -1;          // group: the opening parenthesis
  int first = -1, last = -1;  // extent, in tokens
  // Clause / Else:
  int keyword = -1;              // `waituntil` / `else`
  int opOpen = -1, opClose = -1; // waituntil's parentheses
  int bodyFirst = -1, bodyLast = -1;
  bool guarded = false;
  int when = -1, guardOpen = -1, guardClose = -1;
  // A clause family: its `for`, the header's parentheses, the joining
  // word (-1: none, `or`) and the per-element guard (-1: none).
  bool family = false;
  int familyJoin = -1, familyFor = -1, headerOpen = -1, headerClose = -1;
  int elemWhen = -1, elemGuardOpen = -1, elemGuardClose = -1;
  // And / Or:
  std::vector<int> kids;
};

// A diagnostic held back so that all of them come out in source order.
struct PendingDiag {
  unsigned offset;
  std::string message;
};

class ParseContext {
public:
  ParseContext(const SourceFile &file, const Splice &splice, const LexOutput &lex,
               std::vector<Tok> toks, FrontendResult &out)
      : file(file), splice(splice), lex(lex), toks(std::move(toks)), out(out) {}

  const SourceFile &file;
  const Splice &splice;
  const LexOutput &lex;
  std::vector<Tok> toks;
  FrontendResult &out;

  std::vector<PNode> nodes;
  std::vector<PendingDiag> diags;
  std::vector<int> externalDecls; // first token of each external declaration
  std::vector<unsigned> pragmas;  // where each `_Pragma (...)` starts (not in toks)
  size_t next = 0;                // the next token yylex returns
  size_t limit = 0;               // the end of the declaration being parsed
  bool syntaxFailed = false;

  // Token helpers.
  const RawTok &raw(int i) const { return lex.toks[toks[unsigned(i)].raw]; }
  unsigned begin(int i) const { return raw(i).begin; }
  unsigned end(int i) const { return raw(i).end; }
  std::string_view spelling(int i) const;
  // The byte range from token a's first byte to token b's last (empty at
  // `emptyAt` when b < a).
  Range span(int a, int b, unsigned emptyAt) const;
  void error(unsigned offset, std::string message) {
    diags.push_back({offset, std::move(message)});
  }

  // Grammar actions for the waituntil statement.
  int clause(int keyword, Sem parens, Sem body);
  int family(int keyword, Sem head, Sem when, Sem guard, Sem parens, Sem body);
  int elseItem(int keyword, Sem body);
  int guard(int when, Sem parens, int item);
  int join(PNode::Kind kind, int left, int right);
  int group(int open, int inner, int close);
  void finishStatement(Sem stmt, bool fair);

  // Bison's error report: chooses the message from the tokens around the
  // error (messages.h).
  void syntaxError(int lookahead, const std::vector<int> &expected);
  std::string tokenName(int kind) const;

private:
  void buildTree(int root, WaitUntil &w);
  // The and/or tree of node n, clauses numbered in source order.
  TreeNode convert(int n, WaitUntil &w);
  void family(const PNode &p, Clause &c);
};

} // namespace wuc::fe
