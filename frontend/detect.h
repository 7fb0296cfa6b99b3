// detect.h — does a file need the dialect's frontend at all?
//
// The driver compiles a file in which mayUseDialect is false exactly as
// the back end would (plain C), and runs the frontend (and the rest of the
// pipeline) only on the others (docs/language.md, 'Lexical additions',
// "Which files are dialect files").  Includes nothing but the standard
// library.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace wuc {

// True when `text`, outside comments, string and character literals and
// the groups of `#if 0` / `#elif 0` (nested conditionals counted), holds
// the identifier `waituntil`, a backtick (a duration literal), or the
// identifier `channel` or `future` followed (after white space, line
// continuations and comments) by `(`.  Of the directives, only a
// `#define` counts (`#define TICK 10`ms`; not `#include <wuc/waituntil.h>`).  One pass over the
// bytes, no allocation; any bytes are accepted (NULs, unterminated comments and literals: a literal
// ends at its line's end, as the preprocessor reads it).
bool mayUseDialect(std::string_view text);

namespace fe {

// The groups of `#if 0` and `#elif 0` in `text` (no line continuations
// left in it, or a few: they are read as the preprocessor reads them):
// each [begin, end) runs from the newline that ends the directive to the
// `#` of the `#elif`, `#else` or `#endif` that ends the group (or the end
// of the text).  The frontend scans these bytes as blanks, as the
// preprocessor skips them.
void findFalseGroups(std::string_view text, std::vector<std::pair<size_t, size_t>> &out);

} // namespace fe

} // namespace wuc
