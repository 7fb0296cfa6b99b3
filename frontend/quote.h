// quote.h — the compiler's one place that spells text for another reader:
// C string literals, C comments, identifiers, diagnostics, dumps and the
// shell.  Every stage quotes through here, so one rule holds everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace wuc {

// `s` as a C string literal: `"` and `\` escaped, newline as \n (a #line
// file name, a clause's site in the lowered C).
std::string cStringLiteral(std::string_view s);

// `s` on one line for a C comment: blanks collapsed, `*/` and `/*` broken
// up, cut to `max` bytes (ending in "...").
std::string commentText(std::string_view s, std::size_t max = 80);

// `s` on one line for a dump: newline, tab, CR and `\` escaped C-style.
std::string oneLine(std::string_view s);

// `s` for a message: bytes outside printable ASCII as \xHH.
std::string printable(std::string_view s);

// A byte a mangled C identifier may keep (letters, digits, _, $, and UTF-8's
// bytes >= 0x80).
bool identifierByte(unsigned char c);

// `s` as part of an identifier: every other byte as xHH.
std::string identifierSafe(std::string_view s);

// Appends the low `digits` hex digits of `v`, lower case, most significant
// first.
void appendHex(std::string &out, std::uint64_t v, unsigned digits);

// The struct tag of channel(T) / future(T) from the mangled parts of T:
// wuc_channel_ or wuc_future_, then the parts joined by '_'.  A long name
// keeps its start and ends in a hash of the rest, so names of nested types
// grow by a constant per level.  The frontend's spelled tags and the
// semantic pass's canonical ones (sema/type_tag.h) are both made here.
std::string typeTagFromParts(bool channel, const std::vector<std::string> &parts);

// `s` as one POSIX shell word: single-quoted, `'` as '\''.
std::string shellQuoted(std::string_view s);

} // namespace wuc
