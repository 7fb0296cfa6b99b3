#include "frontend_test_util.h"

#include <sstream>

namespace wuc::test {

std::string Parsed::pos(unsigned offset) const {
  LineCol lc = file->lineCol(offset);
  return std::to_string(lc.line) + ":" + std::to_string(lc.col);
}

std::string Parsed::dump() const {
  std::ostringstream os;
  dumpFrontend(*file, fe, os);
  return os.str();
}

std::string Parsed::tree(size_t i) const {
  std::string d = dump();
  std::string key = "statement " + std::to_string(i) + " ";
  size_t at = d.find(key);
  if (at == std::string::npos) return "<none>";
  size_t eol = d.find('\n', at);
  std::string line = d.substr(at + key.size(), eol - at - key.size());
  return line.substr(line.find(' ') + 1); // after the range
}

std::string Parsed::render(bool withEdits) const {
  FrontendResult copy;
  copy.statements = fe.statements;
  if (withEdits) copy.edits = fe.edits;
  const SourceFile &f = *file;
  std::string out;
  Renderer r(f, copy, [&](const WaitUntil &w, std::string &o) {
    o.append(f.text(), w.range.begin, w.range.size());
  });
  r.renderFile(out);
  return out;
}

Parsed parse(const std::string &source, const std::string &path) {
  Parsed p;
  p.file = std::make_unique<SourceFile>(path, source);
  DiagEngine diags(*p.file);
  p.ok = parseSource(*p.file, diags, p.fe);
  std::ostringstream os;
  diags.print(os);
  p.diags = os.str();
  for (const Diagnostic &d : diags.all())
    if (d.severity == Severity::Error) p.errors += p.pos(d.offset) + ": " + d.message + "\n";
  return p;
}

Parsed parseBody(const std::string &body) { return parse("void f(void) {\n" + body + "\n}\n"); }

} // namespace wuc::test
