// source.h — one source file in memory, and byte ranges into it.
//
// Every position the compiler keeps is a byte offset into the original
// text; lines and columns (1-based, columns counted in bytes as clang does)
// are computed only when a diagnostic or a #line directive needs them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wuc {

// [begin, end) in bytes.
struct Range {
  unsigned begin = 0;
  unsigned end = 0;
  bool empty() const { return begin == end; }
  unsigned size() const { return end - begin; }
};

struct LineCol {
  unsigned line = 1;
  unsigned col = 1;
};

class SourceFile {
public:
  // The uses of the file's own dialect macros (and those of the headers it
  // includes with quotes, found next to it) are expanded in the text
  // (frontend_internal.h, expandDialectMacros); a Raw file keeps its text.
  SourceFile(std::string path, std::string text);
  struct Raw {};
  SourceFile(std::string path, std::string text, Raw);

  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  std::string_view slice(Range r) const {
    return std::string_view(text_).substr(r.begin, r.size());
  }

  LineCol lineCol(unsigned offset) const;
  // The text of line `line` (1-based), without its newline.
  std::string_view lineText(unsigned line) const;

private:
  std::string path_;
  std::string text_;
  std::vector<unsigned> lineStarts_;
};

} // namespace wuc
