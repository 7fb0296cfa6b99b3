// c_writer.h — writes the lines of one lowered statement, indented, and keeps
// the back end's idea of "which .wc line is this" right for every line.
//
// Three kinds of line (docs/lowering.md, "Lines and columns"):
//   code()  generated C that executes: attributed to the line of the user's
//           text it follows (the statement's first line, a clause's line,
//           the last line evaluated, the statement's last line: codeLine()),
//           never to a line outside the statement, so a debugger never stops
//           in generated code when the user breaks on another line, and
//           `next` visits the user's lines in the order they run;
//   note()  a comment, a label, a brace: no code, so no directive needed;
//   user()  generated C around the user's text: attributed to that text's
//           line; the code() after it continues that text's last line;  body(): the user's
//           statement itself, at its own line and column.
// A `#line N` directive is written only when the next line would otherwise
// be attributed to another line.
#pragma once

#include <string>

#include "render.h"

namespace wuc {

class CWriter {
public:
  // `out` receives the text; `statementLine` is the line generated code is
  // first attributed to; `indent` is the indentation of the statement's line.
  CWriter(const Renderer &r, std::string &out, unsigned statementLine, std::string indent);

  void code(const std::string &line);
  // Attributes the code() lines from here on to source line `line`.
  void codeLine(unsigned line) { codeLine_ = line; }
  unsigned codeLine() const { return codeLine_; }
  // The next code() writes its directive (text will be inserted before it).
  void forget() { mapped_ = 0; }
  void note(const std::string &line);
  void user(Range userText, const std::string &line);
  // The user's statement `body` on lines of its own, its first line at its
  // source column (the rest of it keeps its columns by itself).
  void body(Range body);
  // `#line N "file"` for the line holding `offset` (the statement's first).
  void directiveWithFile(unsigned offset);
  // After the statement's last line: the source text from `end` on keeps
  // its line and column.
  void after(unsigned end);

  void indent() { indent_ += "  "; }
  void outdent() { indent_.resize(indent_.size() - 2); }

  // The user's text for `r`, with nested statements lowered.
  std::string text(Range r) const;

private:
  void endLine();
  // `#line N`: the file stays the same inside a statement.
  void directive(unsigned line);
  // The bytes of `offset`'s source line before it, blanked (tabs kept, so
  // both compilers count the same columns as in the source).
  std::string blankPrefix(unsigned offset) const;

  const Renderer &r_;
  std::string &out_;
  unsigned codeLine_; // the line code() is attributed to
  std::string indent_;
  unsigned mapped_ = 0; // the line the next output line is attributed to; 0: unknown
};

} // namespace wuc
