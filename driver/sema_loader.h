// sema_loader.h — the semantic pass, loaded on first use (see
// sema/sema_module.cpp for why it is a module).
#pragma once

#include <string>

#include "sema.h"

namespace wuc {

// Runs wuc::analyse from the module at `modulePath`; false with `error` set
// if the module cannot be loaded (the diagnostics are the pass's otherwise).
bool analyseWithModule(const std::string &modulePath, const SourceFile &file,
                       const FrontendResult &fe, const SemaOptions &options, DiagEngine &diags,
                       SemaFacts &out, std::string &error);

} // namespace wuc
