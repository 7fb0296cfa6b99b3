// frontend_test_util.h — parse a string, look at the result.
#pragma once

#include <memory>
#include <string>

#include "ast.h"
#include "diag.h"
#include "frontend.h"
#include "render.h"

namespace wuc::test {

struct Parsed {
  std::unique_ptr<SourceFile> file;
  FrontendResult fe;
  bool ok = false;
  std::string diags;  // as printed
  std::string errors; // "line:col: message" per error, one a line

  std::string text(Range r) const { return std::string(file->slice(r)); }
  std::string pos(unsigned offset) const;
  std::string dump() const;
  // The and/or tree of statement i, as dumpFrontend writes it.
  std::string tree(size_t i) const;
  const Clause &clause(size_t stmt, size_t c) const { return fe.statements.at(stmt).clauses.at(c); }
  // The whole file rendered with the edits applied and every statement
  // copied as written.
  std::string render(bool withEdits = true) const;
};

Parsed parse(const std::string &source, const std::string &path = "t.wc");

// `source` wrapped in a function: "void f(void) {\n" + source + "\n}\n".
Parsed parseBody(const std::string &body);

} // namespace wuc::test
