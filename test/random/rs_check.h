/* rs_check.h — the accounting every generated program does on itself.
 *
 * gen.py pastes this file at the top of each program it writes (so a failing
 * program is one self-contained file), after defining the sizes below.  Any
 * violation prints "VIOLATION: ..." and exits with status 3 at once.
 *
 * Sizes the generator defines before this text:
 *   RS_SENDERS  producer threads        RS_MAXSEQ  values one producer may evaluate
 *   RS_THREADS  threads with an index   RS_CHANS   channels
 *   RS_LOCKS, RS_SEMS, RS_LATCHES, RS_FUTURES
 */
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <wuc.h>

static void rs_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("VIOLATION: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fflush(stdout);
  fflush(stderr);
  _exit(3);
}

struct rs_msg { /* the struct element: v and a check word, padded */
  int v;
  unsigned check;
  char pad[RS_MSG_PAD];
};

/* ---- where each thread is, for a hang --------------------------------------
 * The driver runs programs with WUC_ABORT=1, so the runtime's deadlock
 * report ends in abort(); the handler then lists the statement (and loop
 * iteration) each thread was in. */
static const char *volatile rs_where[RS_THREADS];
static volatile int rs_where_it[RS_THREADS];
static void rs_at(int t, const char *what, int it) {
  rs_where[t] = what;
  rs_where_it[t] = it;
}
static void rs_on_abort(int sig) {
  (void)sig;
  char line[160];
  for (int t = 0; t < RS_THREADS; t++) {
    int n = snprintf(line, sizeof line, "rs: thread %d was last in %s (iteration %d)\n", t,
                     rs_where[t] ? rs_where[t] : "(not started)", rs_where_it[t]);
    if (write(2, line, (size_t)n) < 0) break;
  }
  _exit(2);
}

/* ---- one execution of one waituntil statement --------------------------
 * The statement's and/or tree is a table of nodes in pre-order (a parent
 * before its kids); clause bodies, guards and resource expressions report to
 * an rs_exec on the stack, and rs_end checks the outcome against
 * docs/language.md, 'Semantics'. */
enum { RS_LEAF, RS_AND, RS_OR };
enum { RS_MAXC = 24 };

struct rs_node {
  signed char kind;
  signed char parent; /* -1 for the root */
  signed char clause; /* a leaf's clause index */
};

struct rs_desc {
  const char *name; /* "s12 at line 345" */
  int nnodes, nclauses;
  const struct rs_node *nodes;
  const unsigned char
      *transfer; /* clause moves a channel element (its body runs even when unneeded) */
  const unsigned char *has_guard; /* clause (or, at index nclauses, the else) has a `when` */
  const unsigned char *has_ev;    /* the resource expression reports its evaluation (rs_ev) */
  const unsigned char *is_send;   /* a send clause: its value reports its evaluation (rs_sv) */
  int all_or, has_else;
};

struct rs_exec {
  const struct rs_desc *d;
  unsigned char guard[RS_MAXC + 1]; /* the value each guard evaluated to */
  unsigned char enabled[RS_MAXC];   /* resource expression evaluated */
  unsigned char ran[RS_MAXC];
  unsigned char values[RS_MAXC]; /* send values evaluated */
  unsigned char
      ready[RS_MAXC]; /* a latch or future clause already set before the statement began */
  unsigned char log[2 * RS_MAXC + 2]; /* evaluation events, in order */
  int nlog, nbodies, else_ran, jumped;
};

static void rs_begin(struct rs_exec *x, const struct rs_desc *d) {
  memset(x, 0, sizeof *x);
  x->d = d;
  for (int i = 0; i < d->nclauses; i++) x->enabled[i] = !d->has_guard[i] && !d->has_ev[i];
}

static void rs_logev(struct rs_exec *x, int code) {
  if (x->nlog >= (int)sizeof x->log)
    rs_fail("%s: more evaluations than guards and resources", x->d->name);
  x->log[x->nlog++] = (unsigned char)code;
}

/* The guard of clause i (i == nclauses: the else's guard). */
static int rs_g(struct rs_exec *x, int i, int value) {
  rs_logev(x, 2 * i);
  x->guard[i] = value != 0;
  if (i < x->d->nclauses && !x->d->has_ev[i]) x->enabled[i] = value != 0;
  return value != 0;
}

