// handmade.h — a FrontendResult for a test source, made without the real
// Flex/Bison frontend: a small scanner and recursive descent that handle the
// well-formed sources of these tests (waituntil statements, channel(T),
// future(T), `N`unit durations).  Not a substitute for wuc::parseSource.
#pragma once

#include <string>

#include "ast.h"

namespace wuc::test {

// Fills `out`; returns false (with a reason in `why`) on a source it cannot
// handle.
bool handmadeFrontend(const SourceFile &file, FrontendResult &out, std::string *why = nullptr);

} // namespace wuc::test
