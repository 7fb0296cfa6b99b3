// waituntil.h — hand-lowered waituntil statements for tests, until wucc
// generates them: one driver that follows <wuc/select.h>'s steps 1-5 over
// any clauses, given as {guard, trait bound to a resource, body}, and an
// and/or tree over their indices.
//
//   std::vector<Clause> c = {Bind(&l, WUC_TRAIT(wuc_owner_lock_register), body0),
//                            Bind(&f.core, WUC_TRAIT(wuc_future_register), body1)};
//   Outcome o = Waituntil(Or({Leaf(0), Leaf(1)}), c);
//
// A statement made only of `or`s takes the all-or path (one race word, a
// try-only pass first); any `and` makes it mixed (a status word per
// clause).  A body returns Flow::kJump to leave the statement as a `break`
// would: the remaining clauses are withdrawn with their bodies skipped.
#ifndef WUC_TEST_WAITUNTIL_H
#define WUC_TEST_WAITUNTIL_H

#include <wuc/select.h>

#include <functional>
#include <initializer_list>
#include <vector>

// The trait constant WUC_SELECTABLE declared for a type, found by its
// register function's name (what wucc's semantic pass looks up).
#define WUC_TRAIT(reg) WUC_SELECTABLE_NAME_(reg)

namespace wuc_test {

enum class Flow { kNext, kJump };

struct Clause {
  bool guard = true; // evaluated by the caller, before the statement
  std::function<bool(wuc_select_node *)> reg, unreg, on_selected;
  void *data = nullptr; // the node's data (a receive's target, a send's value)
  std::function<Flow()> body;
};

// A clause on `resource` through its WUC_SELECTABLE trait.
template <typename T, typename Trait>
Clause Bind(T *resource, const Trait &trait, std::function<Flow()> body = nullptr,
            bool guard = true) {
  Clause c;
  c.guard = guard;
  c.reg = [resource, fn = trait.__wuc_register_select](wuc_select_node *n) {
    return fn(resource, n);
  };
  c.unreg = [resource, fn = trait.__wuc_unregister_select](wuc_select_node *n) {
    return fn(resource, n);
  };
  c.on_selected = [resource, fn = trait.__wuc_on_selected](wuc_select_node *n) {
    return fn(resource, n);
  };
  c.body = std::move(body);
  return c;
}

struct Tree {
  enum Op { kLeaf, kAnd, kOr } op;
  int clause; // kLeaf
  std::vector<Tree> operands;
};
inline Tree Leaf(int clause) { return Tree{Tree::kLeaf, clause, {}}; }
inline Tree And(std::initializer_list<Tree> operands) { return Tree{Tree::kAnd, -1, operands}; }
inline Tree Or(std::initializer_list<Tree> operands) { return Tree{Tree::kOr, -1, operands}; }
// Leaf(0) or Leaf(1) or ... for every clause.
Tree AnyOf(size_t clauses);

struct Outcome {
  bool all_or = false;
  std::vector<int> ran;             // clauses whose bodies ran, in order
  std::vector<int> completed_unrun; // completed (unregister said so) but body skipped
  bool else_ran = false;
  bool jumped = false;
  bool nothing = false;     // every clause was removed by its guard
  int registered_again = 0; // all-or: clauses dropped while registering
  bool waited = false;      // got past registration without a winner (step 3)
};

// Runs the statement on the calling user thread.  `else_body` empty: no else.
Outcome Waituntil(const Tree &tree, std::vector<Clause> &clauses,
                  std::function<void()> else_body = nullptr);

} // namespace wuc_test

#endif