/* The resource expression of clause i is being evaluated. */
static void rs_ev(struct rs_exec *x, int i) {
  rs_logev(x, 2 * i + 1);
  x->enabled[i] = 1;
}

/* The value of send clause i is being evaluated. */
static long long rs_sv(struct rs_exec *x, int i, long long v) {
  x->values[i]++;
  return v;
}
static struct rs_msg rs_msv(struct rs_exec *x, int i, struct rs_msg m) {
  x->values[i]++;
  return m;
}

/* Bottom-up over the pre-order table: present and satisfied of every node. */
static void rs_eval_tree(const struct rs_exec *x, unsigned char *present, unsigned char *sat) {
  const struct rs_desc *d = x->d;
  unsigned char any_sat[64], all_sat[64];
  for (int n = 0; n < d->nnodes; n++) present[n] = 0, any_sat[n] = 0, all_sat[n] = 1;
  for (int n = d->nnodes - 1; n >= 0; n--) {
    const struct rs_node *nd = &d->nodes[n];
    if (nd->kind == RS_LEAF) {
      present[n] = x->enabled[nd->clause];
      sat[n] = x->ran[nd->clause];
    } else if (nd->kind == RS_AND) {
      sat[n] = present[n] && all_sat[n];
    } else {
      sat[n] = present[n] && any_sat[n];
    }
    if (nd->parent >= 0 && present[n]) {
      present[nd->parent] = 1;
      if (sat[n])
        any_sat[nd->parent] = 1;
      else
        all_sat[nd->parent] = 0;
    }
  }
}

/* Clause c is needed: its body has not run and no node above it is satisfied. */
static int rs_needed(const struct rs_exec *x, int c) {
  unsigned char present[64], sat[64];
  rs_eval_tree(x, present, sat);
  const struct rs_desc *d = x->d;
  int leaf = -1;
  for (int n = 0; n < d->nnodes; n++)
    if (d->nodes[n].kind == RS_LEAF && d->nodes[n].clause == c) leaf = n;
  for (int n = leaf; n >= 0; n = d->nodes[n].parent)
    if (sat[n]) return 0;
  return 1;
}

/* Entry of clause i's body. */
static void rs_body(struct rs_exec *x, int i) {
  const struct rs_desc *d = x->d;
  if (x->jumped) rs_fail("%s: body of clause %d ran after a jump left the statement", d->name, i);
  if (!x->enabled[i]) rs_fail("%s: body of clause %d ran, but its guard was false", d->name, i);
  if (x->ran[i]) rs_fail("%s: body of clause %d ran twice", d->name, i);
  if (x->else_ran) rs_fail("%s: body of clause %d ran after the else", d->name, i);
  if (!d->transfer[i] && !rs_needed(x, i))
    rs_fail("%s: body of clause %d ran although the clause was no longer needed", d->name, i);
  if (d->all_or && x->nbodies > 0)
    rs_fail("%s: all-or statement ran a second body (clause %d)", d->name, i);
  for (int j = 0; d->all_or && j < i; j++)
    if (x->enabled[j] && x->ready[j])
      rs_fail("%s: clause %d won, but clause %d before it was ready all along (priority)", d->name,
              i, j);
  x->ran[i] = 1;
  x->nbodies++;
}

static void rs_else(struct rs_exec *x) {
  const struct rs_desc *d = x->d;
  if (x->else_ran) rs_fail("%s: else ran twice", d->name);
  if (d->has_guard[d->nclauses] && !x->guard[d->nclauses])
    rs_fail("%s: else ran, but its guard was false", d->name);
  for (int j = 0; j < d->nclauses; j++)
    if (d->all_or && x->enabled[j] && x->ready[j])
      rs_fail("%s: else ran, but clause %d was ready all along", d->name, j);
  x->else_ran = 1;
}

