// frontend_internal.h — the frontend's passes, for frontend.cpp and the tests
// (frontend-internal).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lexer.h"
#include "parse_context.h"

namespace wuc::fe {

// A token's text with line continuations removed.
std::string_view spellingOf(const Splice &splice, const RawTok &t);

// The token filter: Bison token kinds for every raw token (parser.y), and
// where each external declaration starts (indices into `out`).  The tokens
// of `_Pragma (...)` are left out; `pragmas` gets where each one starts.
bool classifyTokens(const Splice &splice, const LexOutput &lex, std::vector<PendingDiag> &diags,
                    std::vector<Tok> &out, std::vector<int> &externalDecls,
                    std::vector<unsigned> &pragmas);

// Reports directives inside a statement but outside its bodies.
void checkDirectives(ParseContext &ctx);

// What the skeleton grammar cannot see through, to explain a syntax error:
// the first branch of a conditional (#if / #elif / #else) whose brackets do
// not balance within it, and the macros whose replacement lists do not.
struct Limits {
  struct Branch {
    unsigned at;           // the directive's `#`
    std::string directive; // "#ifdef", "#else"...
  };
  std::optional<Branch> branch;
  std::set<std::string> macros;
};
Limits findLimits(const ParseContext &ctx);

// Reports waituntil statements inside GCC nested functions.
void checkNestedFunctions(ParseContext &ctx);

// channel(T), future(T) and duration literals (edits.cpp), after a
// successful parse: needs the external declarations.
void collectEdits(ParseContext &ctx);

// Warns of a bare integer where a duration is expected: `timeout(2)` in a
// clause, `uthread_sleep(1)` (bare_durations.cpp).
void warnBareDurations(const ParseContext &ctx, DiagEngine &diags);

// The text of `file` with each use of a macro of its own whose replacement
// list holds a waituntil statement or a channel(T)/future(T) of a parameter
// expanded in place, on the use's first line (macros.cpp; the text itself
// when there is none).
std::string expandDialectMacros(const SourceFile &file);

} // namespace wuc::fe
