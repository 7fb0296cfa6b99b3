// clause_bodies.h — checks on clause bodies beyond the grammar (see the .cpp).
#pragma once

#include "ast.h"
#include "diag.h"

namespace wuc {

// Reports statements nested more than 64 deep (StatementsNestedTooDeeply)
// and each computed goto inside a clause body (ComputedGotoInBody).
void checkClauseBodies(const SourceFile &file, const FrontendResult &fe, DiagEngine &diags);

} // namespace wuc
