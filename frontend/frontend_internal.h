// frontend_internal.h — the frontend's passes, for frontend.cpp and the tests
// (frontend-internal).
#pragma once

#include <string_view>
#include <vector>

#include "lexer.h"
#include "parse_context.h"

namespace wuc::fe {

// A token's text with line continuations removed.
std::string_view spellingOf(const Splice &splice, const RawTok &t);

// The token filter: Bison token kinds for every raw token (parser.y), and
// where each external declaration starts (indices into `out`).
bool classifyTokens(const Splice &splice, const LexOutput &lex, std::vector<PendingDiag> &diags,
                    std::vector<Tok> &out, std::vector<int> &externalDecls);

// Reports directives inside a statement but outside its bodies.
void checkDirectives(ParseContext &ctx);

// channel(T), future(T) and duration literals (edits.cpp), after a
// successful parse: needs the external declarations.
void collectEdits(ParseContext &ctx);

} // namespace wuc::fe
