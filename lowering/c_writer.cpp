#include "c_writer.h"

namespace wuc {

CWriter::CWriter(const Renderer &r, std::string &out, unsigned statementLine, std::string indent)
    : r_(r), out_(out), codeLine_(statementLine), indent_(std::move(indent)) {}

void CWriter::endLine() {
  out_ += '\n';
  if (mapped_) mapped_++;
}

void CWriter::directive(unsigned line) {
  if (!out_.empty() && out_.back() != '\n') out_ += '\n';
  out_ += "#line " + std::to_string(line) + '\n';
  mapped_ = line;
}

void CWriter::directiveWithFile(unsigned offset) {
  r_.lineDirective(offset, out_);
  mapped_ = r_.file().lineCol(offset).line;
}

void CWriter::code(const std::string &line) {
  if (mapped_ != codeLine_) directive(codeLine_);
  out_ += indent_ + line;
  endLine();
}

void CWriter::note(const std::string &line) {
  if (!line.empty()) out_ += indent_ + line;
  endLine();
}

void CWriter::user(Range userText, const std::string &line) {
  directive(r_.file().lineCol(userText.begin).line);
  out_ += indent_ + line;
  out_ += '\n';
  mapped_ = 0; // the user's text may span lines
  // The code after it continues where the user's text ends.
  codeLine_ =
      r_.file().lineCol(userText.end > userText.begin ? userText.end - 1 : userText.begin).line;
}

std::string CWriter::text(Range r) const {
  std::string s;
  r_.render(r, s);
  return s;
}

std::string CWriter::blankPrefix(unsigned offset) const {
  const std::string &src = r_.file().text();
  unsigned start = offset;
  while (start > 0 && src[start - 1] != '\n') start--;
  std::string pad;
  for (unsigned i = start; i < offset; i++) pad += src[i] == '\t' ? '\t' : ' ';
  return pad;
}

// When only blanks follow the statement on its last line, the directive for
// the next line takes their place (the source's newline ends it); otherwise
// the rest of the line is padded to its column.
void CWriter::after(unsigned end) {
  const std::string &src = r_.file().text();
  unsigned p = end;
  while (p < src.size() && (src[p] == ' ' || src[p] == '\t' || src[p] == '\r')) p++;
  if (p < src.size() && src[p] == '\n') {
    r_.lineDirective(p + 1, out_);
    out_.pop_back();
  } else {
    r_.lineDirective(end, out_);
    out_ += blankPrefix(end);
  }
  mapped_ = 0;
}

void CWriter::body(Range body) {
  std::string t = text(body);
  // A body that starts with a nested statement begins with that statement's
  // own directive: no padding before it.
  if (!t.empty() && t.front() == '\n') {
    out_.append(t, 1, std::string::npos);
  } else {
    directive(r_.file().lineCol(body.begin).line);
    out_ += blankPrefix(body.begin) + t;
  }
  out_ += '\n';
  mapped_ = 0;
}

} // namespace wuc
