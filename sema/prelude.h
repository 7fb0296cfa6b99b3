// prelude.h — the wuc headers a dialect file gets, and where (docs/language.md,
// "Names and headers").
//
// Nothing is added at the top of a file: the file's first dialect construct
// (a waituntil statement, a channel(T) or future(T) type, a duration
// literal) gets the headers its constructs need, inserted at the start of
// the external declaration holding it, as the frontend places the type
// definitions of channel(T) and future(T) (frontend/edits.cpp).  So the
// user's own feature macros (`#define _GNU_SOURCE`) and includes before that
// declaration come first.  The headers declare only reserved (`__wuc...`)
// and prefixed (`wuc_...`, `WUC_...`) names and include no system header.
//
// The lowering (lowering/lower.cpp) and the semantic pass's probe
// (sema/probe.cpp) both insert the prelude, so Clang sees the program the
// back end compiles.  Header-only: the lowering does not link the semantic
// pass.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "ast.h"
#include "diag.h"
#include "frontend_internal.h"
#include "lexer.h"

namespace wuc {

struct Prelude {
  bool present = false;
  unsigned offset = 0;               // where it goes in the original text
  std::vector<const char *> headers; // <wuc/...> names, in include order
  // The #include lines (the caller adds the #line that follows).
  std::string text() const {
    std::string t;
    for (const char *h : headers) t += std::string("#include <") + h + ">\n";
    return t;
  }
};

// The prelude of a file the frontend parsed without errors; !present for
// plain C.
inline Prelude dialectPrelude(const SourceFile &file, const FrontendResult &fe) {
  Prelude p;
  bool statements = !fe.statements.empty(), channels = false, futures = false, durations = false;
  unsigned first = statements ? fe.statements.front().range.begin : ~0u;
  for (const Edit &e : fe.edits) {
    // A type's definition goes with (before) the use its replacement marks.
    if (e.kind == Edit::TypeDefinition) continue;
    channels |= e.kind == Edit::ChannelType;
    futures |= e.kind == Edit::FutureType;
    durations |= e.kind == Edit::Duration;
    first = std::min(first, e.range.begin);
  }
  if (first == ~0u) return p;
  p.present = true;
  // Durations need <wuc/time.h>, which each of the others includes.
  if (durations && !statements && !channels && !futures) p.headers.push_back("wuc/time.h");
  if (channels) p.headers.push_back("wuc/channel.h");
  if (futures) p.headers.push_back("wuc/future.h");
  if (statements) p.headers.push_back("wuc/waituntil.h");
  // readable(fd) / writable(fd) need <wuc/fd.h>, which <wuc.h> does not include.
  bool fds = false;
  for (const WaitUntil &w : fe.statements)
    for (const Clause &c : w.clauses)
      fds |= c.form == ClauseForm::Readable || c.form == ClauseForm::Writable;
  if (fds) p.headers.push_back("wuc/fd.h");

  // The external declarations, as the frontend finds them.
  fe::Splice splice(file.text());
  fe::LexOutput lex;
  DiagEngine quiet(file);
  std::vector<fe::PendingDiag> early;
  std::vector<fe::Tok> toks;
  std::vector<int> decls;
  std::vector<unsigned> pragmas;
  if (!fe::scanFile(file, splice, quiet, lex) ||
      !fe::classifyTokens(splice, lex, early, toks, decls, pragmas) || decls.empty()) {
    p.offset = 0;
    return p;
  }
  auto beginOf = [&](int d) { return lex.toks[toks[size_t(decls[size_t(d)])].raw].begin; };
  // The token at `first`: there, the declaration holding it; a construct
  // in a #define's replacement list is no token of the file: the first
  // declaration after it (where the macro can first be used).
  auto tok = std::lower_bound(toks.begin(), toks.end(), first, [&](const fe::Tok &t, unsigned o) {
    return lex.toks[t.raw].begin < o;
  });
  const bool inCode = tok != toks.end() && lex.toks[tok->raw].begin == first;
  int d = -1;
  for (int k = 0; k < int(decls.size()); k++) {
    if (inCode ? beginOf(k) <= first : beginOf(k) >= first) {
      d = k;
      if (!inCode) break;
    } else if (inCode) {
      break;
    }
  }
  if (d >= 0) {
    p.offset = beginOf(d);
  } else {
    // No declaration after the directive: before the directive's line.
    unsigned at = std::min(first, unsigned(file.text().size()));
    while (at > 0 && file.text()[at - 1] != '\n') at--;
    p.offset = at;
  }
  return p;
}

// Adds the prelude to `edits` (sorted by begin, as FrontendResult::edits) as
// a TypeDefinition insertion: before the edits at its offset, joined with a
// type definition already inserted there.
inline void insertPrelude(const Prelude &p, std::vector<Edit> &edits) {
  if (!p.present) return;
  auto at = std::lower_bound(edits.begin(), edits.end(), p.offset,
                             [](const Edit &e, unsigned o) { return e.range.begin < o; });
  if (at != edits.end() && at->kind == Edit::TypeDefinition && at->range.begin == p.offset) {
    at->text.insert(0, p.text());
    return;
  }
  edits.insert(at, Edit{Edit::TypeDefinition, {p.offset, p.offset}, p.text()});
}

} // namespace wuc
