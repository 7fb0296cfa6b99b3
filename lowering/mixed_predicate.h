// mixed_predicate.h — the completion predicate of a mixed statement as
// straight-line C (docs/lowering.md, "Mixed path"): one _Bool per and/or
// node, each one expression, with clauses that have no guard folded away.
#pragma once

#include <string>
#include <vector>

#include "ast.h"

namespace wuc {

// The C expressions of one clause (by clause index).
struct PredicateLeaf {
  std::string enabled; // its guard's value, or "1" without a guard
  std::string ran;     // its body ran (an lvalue read on every step)
  std::string needed;  // the lvalue the predicate writes
  // A clause family (docs/language.md, "Clause families"): `ran` is the
  // family's satisfaction and `familyNeed` the start of a call that sets its
  // elements' needed flags, completed with the `done` expression and ");".
  std::string familyNeed;
  bool orFamily = false; // elements joined by `or`: one that ran makes the rest unneeded
};

struct MixedPredicate {
  // Declarations evaluated once, after evaluation: which subtrees have an
  // enabled clause (none when no clause has a guard).
  std::vector<std::string> presence;
  // Lines evaluated before every step: each node's `satisfied` and `done`,
  // then every clause's `needed`.
  std::vector<std::string> step;
  // The statement is complete: !present(root) || satisfied(root).
  std::string complete;
};

// Node names are `<prefix>_and<j>` / `<prefix>_or<j>`, j in post-order.
MixedPredicate mixedPredicate(const TreeNode &root, const std::vector<PredicateLeaf> &leaves,
                              const std::string &prefix);

} // namespace wuc
