// sema.h — the semantic pass: what each clause's operands are, read from
// Clang's AST of a probe of the translation unit (implemented with Clang
// libTooling in sema.cpp; this header does not include Clang, so the
// lowering may include it for the facts' types).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ast.h"
#include "diag.h"
#include "type_tag.h" // the tags of SemaFacts::typeTags

namespace wuc {

struct ClauseFacts {
  enum Kind {
    Invalid,  // an operand had errors Clang reported; the back end will report them too
    Recv,     // x << ch
    Send,     // ch << e
    Closed,   // closed(ch)
    Timeout,  // timeout(d)
    Readable, // readable(fd)
    Writable, // writable(fd)
    Resource, // a selectable object (WUC_SELECTABLE), future, lock, user type...
  } kind = Invalid;

  // Recv / Send / Closed: the channel operand is a pointer to a channel
  // (otherwise an lvalue channel object).
  bool channelIsPointer = false;
  // Recv: the target's type is the channel's element type, so the element
  // is received in place (otherwise into a temporary of the element type,
  // then assigned: C's assignment conversions).
  bool recvInPlace = false;
  // Recv: the target is a `register` variable (no address): assigned by
  // name from the temporary.
  bool recvTargetIsRegister = false;

  // Resource: the operand is a pointer (otherwise an lvalue object).
  bool resourceIsPointer = false;
  // Resource: member names leading from the operand to the object the trait
  // is declared for (empty: the operand itself).  A struct whose first
  // member is selectable is selectable through it.
  std::vector<std::string> memberPath;

  // The trait (Resource, and the built-in clause types of Recv / Send /
  // Closed / Timeout / Readable / Writable): the variable WUC_SELECTABLE declared, and the names
  // of the three functions it was given.
  std::string traitVar; // wuc_selectable_trait_<register function>
  std::string registerFn, unregisterFn, onSelectedFn;

  // Spelled types, for the emitted C's comments.
  std::string operandType;

  // ---- added by the semantic pass ----
  // Recv / Send / Closed: the channel's element type, spelled (comments).
  std::string elementType;
  // Clang never saw this clause (kind is Invalid, no error was reported):
  // it sits in an inactive #if branch, or in code Clang dropped after an
  // error elsewhere, which the back end reports on its own.
  bool unseen = false;
};

struct SemaFacts {
  // statements[i][j]: clause j of FrontendResult::statements[i].
  std::vector<std::vector<ClauseFacts>> statements;
  // channel(T) / future(T): the tag the frontend gave each (from T as
  // spelled, e.g. wuc_channel_m_t) -> the tag of T's canonical type
  // (wuc_channel_struct_m; sema/type_tag.h), which the lowering uses and
  // defines under a guard (docs/lowering.md, "Types").  A tag not here
  // keeps its spelling and an unguarded definition: T is local to a
  // function or an anonymous struct, or the pass did not run.
  std::map<std::string, std::string> typeTags;
};

struct SemaOptions {
  std::vector<std::string> compilerArgs; // the user's -I -D -U -std -include ... flags
  std::string wucIncludeDir;             // where <wuc.h> is
  std::string resourceDir;               // Clang's resource directory (builtin headers)
  // Empty wucIncludeDir / resourceDir: the source tree's stdlib/, and the
  // resource directory of the Clang wuc_sema was built against.

  // Where Clang reads the probe ("": the file's own path).  The driver puts
  // it in the mirror of the file's directory when the file includes project
  // headers, so `#include "x.h"` finds the lowered x.h beside it first
  // (docs/lowering.md, "Headers").
  std::string probePath;

  // Debugging (e.g. a --dump-probe flag): if set, receives the probe, the C
  // text Clang parses.
  std::string *probeText = nullptr;
};

// Reports the errors of docs/language.md §8 at each clause's location; returns
// false if it reported any.  One Clang parse of the whole file.  Clang's
// errors outside clause operands are not reported (the back end reports
// them); an error inside an operand is reported once, as OperandError.
bool analyse(const SourceFile &file, const FrontendResult &fe, const SemaOptions &opts,
             DiagEngine &diags, SemaFacts &out);

} // namespace wuc
