// frontend_fuzz.cpp — libFuzzer target over wuc::parseSource, the Renderer
// and wuc::checkClauseBodies: any input gives diagnostics or a result, never
// a crash, a hang, or a result that breaks the ast.h invariants.  Built and
// run by run.sh.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "clause_bodies.h"
#include "detect.h"
#include "frontend.h"
#include "render.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

bool inside(wuc::Range inner, wuc::Range outer) {
  return outer.begin <= inner.begin && inner.end <= outer.end;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wuc::SourceFile file("fuzz.wc", std::string(reinterpret_cast<const char *>(data), size));
  wuc::DiagEngine diags(file);
  wuc::FrontendResult fe;
  bool ok = wuc::parseSource(file, diags, fe);
  std::ostringstream sink;
  diags.print(sink);
  check(ok != diags.hasErrors());
  // Offsets index the file's text, which is the input with the dialect
  // macros' uses expanded (docs/language.md, "Macros").
  const size_t textSize = file.text().size();
  for (const wuc::Diagnostic &d : diags.all()) check(d.offset <= textSize);
  if (!ok) return 0;
  // The driver gives the back end the files mayUseDialect says no to: the
  // frontend must find nothing in them.
  if (!wuc::mayUseDialect(file.text())) check(fe.statements.empty() && fe.edits.empty());

  const unsigned n = unsigned(textSize);
  for (size_t i = 0; i < fe.edits.size(); i++) {
    const wuc::Edit &e = fe.edits[i];
    check(e.range.begin <= e.range.end && e.range.end <= n);
    if (i > 0) {
      const wuc::Edit &p = fe.edits[i - 1];
      // Sorted, disjoint; only an insertion shares its offset, with the
      // replacement after it.
      check(p.range.end <= e.range.begin);
      if (p.range.begin == e.range.begin) check(p.range.empty() && !e.range.empty());
    }
  }
  for (size_t i = 0; i < fe.statements.size(); i++) {
    const wuc::WaitUntil &w = fe.statements[i];
    check(w.id == i && w.range.begin < w.range.end && w.range.end <= n);
    if (i > 0) check(fe.statements[i - 1].range.begin < w.range.begin);
    // Statements nest or are disjoint; edits never cross them.
    for (size_t j = 0; j < i; j++) {
      const wuc::Range o = fe.statements[j].range;
      check(inside(w.range, o) || o.end <= w.range.begin);
    }
    for (const wuc::Edit &e : fe.edits)
      check(inside(e.range, w.range) || e.range.end <= w.range.begin ||
            e.range.begin >= w.range.end);
    check(!w.clauses.empty());
    for (size_t c = 0; c < w.clauses.size(); c++) {
      const wuc::Clause &cl = w.clauses[c];
      check(cl.index == c && inside(cl.operand, w.range) && inside(cl.body, w.range));
      if (cl.hasGuard) check(inside(cl.guard, w.range) && cl.guard.end <= cl.operand.begin);
      if (cl.form == wuc::ClauseForm::Shift)
        check(inside(cl.lhs, cl.operand) && inside(cl.rhs, cl.operand) &&
              cl.lhs.end <= cl.shiftOffset);
    }
    if (w.elseBranch.present) check(inside(w.elseBranch.body, w.range));
  }

  // Render, emitting each statement as its parts (so nested statements and
  // edits inside them are rendered too), and dump.
  const wuc::Renderer *self = nullptr;
  wuc::Renderer renderer(file, fe, [&](const wuc::WaitUntil &w, std::string &out) {
    for (const wuc::Clause &c : w.clauses) {
      if (c.hasGuard) self->render(c.guard, out);
      self->render(c.operand, out);
      self->render(c.body, out);
    }
    if (w.elseBranch.present) self->render(w.elseBranch.body, out);
  });
  self = &renderer;
  std::string out;
  renderer.renderFile(out);
  wuc::dumpFrontend(file, fe, sink);

  // The checks on bodies the driver runs next (nesting, computed gotos,
  // jumps into bodies): diagnostics inside the file, never a crash.
  wuc::DiagEngine bodyDiags(file);
  wuc::checkClauseBodies(file, fe, bodyDiags);
  for (const wuc::Diagnostic &d : bodyDiags.all()) check(d.offset <= textSize);
  return 0;
}
