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
#include "clause_bodies.h"

#include <cstring>

#include "lexer.h"
#include "messages.h"

namespace wuc {

static void checkNesting(const FrontendResult &fe, DiagEngine &diags) {
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
  for (size_t i = 0; i + 1 < toks.size(); i++) {
    const fe::RawTok &t = toks[i], &next = toks[i + 1];
    if (t.kind != fe::RawKind::Ident || file.slice({t.begin, t.end}) != "goto") continue;
    if (next.kind != fe::RawKind::Punct || std::strcmp(next.punct, "*") != 0) continue;
    for (const Range &b : bodies) {
      if (t.begin >= b.begin && t.end <= b.end) {
        diags.error(t.begin, msg::ComputedGotoInBody);
        break;
      }
    }
  }
}

} // namespace wuc
