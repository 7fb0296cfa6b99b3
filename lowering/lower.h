// lower.h — waituntil AST + semantic facts → C11 (+ GNU extensions) text.
//
// The shape of the C for one statement is described in docs/lowering.md;
// the runtime side it calls is <wuc/waituntil.h>.
#pragma once

#include <string>

#include "ast.h"
#include "sema.h"

namespace wuc {

// The whole lowered translation unit: the file with every waituntil
// statement replaced and the lexical edits applied, with #line directives to
// the original, and the wuc headers its constructs need inserted before the
// external declaration of the first one (sema/prelude.h).
std::string lowerFile(const SourceFile &file, const FrontendResult &fe, const SemaFacts &facts);

} // namespace wuc
