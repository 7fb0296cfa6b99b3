// diag.h — diagnostics in clang's format:
//
//   file:line:col: error: message
//   <the source line>
//   <spaces, tabs copied from the line>^
//   <spaces, tabs copied from the line>fix-it text      (when there is one)
//
// Every error the compiler reports goes through a DiagEngine, so the format
// and the exit status (1 on any error) live in one place.  Message texts are
// in messages.h.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "source.h"

namespace wuc {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity;
  unsigned offset; // into the file's text
  std::string message;
  // A fix-it: text to insert at fixItOffset, on the same line (clang prints
  // it under the caret line, at its column).
  std::string fixIt;
  unsigned fixItOffset = 0;
};

class DiagEngine {
public:
  explicit DiagEngine(const SourceFile &file) : file_(file) {}

  void error(unsigned offset, std::string message);
  void warning(unsigned offset, std::string message);
  // A warning with a fix-it inserting `insert` at `insertAt`.
  void warning(unsigned offset, std::string message, unsigned insertAt, std::string insert);
  void note(unsigned offset, std::string message);

  bool hasErrors() const { return errors_ > 0; }
  unsigned errorCount() const { return errors_; }
  const std::vector<Diagnostic> &all() const { return diags_; }

  // Writes every diagnostic, in the order reported.
  void print(std::ostream &os) const;
  static void format(std::ostream &os, const SourceFile &file, const Diagnostic &d);

private:
  const SourceFile &file_;
  std::vector<Diagnostic> diags_;
  unsigned errors_ = 0;
};

} // namespace wuc
