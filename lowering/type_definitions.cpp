#include "type_definitions.h"

#include <cstring>

#include "sema.h" // and its type_tag.h

namespace wuc {

namespace {

// The tag of a type edit's text ("struct wuc_channel_int", maybe with blanks).
std::string tagOf(const std::string &text) {
  size_t b = text.find_first_not_of(' ');
  size_t e = text.find_last_not_of(' ');
  if (b == std::string::npos) return "";
  std::string t = text.substr(b, e + 1 - b);
  return t.compare(0, 7, "struct ") == 0 ? t.substr(7) : "";
}

// A definition line's tag: `MACRO(tag, T);` -> tag (empty: not a definition).
std::string definedTag(const std::string &line) {
  for (const char *macro :
       {"WUC_CHANNEL_STRUCT(", "WUC_FUTURE_STRUCT(", "WUC_FUTURE_LOCAL_STRUCT("}) {
    const size_t n = std::strlen(macro);
    if (line.compare(0, n, macro) != 0) continue;
    const size_t comma = line.find(',', n);
    return comma == std::string::npos ? "" : line.substr(n, comma - n);
  }
  return "";
}

} // namespace

void lowerTypeDefinitions(const SourceFile &file, const Renderer &plain,
                          const std::map<std::string, std::string> &typeTags,
                          std::vector<Edit> &edits) {
  // The first use of each spelled tag: where its definition is attributed.
  std::map<std::string, unsigned> firstUse;
  for (const Edit &e : edits)
    if (e.kind == Edit::ChannelType || e.kind == Edit::FutureType)
      firstUse.emplace(tagOf(e.text), e.range.begin);
  for (Edit &e : edits) {
    if (e.kind == Edit::ChannelType || e.kind == Edit::FutureType) {
      e.text = sema::renameIdentifiers(e.text, typeTags);
      continue;
    }
    if (e.kind != Edit::TypeDefinition) continue;
    std::vector<std::string> lines;
    for (size_t at = 0; at < e.text.size();) {
      size_t nl = e.text.find('\n', at);
      if (nl == std::string::npos) nl = e.text.size() - 1;
      lines.push_back(e.text.substr(at, nl + 1 - at));
      at = nl + 1;
    }
    // Backwards: a type used only inside another's T (channel(channel(int)))
    // has no use of its own; it is defined right before the type holding it
    // and attributed to that type's use.
    unsigned use = e.range.begin;
    bool haveUse = false;
    for (size_t k = lines.size(); k-- > 0;) {
      const std::string tag = definedTag(lines[k]);
      if (tag.empty()) continue;
      auto u = firstUse.find(tag);
      if (u != firstUse.end()) {
        use = u->second;
        haveUse = true;
      }
      std::string text;
      if (haveUse) {
        plain.lineDirective(use, text);
        text.append(file.lineCol(use).col - 1, ' ');
      }
      text += sema::renameIdentifiers(lines[k], typeTags);
      auto canonical = typeTags.find(tag);
      if (canonical != typeTags.end()) {
        const std::string guard = sema::guardMacro(canonical->second);
        text = "#ifndef " + guard + "\n#define " + guard + "\n" + text + "#endif\n";
      }
      lines[k] = std::move(text);
    }
    e.text.clear();
    for (const std::string &l : lines) e.text += l;
  }
}

} // namespace wuc
