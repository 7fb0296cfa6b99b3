#include "probe.h"

#include <algorithm>

#include "prelude.h"
#include "render.h"

namespace wuc::sema {

namespace {

class Builder {
public:
  // probe.fe must be filled before: the renderer keeps a reference to it.
  Builder(const SourceFile &file, Probe &probe)
      : file_(file), probe_(probe),
        renderer_(file, probe.fe,
                  [this](const WaitUntil &w, std::string &out) { statement(w, out); }) {
    probe_.statements.assign(probe.fe.statements.size(), {0, 0});
  }

  void build() {
    std::string &out = probe_.text;
    // The wuc headers go where the lowering puts them (prelude.h): an edit.
    out += "void ";
    out += kProbeMarker;
    out += "(int, int, int, ...);\n";
    renderer_.lineDirective(0, out);
    probe_.userBegin = unsigned(out.size());
    renderer_.renderFile(out);
    out += '\n';
  }

private:
  // A #line for the line holding `offset`, then spaces up to its column, so
  // the text that follows has the line and column it has in the source.
  void position(unsigned offset, std::string &out) {
    renderer_.lineDirective(offset, out);
    out.append(file_.lineCol(offset).col - 1, ' ');
  }

  void user(Range r, std::string &out) {
    position(r.begin, out);
    renderer_.render(r, out);
    out += '\n';
  }

  void marker(const WaitUntil &w, const Clause &c, unsigned side, Range r, std::string &out) {
    out += kProbeMarker;
    out += '(' + std::to_string(w.id) + ", " + std::to_string(c.index) + ", " +
           std::to_string(side) + ", __builtin_choose_expr(0, (";
    position(r.begin, out);
    ProbePiece p;
    p.stmt = w.id;
    p.clause = c.index;
    p.side = side;
    p.orig = r;
    p.begin = unsigned(out.size());
    renderer_.render(r, out);
    p.end = unsigned(out.size());
    out += "\n), 0));";
    p.closer = p.end + 1;
    probe_.pieces.push_back(p);
  }

  void guard(Range g, std::string &out) {
    out += "if (";
    user(g, out);
    out += ") {}";
  }

  void body(Range b, std::string &out) {
    out += '{';
    user(b, out);
    out += '}';
  }

  void statement(const WaitUntil &w, std::string &out) {
    unsigned begin = unsigned(out.size());
    out += '{';
    for (const Clause &c : w.clauses) {
      // A family's guard and operand, with its index in scope
      // (docs/language.md, "Clause families").
      if (c.family) {
        out += "for (";
        user(c.familyInit, out);
        out += ';';
        user(c.familyCond, out);
        out += ';';
        user(c.familyStep, out);
        out += ") {";
        marker(w, c, SideIndex, c.indexName, out);
      }
      if (c.hasGuard) guard(c.guard, out);
      switch (c.form) {
      case ClauseForm::Shift:
        marker(w, c, SideOperand, c.lhs, out);
        marker(w, c, SideRhs, c.rhs, out);
        break;
      case ClauseForm::Closed:
      case ClauseForm::Timeout:
      case ClauseForm::Readable:
      case ClauseForm::Writable:
        marker(w, c, SideOperand, c.arg, out);
        break;
      case ClauseForm::Resource:
        marker(w, c, SideOperand, c.operand, out);
        break;
      }
      if (c.family) out += '}';
    }
    if (w.elseBranch.present && w.elseBranch.hasGuard) guard(w.elseBranch.guard, out);
    // Each body once, in a block of its own: nothing around it that a
    // break, continue or case could bind to.
    for (const Clause &c : w.clauses) {
      if (!c.family) {
        body(c.body, out);
        continue;
      }
      out += '{';
      user(c.familyInit, out);
      out += "; (void)";
      user(c.indexName, out);
      out += ';';
      body(c.body, out);
      out += '}';
    }
    if (w.elseBranch.present) body(w.elseBranch.body, out);
    out += '}';
    // The source after the statement continues on its own line and column.
    position(w.range.end, out);
    if (w.id < probe_.statements.size()) probe_.statements[w.id] = {begin, unsigned(out.size())};
  }

  const SourceFile &file_;
  Probe &probe_;
  Renderer renderer_;
};

} // namespace

Probe buildProbe(const SourceFile &file, const FrontendResult &fe) {
  Probe probe;
  probe.fe = fe;
  insertPrelude(dialectPrelude(file, fe), probe.fe.edits);
  Renderer plain(file, fe, nullptr);
  for (Edit &e : probe.fe.edits) {
    if (e.kind != Edit::TypeDefinition) continue;
    std::string text = "\n" + e.text;
    plain.lineDirective(e.range.begin, text);
    text.append(file.lineCol(e.range.begin).col - 1, ' ');
    e.text = std::move(text);
  }
  Builder(file, probe).build();
  return probe;
}

unsigned mapToOriginal(const Probe &probe, const ProbePiece &p, unsigned probeOffset) {
  const FrontendResult &fe = probe.fe;
  // Replays Renderer::render over p.orig: verbatim runs between the edits
  // and statements it substituted.
  unsigned orig = p.orig.begin, at = p.begin;
  auto e = std::lower_bound(fe.edits.begin(), fe.edits.end(), orig,
                            [](const Edit &x, unsigned b) { return x.range.begin < b; });
  auto s = std::lower_bound(fe.statements.begin(), fe.statements.end(), orig,
                            [](const WaitUntil &w, unsigned b) { return w.range.begin < b; });
  for (;;) {
    while (s != fe.statements.end() && s->range.begin < orig) ++s;
    while (e != fe.edits.end() && e->range.begin < orig) ++e;
    bool haveS = s != fe.statements.end() && s->range.end <= p.orig.end;
    bool haveE = e != fe.edits.end() && e->range.begin < p.orig.end && e->range.end <= p.orig.end;
    unsigned next = p.orig.end;
    if (haveS) next = s->range.begin;
    if (haveE) next = std::min(next, e->range.begin);
    if (probeOffset < at + (next - orig)) return orig + (probeOffset - at);
    at += next - orig;
    if (!haveS && !haveE) return p.orig.end;
    bool takeEdit = haveE && (!haveS || e->range.begin <= s->range.begin);
    unsigned len;
    Range replaced;
    if (takeEdit) {
      len = unsigned(e->text.size());
      replaced = e->range;
      ++e;
    } else {
      // Everything the emitter wrote for it, the trailing #line included.
      auto span = s->id < probe.statements.size() ? probe.statements[s->id]
                                                  : std::pair<unsigned, unsigned>{at, at};
      len = span.second - span.first;
      replaced = s->range;
      ++s;
    }
    if (probeOffset < at + len) return replaced.begin;
    at += len;
    orig = replaced.end;
  }
}

const ProbePiece *pieceAt(const Probe &probe, unsigned probeOffset) {
  const ProbePiece *best = nullptr, *endsHere = nullptr;
  for (const ProbePiece &p : probe.pieces) {
    if (p.begin <= probeOffset && probeOffset < p.end &&
        (!best || p.end - p.begin < best->end - best->begin))
      best = &p;
    // Between a piece and the probe's `)` after it: that text is well
    // formed, so an error there (`v << )`: "expected expression") is the
    // piece's.
    if (p.end <= probeOffset && probeOffset <= p.closer) endsHere = &p;
  }
  return best ? best : endsHere;
}

} // namespace wuc::sema
