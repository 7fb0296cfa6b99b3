// type_tag.h — the struct tag of channel(T) and future(T) for a canonical T
// (docs/language.md, "Types", "One type per element type").
//
// The semantic pass prints T's canonical type (typedefs resolved, `unsigned`
// as `unsigned int`, tags with their keyword, an anonymous struct by its
// typedef name) and this turns the printed text into the tag: wuc_channel_
// or wuc_future_, then the text's tokens joined by `_`, with `*` as P, `[N]`
// as AN and other punctuators by name (`(` lp, `)` rp, `,` comma...).  A tag
// longer than 12 + 120 characters keeps its first 102 and ends in _h and a
// 64-bit FNV-1a hash of the whole, as the frontend's spelled tags do.
// Clang-free (header-only but for canonicalTypeTag): the lowering uses it.
#pragma once

#include <string>
#include <string_view>

namespace wuc::sema {

// The tag for element type text `canonical` (as Clang prints the canonical
// type); empty when the text names no type the same way in every
// translation unit (an anonymous struct, union or enum without a typedef
// name: "(unnamed ...)" / "(anonymous ...)").
std::string canonicalTypeTag(bool channel, std::string_view canonical);

// Whether `name` is a tag the frontend or canonicalTypeTag makes.
inline bool isTypeTag(std::string_view name) {
  for (std::string_view p : {"wuc_channel_", "wuc_future_"})
    if (name.size() > p.size() && name.compare(0, p.size(), p) == 0) return true;
  return false;
}

// The macro that guards the definition of a canonical tag, in the lowered
// C and in a plain C file that defines the same type (docs/language.md).
inline std::string guardMacro(std::string_view tag) { return "WUC_DEFINED_" + std::string(tag); }

// `text` with every identifier found in `renames` replaced by its value.
template <class Map> std::string renameIdentifiers(std::string_view text, const Map &renames) {
  std::string out;
  size_t k = 0;
  auto identChar = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  while (k < text.size()) {
    if (!identChar(text[k])) {
      out += text[k++];
      continue;
    }
    size_t e = k;
    while (e < text.size() && identChar(text[e])) e++;
    std::string word(text.substr(k, e - k));
    auto it = renames.find(word);
    out += it == renames.end() ? word : it->second;
    k = e;
  }
  return out;
}

} // namespace wuc::sema
