// frontend.h — the Flex scanner and Bison skeleton grammar of extended C.
//
// parseSource tokenises the whole file exactly (comments, strings, character
// constants, preprocessor lines and continuations), parses the statement
// skeleton of C well enough to find every waituntil statement and the extent
// of each clause body, and collects the lexical edits.  Errors go to diags
// (messages.h); the result is meaningful only if none was reported.
#pragma once

#include <string>
#include <vector>

#include "ast.h"
#include "diag.h"

namespace wuc {

bool parseSource(const SourceFile &file, DiagEngine &diags, FrontendResult &out);

// Where the macro expansion of a dialect file (docs/language.md, "Macros")
// looks for a header included with quotes after the including file's
// directory, and for one included with <...> (only there): the driver's
// -iquote and -I directories, in order (the system's never).  Empty by
// default; set it before constructing the SourceFile.
void setMacroSearchDirs(std::vector<std::string> dirs);

// Debugging aid (wucc --dump-ast): one line per statement, clause and edit.
void dumpFrontend(const SourceFile &file, const FrontendResult &fe, std::ostream &os);

} // namespace wuc
