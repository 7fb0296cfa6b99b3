#include "lexer.h"

namespace wuc::fe {

Splice::Splice(const std::string &text) {
  if (text.find('\\') == std::string::npos) {
    clean_ = text; // the common case: nothing to map
    return;
  }
  clean_.reserve(text.size());
  map_.reserve(text.size() + 1);
  size_t n = text.size();
  for (size_t i = 0; i < n;) {
    if (text[i] == '\\') {
      if (i + 1 < n && text[i + 1] == '\n') {
        i += 2;
        continue;
      }
      if (i + 2 < n && text[i + 1] == '\r' && text[i + 2] == '\n') {
        i += 3;
        continue;
      }
    }
    clean_ += text[i];
    map_.push_back(unsigned(i));
    i++;
  }
  map_.push_back(unsigned(n));
}

const char *canonicalPunct(std::string_view s) {
  // Every punctuator the scanner matches, spelled once; digraphs map to the
  // token they stand for.
  static const char *const kPuncts[] = {
      "::", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
      "&&", "||",  "*=",  "/=",  "%=", "+=", "-=", "&=", "^=", "|=", "##", "[",  "]",
      "(",  ")",   "{",   "}",   ".",  "&",  "*",  "+",  "-",  "~",  "!",  "/",  "%",
      "<",  ">",   "^",   "|",   "?",  ":",  ";",  "=",  ",",  "#"};
  if (s == "<:") return "[";
  if (s == ":>") return "]";
  if (s == "<%") return "{";
  if (s == "%>") return "}";
  if (s == "%:") return "#";
  if (s == "%:%:") return "##";
  for (const char *p : kPuncts)
    if (s == p) return p;
  return nullptr;
}

} // namespace wuc::fe
