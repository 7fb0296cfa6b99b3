#include "diag.h"

#include <algorithm>

#include "messages.h"

namespace wuc {

void DiagEngine::error(unsigned offset, std::string message) {
  diags_.push_back({Severity::Error, offset, std::move(message), {}, 0});
  errors_++;
}
void DiagEngine::warning(unsigned offset, std::string message) {
  diags_.push_back({Severity::Warning, offset, std::move(message), {}, 0});
}
void DiagEngine::warning(unsigned offset, std::string message, unsigned insertAt,
                         std::string insert) {
  diags_.push_back({Severity::Warning, offset, std::move(message), std::move(insert), insertAt});
}
void DiagEngine::note(unsigned offset, std::string message) {
  diags_.push_back({Severity::Note, offset, std::move(message), {}, 0});
}

void DiagEngine::print(std::ostream &os) const {
  // Like clang's -ferror-limit=20: a broken file should not bury the first
  // message under thousands.
  constexpr unsigned kErrorLimit = 20;
  unsigned errors = 0;
  for (const Diagnostic &d : diags_) {
    if (d.severity == Severity::Error && ++errors > kErrorLimit) {
      os << file_.path() << ": fatal error: too many errors emitted (" << errors_
         << " in all), stopping now\n";
      return;
    }
    format(os, file_, d);
  }
}

void DiagEngine::format(std::ostream &os, const SourceFile &file, const Diagnostic &d) {
  static const char *const kSeverity[] = {"error", "warning", "note"};
  LineCol lc = file.lineCol(d.offset);
  os << file.path() << ':' << lc.line << ':' << lc.col << ": " << kSeverity[int(d.severity)] << ": "
     << d.message << '\n';
  std::string_view line = file.lineText(lc.line);
  size_t caret = lc.col ? lc.col - 1 : 0; // bytes into the line
  // A generated file may be one line of megabytes: show a window of it
  // around the caret (clang drops the snippet of a line this long).
  constexpr size_t kLongLine = 4096, kContext = 80;
  const char *cutBefore = "", *cutAfter = "";
  if (line.size() > kLongLine) {
    size_t from = std::min(caret > kContext ? caret - kContext : 0, line.size());
    size_t to = std::min(line.size(), caret + kContext);
    while (from > 0 && (line[from] & 0xC0) == 0x80) from--; // not inside a UTF-8 sequence
    while (to < line.size() && (line[to] & 0xC0) == 0x80) to++;
    if (from > 0) cutBefore = "...";
    if (to < line.size()) cutAfter = "...";
    line = line.substr(from, to - from);
    caret -= from;
  }
  os << cutBefore << line << cutAfter << '\n' << (*cutBefore ? "   " : "");
  // Keep tabs so the caret lines up under the same column in a terminal.
  for (size_t i = 0; i < caret && i < line.size(); i++) os << (line[i] == '\t' ? '\t' : ' ');
  os << "^\n";
  const LineCol fix = file.lineCol(d.fixItOffset);
  if (d.fixIt.empty() || fix.line != lc.line || *cutBefore) return;
  for (size_t i = 0; i + 1 < fix.col && i < line.size(); i++) os << (line[i] == '\t' ? '\t' : ' ');
  os << d.fixIt << '\n';
}

std::string format(const char *pattern, const std::string &a, const std::string &b) {
  std::string out;
  const std::string *args[] = {&a, &b};
  unsigned next = 0;
  for (const char *p = pattern; *p; p++) {
    if (p[0] == '%' && p[1] == 's' && next < 2) {
      out += *args[next++];
      p++;
    } else {
      out += *p;
    }
  }
  return out;
}

} // namespace wuc
