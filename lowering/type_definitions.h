// type_definitions.h — the channel and future types in the lowered C
// (docs/lowering.md, "Types").
//
// The frontend names each channel(T) / future(T) by T as spelled and inserts
// one definition per spelling, `WUC_CHANNEL_STRUCT(tag, T);` (or a
// WUC_FUTURE_*), at the start of the external declaration of its first use.
// The semantic pass gives the tag of T's canonical type (SemaFacts::
// typeTags).  Here every type edit and definition takes that tag; a
// definition with a canonical tag is guarded by WUC_DEFINED_<tag>, so that
// the spellings of one type, the headers of the program and a plain C file
// may all define it in one translation unit:
//
//   #ifndef WUC_DEFINED_wuc_channel_struct_m
//   #define WUC_DEFINED_wuc_channel_struct_m
//   #line 4 "a.wc"
//          WUC_CHANNEL_STRUCT(wuc_channel_struct_m, m_t);
//   #endif
//
// Each definition is attributed (#line, then blanks up to the column) to
// the `channel(` or `future(` of its first use, so a back-end error inside
// it (an incomplete T) is reported at the user's declaration.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ast.h"
#include "render.h"

namespace wuc {

// Rewrites the ChannelType, FutureType and TypeDefinition edits of `edits`
// (sorted by begin; the prelude may be among them) as described above.
// `plain` renders #line directives for `file`.
void lowerTypeDefinitions(const SourceFile &file, const Renderer &plain,
                          const std::map<std::string, std::string> &typeTags,
                          std::vector<Edit> &edits);

} // namespace wuc
