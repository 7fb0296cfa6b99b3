#include "render.h"

#include <algorithm>

#include "quote.h"

namespace wuc {

void Renderer::render(Range r, std::string &out) const {
  const auto &stmts = fe_.statements;
  const auto &edits = fe_.edits;
  const std::string &text = file_.text();
  unsigned pos = r.begin;
  // Both lists are sorted by begin: merge them, outermost first.  Anything
  // starting before `pos` lies inside something already emitted.
  auto s = std::lower_bound(stmts.begin(), stmts.end(), r.begin,
                            [](const WaitUntil &w, unsigned b) { return w.range.begin < b; });
  auto e = std::lower_bound(edits.begin(), edits.end(), r.begin,
                            [](const Edit &x, unsigned b) { return x.range.begin < b; });
  for (;;) {
    while (s != stmts.end() && s->range.begin < pos) ++s;
    while (e != edits.end() && e->range.begin < pos) ++e;
    bool haveS = s != stmts.end() && s->range.end <= r.end;
    bool haveE = e != edits.end() && e->range.begin < r.end && e->range.end <= r.end;
    if (!haveS && !haveE) break;
    // An insertion at the same offset as a statement goes first.
    bool takeEdit = haveE && (!haveS || e->range.begin <= s->range.begin);
    unsigned begin = takeEdit ? e->range.begin : s->range.begin;
    out.append(text, pos, begin - pos);
    if (takeEdit) {
      out += e->text;
      pos = e->range.end;
      ++e;
    } else {
      emit_(*s, out);
      pos = s->range.end;
      ++s;
    }
  }
  out.append(text, pos, r.end - pos);
}

void Renderer::lineDirective(unsigned offset, std::string &out) const {
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "#line " + std::to_string(file_.lineCol(offset).line) + ' ' +
         cStringLiteral(file_.path()) + '\n';
}

} // namespace wuc
