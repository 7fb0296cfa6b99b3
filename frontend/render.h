// render.h — turns a range of the original source back into C text, with the
// frontend's edits applied and every waituntil statement inside the range
// replaced by whatever the caller emits for it (the lowering, or the
// semantic pass's probe).
#pragma once

#include <functional>
#include <string>

#include "ast.h"

namespace wuc {

class Renderer {
public:
  using StatementEmitter = std::function<void(const WaitUntil &, std::string &out)>;

  Renderer(const SourceFile &file, const FrontendResult &fe, StatementEmitter emit)
      : file_(file), fe_(fe), emit_(std::move(emit)) {}

  // Appends [r.begin, r.end) to out: text copied byte for byte, except edits
  // and statements that lie wholly inside r (outermost first; a statement's
  // insides are the emitter's business).
  void render(Range r, std::string &out) const;
  // The whole file.
  void renderFile(std::string &out) const { render({0, unsigned(file_.text().size())}, out); }

  // `#line N "file"` on a line of its own, for the line holding `offset`.
  void lineDirective(unsigned offset, std::string &out) const;

  const SourceFile &file() const { return file_; }
  const FrontendResult &frontend() const { return fe_; }

private:
  const SourceFile &file_;
  const FrontendResult &fe_;
  StatementEmitter emit_;
};

} // namespace wuc
