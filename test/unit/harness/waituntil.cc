// waituntil.cc — the hand-lowered statement driver (waituntil.h).  Each
// step is commented with its number in <wuc/select.h>.
#include "waituntil.h"

#include <memory>

namespace wuc_test {

Tree AnyOf(size_t clauses) {
  Tree t{Tree::kOr, -1, {}};
  for (size_t i = 0; i < clauses; i++) t.operands.push_back(Leaf(static_cast<int>(i)));
  return t;
}

namespace {

bool HasAnd(const Tree &t) {
  if (t.op == Tree::kAnd) return true;
  for (const Tree &o : t.operands)
    if (HasAnd(o)) return true;
  return false;
}

class Statement {
public:
  Statement(const Tree &tree, std::vector<Clause> &clauses, std::function<void()> else_body)
      : tree_(tree), clauses_(clauses), else_body_(std::move(else_body)), count_(clauses.size()),
        nodes_(new wuc_select_node[clauses.size()]()), // zeroed: never registered
        registered_(count_, false), unregistered_(count_, false), ran_(count_, false) {}

  Outcome Run() {
    if (!Present(tree_)) { // every clause removed: nothing happens, not even the else
      out_.nothing = true;
      return out_;
    }
    out_.all_or = !HasAnd(tree_); // decided from the source, as wucc does
    wuc_select_stmt_init(&stmt_, out_.all_or);
    for (size_t i = 0; i < count_; i++)
      if (clauses_[i].guard) wuc_select_node_init(&nodes_[i], &stmt_, clauses_[i].data);
    if (out_.all_or)
      RunAllOr();
    else
      RunMixed();
    return out_;
  }

private:
  bool Enabled(size_t i) const { return clauses_[i].guard; }
  bool Live(size_t i) const { return registered_[i] && !unregistered_[i]; }
  int IndexOf(const wuc_select_node *n) const { return static_cast<int>(n - nodes_.get()); }

  bool Register(size_t i, bool try_only) {
    // Written only when it changes: a clause registered again after a drop
    // may still be queued (a timer that can fire and read it meanwhile).
    if (nodes_[i].try_only != try_only) nodes_[i].try_only = try_only;
    registered_[i] = true;
    return clauses_[i].reg(&nodes_[i]);
  }

  bool Unregister(size_t i) {
    unregistered_[i] = true;
    return clauses_[i].unreg(&nodes_[i]);
  }

  // Step 4's first half: on_selected, then the body.
  Flow Select(size_t i) {
    if (!clauses_[i].on_selected(&nodes_[i])) {
      out_.completed_unrun.push_back(static_cast<int>(i));
      return Flow::kNext;
    }
    ran_[i] = true;
    out_.ran.push_back(static_cast<int>(i));
    return clauses_[i].body ? clauses_[i].body() : Flow::kNext;
  }

  // Step 5 for clause i: withdraw it; a clause that completed after all runs
  // its body only if on_selected still says so (never when jumping out).
  // (Such a body is a channel's; a jump out of it is not modelled.)
  void Withdraw(size_t i, bool jumping) {
    nodes_[i].needed = false;
    if (!Unregister(i) || ran_[i]) return; // ran: a body that jumped out
    if (jumping || !clauses_[i].on_selected(&nodes_[i])) {
      out_.completed_unrun.push_back(static_cast<int>(i));
      return;
    }
    ran_[i] = true;
    out_.ran.push_back(static_cast<int>(i));
    if (clauses_[i].body) clauses_[i].body();
  }

  void WithdrawAll(bool jumping) {
    for (size_t i = 0; i < count_; i++)
      if (Live(i)) Withdraw(i, jumping);
  }

  void Jump() {
    out_.jumped = true;
    WithdrawAll(/*jumping=*/true);
  }

