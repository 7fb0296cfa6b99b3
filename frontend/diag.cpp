#include "diag.h"

#include "messages.h"

namespace wuc {

void DiagEngine::error(unsigned offset, std::string message) {
  diags_.push_back({Severity::Error, offset, std::move(message)});
  errors_++;
}
void DiagEngine::warning(unsigned offset, std::string message) {
  diags_.push_back({Severity::Warning, offset, std::move(message)});
}
void DiagEngine::note(unsigned offset, std::string message) {
  diags_.push_back({Severity::Note, offset, std::move(message)});
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
  os << file.path() << ':' << lc.line << ':' << lc.col << ": " << kSeverity[int(d.severity)]
     << ": " << d.message << '\n';
  std::string_view line = file.lineText(lc.line);
  os << line << '\n';
  // Keep tabs so the caret lines up under the same column in a terminal.
  for (unsigned i = 0; i + 1 < lc.col && i < line.size(); i++) os << (line[i] == '\t' ? '\t' : ' ');
  os << "^\n";
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
