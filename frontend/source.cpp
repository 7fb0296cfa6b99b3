#include "source.h"

#include <algorithm>

#include "frontend_internal.h"

namespace wuc {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  // The uses of the file's own dialect macros, expanded (macros.cpp); the
  // file's lines keep their numbers.
  text_ = fe::expandDialectMacros(*this);
  lineStarts_.push_back(0);
  for (unsigned i = 0; i < text_.size(); i++)
    if (text_[i] == '\n') lineStarts_.push_back(i + 1);
}

SourceFile::SourceFile(std::string path, std::string text, Raw)
    : path_(std::move(path)), text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (unsigned i = 0; i < text_.size(); i++)
    if (text_[i] == '\n') lineStarts_.push_back(i + 1);
}

LineCol SourceFile::lineCol(unsigned offset) const {
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  unsigned line = unsigned(it - lineStarts_.begin()); // 1-based: lineStarts_[line-1] <= offset
  return {line, offset - lineStarts_[line - 1] + 1};
}

std::string_view SourceFile::lineText(unsigned line) const {
  if (line == 0 || line > lineStarts_.size()) return {};
  unsigned begin = lineStarts_[line - 1];
  unsigned end = line < lineStarts_.size() ? lineStarts_[line] : unsigned(text_.size());
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) end--;
  return std::string_view(text_).substr(begin, end - begin);
}

} // namespace wuc