  void RunAllOr() {
    int winner = -1;
    // 1. fast path: try each clause in source order without queueing.
    for (size_t i = 0; i < count_ && winner < 0; i++)
      if (Enabled(i) && Register(i, /*try_only=*/true)) winner = static_cast<int>(i);
    if (winner < 0 && else_body_) {
      // else: close the race; nothing can win any more (unless a resource
      // that ignores try_only queued a node and completed it meanwhile).
      if (wuc_select_node *w = wuc_select_close(&stmt_)) {
        winner = IndexOf(w);
      } else {
        WithdrawAll(/*jumping=*/false);
        out_.else_ran = true;
        else_body_();
        return;
      }
    }
    if (winner < 0) {
      // 2. register; a true is the winner: stop registering.  Meanwhile
      // other parties cannot claim our clauses: they drop them and leave
      // them on a list, and we register those again until none is left.
      wuc_select_begin_registration(&stmt_);
      for (size_t i = 0; i < count_ && winner < 0; i++)
        if (Enabled(i) && Register(i, /*try_only=*/false)) winner = static_cast<int>(i);
      while (winner < 0) {
        wuc_select_node *again = wuc_select_end_registration(&stmt_);
        if (!again) break;
        while (again && winner < 0) {
          wuc_select_node *next = again->rereg_next; // a new drop rewrites it
          out_.registered_again++;
          if (Register(static_cast<size_t>(IndexOf(again)), /*try_only=*/false))
            winner = IndexOf(again);
          again = next;
        }
      }
      // 3. wait for the winner.
      if (winner < 0) {
        out_.waited = true;
        winner = IndexOf(wuc_select_wait_winner(&stmt_));
      }
    }
    // 4. the winner's body, then its unregister.
    if (Select(winner) == Flow::kJump) return Jump();
    Unregister(winner);
    // 5. every other registered clause.
    WithdrawAll(/*jumping=*/false);
  }

  // Parks unless a live node is CLAIMED or DONE (wuc_select_wait_any waits
  // that one out): its unpark may have been spent on an earlier park.  Only
  // live nodes: a consumed one stays DONE.
  void WaitForChange() {
    for (size_t i = 0; i < count_; i++) {
      if (Live(i) && wuc_select_is_claimed(&nodes_[i])) {
        wuc_select_wait_any(&stmt_, &nodes_[i], 1);
        return;
      }
    }
    wuc_select_wait_any(&stmt_, nullptr, 0);
  }

  void RunMixed() {
    // 2. register every enabled clause (once, without queueing, with an else).
    bool has_else = static_cast<bool>(else_body_);
    for (size_t i = 0; i < count_; i++)
      if (Enabled(i)) Register(i, /*try_only=*/has_else);
    // 3. run bodies as their clauses complete, in source order.
    for (;;) {
      bool progress = false;
      for (size_t i = 0; i < count_; i++) {
        if (!Live(i) || !wuc_select_is_done(&nodes_[i])) continue;
        progress = true;
        // 4. on_selected, body, then unregister (a lock is released here).
        Flow flow = Select(i);
        Unregister(i);
        if (flow == Flow::kJump) return Jump();
        WithdrawUnneeded();
      }
      if (Satisfied(tree_)) break;
      if (has_else) {
        WithdrawAll(/*jumping=*/false);
        out_.else_ran = true;
        else_body_();
        return;
      }
      if (!progress) {
        out_.waited = true;
        WaitForChange();
      }
    }
    // 5. what is left is no longer needed.
    WithdrawAll(/*jumping=*/false);
  }

  // ---- the and/or tree, with guard-removed clauses as identities ----------

  bool Present(const Tree &t) const {
    if (t.op == Tree::kLeaf) return Enabled(static_cast<size_t>(t.clause));
    for (const Tree &o : t.operands)
      if (Present(o)) return true;
    return false;
  }

  // Satisfied by bodies that have run.
  bool Satisfied(const Tree &t) const {
    if (t.op == Tree::kLeaf) return ran_[static_cast<size_t>(t.clause)];
    bool any = false, all = true;
    for (const Tree &o : t.operands) {
      if (!Present(o)) continue;
      bool s = Satisfied(o);
      any = any || s;
      all = all && s;
    }
    return t.op == Tree::kAnd ? all : any;
  }

  // Rule 4: a clause under a satisfied `or` (or a satisfied statement) is
  // withdrawn; step 5 for it now.
  void WithdrawUnneeded() { WithdrawUnder(tree_, Satisfied(tree_)); }

  void WithdrawUnder(const Tree &t, bool unneeded) {
    if (t.op == Tree::kLeaf) {
      size_t i = static_cast<size_t>(t.clause);
      if (unneeded && Live(i)) Withdraw(i, /*jumping=*/false);
      return;
    }
    if (t.op == Tree::kOr && Present(t) && Satisfied(t)) unneeded = true;
    for (const Tree &o : t.operands) WithdrawUnder(o, unneeded);
  }

  const Tree &tree_;
  std::vector<Clause> &clauses_;
  std::function<void()> else_body_;
  size_t count_;
  wuc_select_stmt stmt_;
  std::unique_ptr<wuc_select_node[]> nodes_;
  std::vector<bool> registered_, unregistered_, ran_;
  Outcome out_;
};

} // namespace

Outcome Waituntil(const Tree &tree, std::vector<Clause> &clauses, std::function<void()> else_body) {
  return Statement(tree, clauses, std::move(else_body)).Run();
}

} // namespace wuc_test
