// lexer.h — the raw C tokens of one source file (frontend-internal).
//
// The Flex scanner (scanner.l) runs over the file with its backslash-newline
// continuations removed ("spliced", translation phase 2), so every token is
// a plain regular expression match; Splice maps positions back to the
// original text.  Whitespace, comments and preprocessor lines produce no
// token: the renderer copies them from the original text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diag.h"
#include "source.h"

namespace wuc::fe {

// The file without its line continuations, and where each byte came from.
class Splice {
public:
  explicit Splice(const std::string &text);
  const std::string &clean() const { return clean_; }
  // Original offset of clean byte i (i == clean().size() gives the file's end).
  unsigned orig(unsigned i) const { return map_.empty() ? i : map_[i]; }

private:
  std::string clean_;
  std::vector<unsigned> map_; // empty when the file has no continuation
};

enum class RawKind : std::uint8_t {
  Ident,    // identifiers and keywords
  Number,   // pp-numbers
  String,   // string literals, any prefix
  Char,     // character constants, any prefix
  Punct,    // punctuators (digraphs spelled canonically in `punct`)
  Backtick, // ` (duration literals)
  Stray,    // any other byte (@, \, NUL, bytes that are not UTF-8...)
  // A string literal or character constant without its closing quote, to
  // the end of its line (as GCC's preprocessor reads it): an error only
  // inside a waituntil statement (parseSource), else the back end's call.
  Unterminated,
};

struct RawTok {
  RawKind kind;
  const char *punct = nullptr;   // Punct: the canonical spelling ("[" for "<:")
  unsigned begin = 0, end = 0;   // original text [begin, end)
  unsigned cbegin = 0, cend = 0; // spliced text
};

// A preprocessor directive: from its `#` to the end of its line (spliced
// offsets; the newline excluded).
struct Directive {
  unsigned cbegin = 0, cend = 0;
};

struct LexOutput {
  std::vector<RawTok> toks;
  std::vector<Directive> directives;
};

// Scans the spliced text [cbegin, cend) (a directive's insides) as ordinary
// tokens, appending them to out.toks; false if it holds an unterminated
// comment or literal (nothing is reported).
bool scanRange(const Splice &splice, unsigned cbegin, unsigned cend, LexOutput &out);

// Scans `file`, the groups of `#if 0` / `#elif 0` as blanks (detect.h);
// reports an unterminated comment (and stops there).  Returns false on
// error.
bool scanFile(const SourceFile &file, const Splice &splice, DiagEngine &diags, LexOutput &out);

// The canonical spelling of a punctuator (digraphs mapped), or nullptr.
const char *canonicalPunct(std::string_view spelling);

} // namespace wuc::fe
