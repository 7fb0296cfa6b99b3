#include "quote.h"

namespace wuc {

std::string cStringLiteral(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n"; // a raw newline would end a #line directive
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string commentText(std::string_view s, std::size_t max) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  for (size_t p; (p = out.find("*/")) != std::string::npos;) out.replace(p, 2, "* /");
  for (size_t p; (p = out.find("/*")) != std::string::npos;) out.replace(p, 2, "/ *"); // -Wcomment
  if (out.size() > max) out = out.substr(0, max - 3) + "...";
  return out;
}

std::string oneLine(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\\')
      out += "\\\\";
    else
      out += c;
  }
  return out;
}

std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      out += "\\x";
      appendHex(out, c, 2);
    }
  }
  return out;
}

bool identifierByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c >= 0x80;
}

std::string typeTagFromParts(bool channel, const std::vector<std::string> &parts) {
  constexpr size_t kMaxMangled = 120;
  std::string mangled;
  for (size_t k = 0; k < parts.size(); k++) mangled += (k ? "_" : "") + parts[k];
  if (mangled.size() > kMaxMangled) {
    std::uint64_t h = 14695981039346656037ull; // FNV-1a
    for (unsigned char ch : mangled) h = (h ^ ch) * 1099511628211ull;
    mangled.resize(kMaxMangled - 18);
    mangled += "_h";
    appendHex(mangled, h, 16);
  }
  return (channel ? "wuc_channel_" : "wuc_future_") + mangled;
}

std::string identifierSafe(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (identifierByte(c)) {
      out += char(c);
    } else {
      out += 'x';
      appendHex(out, c, 2);
    }
  }
  return out;
}

void appendHex(std::string &out, std::uint64_t v, unsigned digits) {
  static const char kHex[] = "0123456789abcdef";
  for (unsigned d = digits; d-- > 0;) out += kHex[d < 16 ? (v >> (4 * d)) & 15 : 0];
}

std::string shellQuoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + '\'';
}

} // namespace wuc
