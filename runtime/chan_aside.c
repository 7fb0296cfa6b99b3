/* chan_aside.c — waituntil clauses set aside because they met a clause of
 * their own statement (a send and a receive clause on one channel).
 *
 * Cell i is taken once by a send and once by a receive.  When a statement's
 * receive clause takes cell i and finds its own send clause waiting there
 * (or the other way round), they must not pair (docs/language.md, section 4),
 * and the waiting clause must leave the cell.  Registering it again at once
 * cannot help while the statement is alone on the channel: its fresh cell is
 * the one the sibling waits in, and the two would meet each other for ever.
 * So the clause is set aside here, on a list under the channel's watch lock,
 * its statement parks with the sibling in a cell, and the clause is handed
 * back (wuc_select_defer) when another party takes a cell of the channel:
 * every operation's end looks at ch->attention (one load it makes anyway,
 * chan_cell.h) and wakes the list when ATTENTION_ASIDE is set.  Alone, the
 * statement stays parked, and the deadlock report sees it.
 *
 * Why no wake-up is lost: chan_set_aside lists the clause and sets
 * ATTENTION_ASIDE (a seq_cst read-modify-write), then reads S and R; every
 * other operation moves S or R (a seq_cst fetch-and-add) before it loads
 * attention at its end.  So either that load sees the bit, or the clause's
 * thread sees S or R beyond the cell where the two clauses met and hands the
 * clause back itself.  Close sets the closed bit in S and wakes the list
 * too (a send clause handed back then stops the program, as a send clause
 * on a closed channel does).
 *
 * A node's res.word[RES_ASIDE] is 0, or the next node on the list plus
 * ASIDE_LISTED while it is listed.  The wake hands nodes back under the lock
 * and clears the word last, after wuc_select_defer has woken the thread: a
 * clause's unreg that sees the word clear knows nobody will touch its
 * statement again; one that sees it set takes the lock.  The statement may
 * register a handed-back clause again before the waker unlocks, and even set
 * it aside again: that takes the lock too, so the words never mix. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/channel.h>
#include <wuc/select.h>

#include "chan_cell.h"
#include "spin.h"

#define ASIDE_LISTED ((uintptr_t)1)

static void watch_lock(wuc_chan *ch) { wuc_spin_lock(&ch->watch_lock); }
static void watch_unlock(wuc_chan *ch) { wuc_spin_unlock(&ch->watch_lock); }

static _Atomic uintptr_t *aside_word(wuc_select_node *n) {
  return (_Atomic uintptr_t *)&n->res.word[RES_ASIDE];
}

static wuc_select_node *next_aside(wuc_select_node *n) {
  return (wuc_select_node *)(atomic_load_explicit(aside_word(n), memory_order_relaxed) &
                             ~ASIDE_LISTED);
}

static void set_next(wuc_select_node *n, wuc_select_node *next) {
  atomic_store_explicit(aside_word(n), (uintptr_t)next | ASIDE_LISTED, memory_order_relaxed);
}

/* Under the lock: the list is `head` now. */
static void set_list(wuc_chan *ch, wuc_select_node *head) {
  ch->aside = head;
  if (!head) atomic_fetch_and(&ch->attention, ~ATTENTION_ASIDE);
}

/* Under the lock: takes n off the list; false if it was not on it. */
static bool unlist(wuc_chan *ch, wuc_select_node *n) {
  if (!(atomic_load_explicit(aside_word(n), memory_order_relaxed) & ASIDE_LISTED)) return false;
  wuc_select_node *prev = NULL;
  for (wuc_select_node *m = ch->aside; m; prev = m, m = next_aside(m)) {
    if (m != n) continue;
    if (prev)
      set_next(prev, next_aside(n));
    else
      set_list(ch, next_aside(n));
    break;
  }
  atomic_store_explicit(aside_word(n), 0, memory_order_relaxed);
  return true;
}

void wuc_chan_set_aside(wuc_chan *ch, wuc_select_node *n, uint64_t index) {
  watch_lock(ch);
  set_next(n, ch->aside);
  ch->aside = n;
  atomic_fetch_or(&ch->attention, ATTENTION_ASIDE); /* the store half: seq_cst */
  watch_unlock(ch);
  /* The load half.  Only the two clauses that met have taken cell `index`
   * (one by S, one by R), so S and R are exactly index + 1 unless someone
   * else took a cell meanwhile (or close set the closed bit in S). */
  if (atomic_load(&ch->senders) == index + 1 && atomic_load(&ch->receivers) == index + 1) return;
  /* That party may have missed n on the list: hand n back now (unless a
   * wake has done so already).  Its fresh cell is not the sibling's. */
  watch_lock(ch);
  if (unlist(ch, n)) wuc_select_defer(n); /* our own thread: no unpark */
  watch_unlock(ch);
}

void wuc_chan_wake_aside(wuc_chan *ch, const wuc_select_stmt *self) {
  watch_lock(ch);
  wuc_select_node *n = ch->aside, *kept = NULL;
  while (n) {
    wuc_select_node *next = next_aside(n);
    if (n->stmt == self) { /* ours: we are the statement meeting itself */
      set_next(n, kept);
      kept = n;
    } else {
      wuc_select_defer(n); /* wakes the statement's thread */
      atomic_store_explicit(aside_word(n), 0, memory_order_release);
    }
    n = next;
  }
  set_list(ch, kept);
  watch_unlock(ch);
}

void wuc_chan_unset_aside(wuc_chan *ch, wuc_select_node *n) {
  /* Also called for clauses never set aside (RES_CHAN may be anything) */
  if (!atomic_load_explicit(aside_word(n), memory_order_acquire)) return;
  watch_lock(ch);
  unlist(ch, n);
  watch_unlock(ch);
}
