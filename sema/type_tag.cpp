#include "type_tag.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "quote.h"

namespace wuc::sema {

namespace {

// The punctuators a printed type can hold, longest first where one is the
// start of another; the names are frontend/edits.cpp's.
const std::pair<const char *, const char *> kPuncts[] = {
    {"...", "ellipsis"}, {"->", "arrow"}, {"(", "lp"},   {")", "rp"},   {"{", "lb"},
    {"}", "rb"},         {",", "comma"},  {".", "dot"},  {"&", "amp"},  {"|", "bor"},
    {"^", "xor"},        {"~", "tilde"},  {"!", "not"},  {"+", "plus"}, {"-", "minus"},
    {"/", "div"},        {"%", "mod"},    {"<", "lt"},   {">", "gt"},   {"=", "assign"},
    {"?", "q"},          {":", "colon"},  {";", "semi"}, {"#", "hash"}};

bool identChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

} // namespace

std::string canonicalTypeTag(bool channel, std::string_view t) {
  if (t.empty() || t.find("(unnamed") != std::string_view::npos ||
      t.find("(anonymous") != std::string_view::npos)
    return "";
  std::vector<std::string> parts;
  bool glue = false; // the next part joins the previous one (after `[`)
  auto part = [&](std::string p) {
    if (glue && !parts.empty()) {
      parts.back() += p;
      glue = false;
    } else if (!p.empty()) {
      parts.push_back(std::move(p));
    }
  };
  for (size_t k = 0; k < t.size();) {
    const char c = t[k];
    if (c == ' ' || c == '\t' || c == '\n') {
      k++;
    } else if (identChar(c)) { // identifiers and numbers (array sizes)
      size_t e = k;
      while (e < t.size() && identChar(t[e])) e++;
      part(std::string(t.substr(k, e - k)));
      k = e;
    } else if (c == '*') {
      part("P");
      k++;
    } else if (c == '[') {
      part("A");
      glue = true;
      k++;
    } else if (c == ']') {
      glue = false;
      k++;
    } else {
      const char *name = nullptr;
      size_t len = 1;
      for (auto &p : kPuncts) {
        const size_t n = std::strlen(p.first);
        if (t.compare(k, n, p.first) == 0) {
          name = p.second;
          len = n;
          break;
        }
      }
      if (!name) {
        // Not a character of a C type's printed form: spelled in hex.
        std::string x = "x";
        appendHex(x, (unsigned char)c, 2);
        part(x);
      } else {
        part(name);
      }
      k += len;
    }
  }
  return typeTagFromParts(channel, parts);
}

} // namespace wuc::sema
