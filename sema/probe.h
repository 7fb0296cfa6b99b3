// probe.h — the C text the semantic pass hands to Clang (docs/design.md, step 2).
//
// The probe is the translation unit with its edits applied and each
// waituntil statement replaced by a block that names every clause operand
// in its real scope and keeps every body once:
//
//   {
//     if (<guard0>) {}
//     wuc_sema_probe_(<stmt>, 0, 0, __builtin_choose_expr(0, (<lhs>), 0));
//     wuc_sema_probe_(<stmt>, 0, 1, __builtin_choose_expr(0, (<rhs>), 0));
//     ...
//     { <body0> }
//     { <body1> }
//     ...
//   }
//
// __builtin_choose_expr keeps the operand exactly as written (lvalue-ness,
// bit-fields, incomplete and void types) without passing it anywhere.  No
// loop or switch surrounds a body, so its jumps mean what they mean in the
// user's code.  Each user piece is preceded by a #line directive and padded
// to its original column, so Clang's own locations stay meaningful; the
// pass itself maps Clang's locations back through raw probe offsets.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ast.h"

namespace wuc::sema {

inline constexpr const char *kProbeMarker = "wuc_sema_probe_";

// Which operand of a clause a marker names.
enum ProbeSide : unsigned {
  SideOperand = 0, // Resource: the operand; Closed / Timeout: the argument; Shift: lhs
  SideRhs = 1,     // Shift: rhs
  SideIndex = 2,   // a clause family's index (docs/language.md, "Clause families")
};

// One operand's text in the probe: [begin, end) in the probe, rendered from
// `orig` of the original source.
struct ProbePiece {
  unsigned stmt = 0, clause = 0, side = 0;
  unsigned begin = 0, end = 0;
  unsigned closer = 0; // the probe's `)` that closes the piece's parentheses
  Range orig;
};

struct Probe {
  // The frontend's result as rendered: a TypeDefinition insertion is
  // followed by a #line, so the lines after it keep their numbers.
  FrontendResult fe;
  std::string text;
  unsigned userBegin = 0; // where the rendered file starts (after the prelude)
  std::vector<ProbePiece> pieces;
  // Per statement (by id): the probe text emitted for it, [first, second)
  // (up to where the source after it resumes).
  std::vector<std::pair<unsigned, unsigned>> statements;
};

// Builds the probe of the whole file.
Probe buildProbe(const SourceFile &file, const FrontendResult &fe);

// Maps an offset inside piece `p` of the probe back to the original source:
// exact inside text copied verbatim, the edit's start inside an edit's text.
// A statement nested in the piece maps to its first byte.
unsigned mapToOriginal(const Probe &probe, const ProbePiece &p, unsigned probeOffset);

// The innermost piece holding `probeOffset`; else the piece it directly
// follows (up to the probe's `)` that closes it); else nullptr.
const ProbePiece *pieceAt(const Probe &probe, unsigned probeOffset);

} // namespace wuc::sema