/* At the end of the statement (also when a body left it by a jump). */
static void rs_end(struct rs_exec *x) {
  const struct rs_desc *d = x->d;
  /* Rule 1: every guard once, each resource once iff its guard held, in source order; the else
   * guard last. */
  int k = 0;
  for (int i = 0; i <= d->nclauses; i++) {
    if (i == d->nclauses && !d->has_else) break;
    int on = 1;
    if (d->has_guard[i]) {
      if (k >= x->nlog || x->log[k] != 2 * i)
        rs_fail("%s: guard of clause %d not evaluated once, in order (event %d)", d->name, i, k);
      k++;
      on = x->guard[i];
    }
    if (i < d->nclauses && d->is_send[i] && x->values[i] != on)
      rs_fail("%s: send value of clause %d evaluated %d times", d->name, i, x->values[i]);
    if (i < d->nclauses && on && d->has_ev[i]) {
      if (k >= x->nlog || x->log[k] != 2 * i + 1)
        rs_fail("%s: resource of clause %d not evaluated once, in order (event %d)", d->name, i, k);
      k++;
    }
  }
  if (k != x->nlog) rs_fail("%s: %d evaluations, expected %d", d->name, x->nlog, k);
  if (x->jumped) return; /* a jump withdraws what is left: nothing more to expect */
  unsigned char present[64], sat[64];
  rs_eval_tree(x, present, sat);
  if (!present[0]) {
    if (x->nbodies || x->else_ran) rs_fail("%s: every clause was removed, yet a body ran", d->name);
    return;
  }
  if (x->else_ran) {
    if (sat[0]) rs_fail("%s: else ran although the tree was satisfied", d->name);
    if (d->all_or && x->nbodies)
      rs_fail("%s: all-or statement ran a clause body and the else", d->name);
    return;
  }
  if (!sat[0])
    rs_fail("%s: statement ended with its tree not satisfied (an and-tree incomplete)", d->name);
  if (d->all_or && x->nbodies != 1)
    rs_fail("%s: all-or statement ran %d bodies", d->name, x->nbodies);
}

/* ---- channel values ------------------------------------------------------
 * Value = sender << 20 | (seq + 1): unique per program.  Each evaluated value
 * records its channel and its sender's statement epoch; two values of one
 * sender on one channel must be received in epoch order (values of one
 * statement have no order between them). */
enum { RS_UNUSED, RS_EVALUATED, RS_SENT, RS_MAYBE };
struct rs_meta {
  int chan, epoch;
  unsigned char state;
  atomic_int received;
};
static struct rs_meta rs_meta[RS_SENDERS][RS_MAXSEQ];
static atomic_int rs_nseq[RS_SENDERS];
static int rs_floor[RS_THREADS][RS_CHANS][RS_SENDERS];
static atomic_int rs_close_started[RS_CHANS];

static unsigned rs_check_word(int v) { return (unsigned)v * 2654435761u ^ 0x5bd1e995u; }

/* A new value for sender s on channel c in statement epoch e. */
static int rs_val(int s, int c, int e) {
  int q = atomic_fetch_add(&rs_nseq[s], 1);
  if (q >= RS_MAXSEQ)
    rs_fail("generator bug: sender %d evaluated more than %d values", s, RS_MAXSEQ);
  rs_meta[s][q].chan = c;
  rs_meta[s][q].epoch = e;
  rs_meta[s][q].state = RS_EVALUATED;
  return s << 20 | (q + 1);
}
static struct rs_msg rs_mval(int s, int c, int e) {
  struct rs_msg m;
  memset(&m, 0, sizeof m);
  m.v = rs_val(s, c, e);
  m.check = rs_check_word(m.v);
  return m;
}

static struct rs_meta *rs_meta_of(long long v, const char *what) {
  int s = (int)(v >> 20), q = (int)(v & 0xfffff) - 1;
  if (v <= 0 || s >= RS_SENDERS || q < 0 || q >= atomic_load(&rs_nseq[s]))
    rs_fail("%s: value %lld was never sent", what, v);
  return &rs_meta[s][q];
}

/* The send clause (or plain send) of value v completed. */
static void rs_sent(long long v) {
  struct rs_meta *m = rs_meta_of(v, "send body");
  if (m->state != RS_EVALUATED) rs_fail("send body: value %lld completed twice", v);
  m->state = RS_SENT;
}
/* The statement of a send clause was left by a jump before its body: delivered or not. */
static void rs_maybe_sent(long long v) {
  struct rs_meta *m = rs_meta_of(v, "send after jump");
  if (m->state == RS_EVALUATED) m->state = RS_MAYBE;
}

/* Thread t received v from channel c. */
static void rs_recv(int t, int c, long long v) {
  struct rs_meta *m = rs_meta_of(v, "receive");
  int s = (int)(v >> 20);
  if (m->chan != c) rs_fail("value %lld sent on channel %d arrived on channel %d", v, m->chan, c);
  if (atomic_fetch_add(&m->received, 1) != 0)
    rs_fail("value %lld (sender %d) received twice (second by thread %d)", v, s, t);
  if (m->epoch < rs_floor[t][c][s])
    rs_fail("FIFO: thread %d got value %lld (sender %d, statement %d) on channel %d after one from "
            "its statement %d",
            t, v, s, m->epoch, c, rs_floor[t][c][s]);
  rs_floor[t][c][s] = m->epoch;
}
static void rs_mrecv(int t, int c, struct rs_msg *m) {
  if (m->check != rs_check_word(m->v)) rs_fail("channel %d: element %d arrived damaged", c, m->v);
  rs_recv(t, c, m->v);
}

/* A closed(ch) clause of channel c ran. */
static void rs_closed_seen(int c, size_t len) {
  if (!atomic_load(&rs_close_started[c])) rs_fail("closed(ch%d) ran before anyone closed it", c);
  if (len != 0) rs_fail("closed(ch%d) ran with %zu elements buffered", c, len);
}

/* After every thread is joined: each sent value received exactly once. */
static void rs_check_values(long *sent, long *received) {
  for (int s = 0; s < RS_SENDERS; s++)
    for (int q = 0; q < atomic_load(&rs_nseq[s]); q++) {
      struct rs_meta *m = &rs_meta[s][q];
      int r = atomic_load(&m->received);
      long long v = (long long)s << 20 | (q + 1);
      if (m->state == RS_SENT && r != 1)
        rs_fail("value %lld (sender %d, channel %d) sent, received %d times", v, s, m->chan, r);
      if (m->state == RS_EVALUATED && r != 0)
        rs_fail("value %lld (sender %d, channel %d) received but its send body never ran", v, s,
                m->chan);
      if (m->state == RS_SENT) ++*sent;
      *received += r;
    }
}

/* ---- locks and semaphores: who is inside ------------------------------- */
static atomic_int rs_lock_owner[RS_LOCKS + 1], rs_lock_depth[RS_LOCKS + 1];
static void rs_lock_in(int l, int t) {
  int o = atomic_load(&rs_lock_owner[l]);
  if (atomic_load(&rs_lock_depth[l]) > 0 && o != t)
    rs_fail("lock %d held by thread %d and by thread %d", l, o, t);
  atomic_store(&rs_lock_owner[l], t);
  atomic_fetch_add(&rs_lock_depth[l], 1);
}
static void rs_lock_out(int l, int t) {
  if (atomic_load(&rs_lock_owner[l]) != t)
    rs_fail("lock %d: thread %d leaves, owner is %d", l, t, atomic_load(&rs_lock_owner[l]));
  if (atomic_fetch_sub(&rs_lock_depth[l], 1) == 1) atomic_store(&rs_lock_owner[l], -1);
}

static int rs_sem_permits[RS_SEMS + 1];
static atomic_int rs_sem_inside[RS_SEMS + 1];
static void rs_sem_in(int s) {
  if (atomic_fetch_add(&rs_sem_inside[s], 1) >= rs_sem_permits[s])
    rs_fail("semaphore %d: more than %d holders", s, rs_sem_permits[s]);
}
static void rs_sem_out(int s) { atomic_fetch_sub(&rs_sem_inside[s], 1); }

/* ---- latches and futures ------------------------------------------------ */
static atomic_int rs_latch_set_started[RS_LATCHES + 1];
static void rs_latch_seen(int i) {
  if (!atomic_load(&rs_latch_set_started[i]))
    rs_fail("latch %d clause ran before anyone set it", i);
}
static atomic_int rs_future_winner[RS_FUTURES + 1]; /* value whose future_set returned true */
static void rs_future_seen(int f, int v) {
  if (v <= 0 || v % 64 != f) rs_fail("future %d holds %d, which no setter of it set", f, v);
}
static void rs_future_set_result(int f, int v, int ok) {
  if (ok) {
    int zero = 0;
    if (!atomic_compare_exchange_strong(&rs_future_winner[f], &zero, v))
      rs_fail("future %d: future_set succeeded twice", f);
  }
}
