/* <wuc/channel.h> — channels: FIFO, lock-free, rendezvous / buffered / unbounded.
 *
 * The algorithm is the one of "Fast and Scalable Channels in Kotlin
 * Coroutines" (arXiv 2211.04986): an infinite array of cells walked by three
 * counters — S (sends begun), R (receives begun), B (end of the buffer) —
 * advanced by fetch-and-add; see runtime/channel.c and docs/channels.md.
 *
 * Types.  A channel of T is a struct with a `core` (wuc_chan), its first
 * member, and a zero-length `__wuc_elem` array that only carries T for the
 * typed macros:
 *
 *   WUC_CHANNEL(T) c;                 anonymous struct type: locals, statics,
 *                                     members
 *   WUC_CHANNEL_STRUCT(tag, T);       a named struct type, to pass channels
 *                                     between functions and files (any scope)
 *
 * The dialect's `channel(T)` is rewritten by wucc into a named struct per T
 * (the same T names the same type everywhere).  The chan_* macros work on
 * any of these.  A zero-initialised channel is a ready rendezvous channel.
 *
 * Operations (docs/library.md): chan_init(&c, cap) once on a fresh channel
 * (cap 0: rendezvous, CHAN_UNBOUNDED: never blocks a sender); chan_send
 * (blocks; false if closed); chan_recv (blocks; false once closed and
 * drained); chan_try_send / chan_try_recv (never block); chan_close
 * (idempotent; elements already buffered are still delivered; blocked
 * senders and receivers wake and fail); chan_is_closed; chan_len; chan_cap;
 * chan_destroy (no thread may use the channel any more).
 *
 * Values follow C's assignment conversions to T.  Misuse — a second
 * chan_init, chan_init after use, any use after chan_destroy, destroying a
 * channel with waiters — stops the program with a message. */
#ifndef WUC_CHANNEL_H
#define WUC_CHANNEL_H

#include <wuc/base.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WUC_CHAN_UNBOUNDED WUC_SIZE_MAX

struct wuc_chan_segment;

/* The padding is explicit (-Wpadded): each group starts a cache line. */
typedef struct wuc_chan {
  /* The three counters on cache lines of their own: senders and receivers
   * hammer different ones. */
  WUC_EXT_ WUC_ATOMIC(wuc_uint64_t) senders __attribute__((__aligned__(64))); /* S | closed bit */
  /* A lower bound of B, next to S: a sender that finds room below it need
   * not read B's line, which the receivers keep writing. */
  WUC_EXT_ WUC_ATOMIC(wuc_uint64_t) buffer_end_seen;
  char __wuc_pad0[48];
  WUC_EXT_ WUC_ATOMIC(wuc_uint64_t) receivers __attribute__((__aligned__(64))); /* R */
  char __wuc_pad1[56];
  WUC_EXT_ WUC_ATOMIC(wuc_uint64_t) buffer_end __attribute__((__aligned__(64))); /* B */
  char __wuc_pad2[56];
  WUC_EXT_ WUC_ATOMIC(struct wuc_chan_segment *) send_segment __attribute__((__aligned__(64)));
  char __wuc_pad3[56];
  WUC_EXT_ WUC_ATOMIC(struct wuc_chan_segment *) receive_segment __attribute__((__aligned__(64)));
  char __wuc_pad4[56];
  WUC_EXT_ WUC_ATOMIC(struct wuc_chan_segment *) buffer_end_segment
      __attribute__((__aligned__(64)));
  char __wuc_pad5[56];
  /* Read by every operation, written once (set-up, close, destroy): on a
   * line of their own, so that reading them never misses. */
  WUC_EXT_ WUC_ATOMIC(wuc_uint32_t) state __attribute__((__aligned__(64))); /* fresh / initialising
                                                                             / ready / destroyed */
  wuc_uint32_t elem_size;
  wuc_uint64_t capacity;
  WUC_EXT_ WUC_ATOMIC(wuc_uint64_t) close_point; /* S at close, plus one; 0 while open */
  /* Nonzero when an operation's end has something to do: the channel is
   * closed (closed(ch) clauses may be waiting), or clauses are set aside. */
  WUC_EXT_ WUC_ATOMIC(wuc_uint32_t) attention;
  char __wuc_pad6[36];
  /* Written now and then: whenever a head pointer enters a new segment, and
   * by closed(ch) clauses. */
  WUC_EXT_ WUC_ATOMIC(int) maintenance_lock __attribute__((__aligned__(64)));
  char __wuc_pad7[4];
  struct wuc_chan_segment *oldest;     /* first linked segment, under maintenance_lock */
  WUC_EXT_ WUC_ATOMIC(int) watch_lock; /* the list of closed(ch) clauses waiting */
  char __wuc_pad8[4];
  struct wuc_select_node *watchers;
  /* waituntil clauses set aside, under watch_lock: they met a clause of
   * their own statement (runtime/chan_aside.c). */
  struct wuc_select_node *aside;
  char __wuc_pad9[24];
} wuc_chan;

/* T is the macros' last argument, so a type with commas in it (a function
 * pointer, enum e {A, B}) is one type. */
#define WUC_CHANNEL(...)                                                                           \
  struct {                                                                                         \
    wuc_chan core;                                                                                 \
    WUC_EXT_ __typeof__(__VA_ARGS__) __wuc_elem[0];                                                \
  }
#define WUC_CHANNEL_STRUCT(tag, ...)                                                               \
  struct tag {                                                                                     \
    wuc_chan core;                                                                                 \
    WUC_EXT_ __typeof__(__VA_ARGS__) __wuc_elem[0];                                                \
  }

/* The untyped core (elem_size is sizeof(T) for every call on a channel). */
void wuc_chan_init(wuc_chan *__wuc_ch, wuc_size_t __wuc_capacity, wuc_size_t __wuc_elem_size);
void wuc_chan_destroy(wuc_chan *__wuc_ch);
wuc_bool wuc_chan_send(wuc_chan *__wuc_ch, const void *__wuc_value, wuc_size_t __wuc_elem_size);
wuc_bool wuc_chan_recv(wuc_chan *__wuc_ch, void *__wuc_out, wuc_size_t __wuc_elem_size);
/* chan_send and chan_recv as their macros call them, with the call's site
 * ("FILE:LINE", or NULL) for the deadlock report and misuse messages: one
 * string, the cheapest argument to pass (WUC_SITE_). */
wuc_bool wuc_chan_send_at(wuc_chan *__wuc_ch, const void *__wuc_value, wuc_size_t __wuc_elem_size,
                          const char *__wuc_site);
wuc_bool wuc_chan_recv_at(wuc_chan *__wuc_ch, void *__wuc_out, wuc_size_t __wuc_elem_size,
                          const char *__wuc_site);
wuc_bool wuc_chan_try_send(wuc_chan *__wuc_ch, const void *__wuc_value, wuc_size_t __wuc_elem_size);
wuc_bool wuc_chan_try_recv(wuc_chan *__wuc_ch, void *__wuc_out, wuc_size_t __wuc_elem_size);
void wuc_chan_close(wuc_chan *__wuc_ch, wuc_size_t __wuc_elem_size);
wuc_bool wuc_chan_is_closed(wuc_chan *__wuc_ch);
wuc_size_t wuc_chan_len(wuc_chan *__wuc_ch);
wuc_size_t wuc_chan_cap(wuc_chan *__wuc_ch);

/* The waituntil clause forms.  wucc turns `x << ch` into a receive clause
 * whose node data points at a T (then assigned to x), `ch << e` into a send
 * clause whose node data points at e converted to T, and `closed(ch)` into
 * a closed clause; all three are selectable like any user type. */
typedef struct wuc_chan_recv_clause {
  wuc_chan *chan;
  wuc_size_t elem_size;
} wuc_chan_recv_clause;
typedef struct wuc_chan_send_clause {
  wuc_chan *chan;
  wuc_size_t elem_size;
} wuc_chan_send_clause;
typedef struct wuc_chan_closed_clause {
  wuc_chan *chan;
  wuc_size_t elem_size;
} wuc_chan_closed_clause;

struct wuc_select_node;
wuc_bool wuc_chan_recv_register(wuc_chan_recv_clause *__wuc_c, struct wuc_select_node *__wuc_n);
wuc_bool wuc_chan_recv_unregister(wuc_chan_recv_clause *__wuc_c, struct wuc_select_node *__wuc_n);
/* A completed transfer runs its body even when no longer needed: the
 * element has moved (docs/language.md, 'Semantics', rule 4).  Inline: the
 * winner of every statement with a receive clause calls it. */
static inline wuc_bool wuc_chan_recv_on_selected(wuc_chan_recv_clause *__wuc_c,
                                                 struct wuc_select_node *__wuc_n) {
  (void)__wuc_c;
  (void)__wuc_n;
  return 1;
}
wuc_bool wuc_chan_send_register(wuc_chan_send_clause *__wuc_c, struct wuc_select_node *__wuc_n);
wuc_bool wuc_chan_send_unregister(wuc_chan_send_clause *__wuc_c, struct wuc_select_node *__wuc_n);
wuc_bool wuc_chan_send_on_selected(wuc_chan_send_clause *__wuc_c, struct wuc_select_node *__wuc_n);
wuc_bool wuc_chan_closed_register(wuc_chan_closed_clause *__wuc_c, struct wuc_select_node *__wuc_n);
wuc_bool wuc_chan_closed_unregister(wuc_chan_closed_clause *__wuc_c,
                                    struct wuc_select_node *__wuc_n);
wuc_bool wuc_chan_closed_on_selected(wuc_chan_closed_clause *__wuc_c,
                                     struct wuc_select_node *__wuc_n);

/* The macros reach a channel's members in ways no macro of the program can
 * change (docs/lowering.md, "Names"): the element type through the reserved
 * __wuc_elem, the core by a cast (it is the first member), and their
 * temporaries are reserved names. */
#define WUC_CHAN_CORE_(ch) ((void)sizeof((ch)->__wuc_elem), (wuc_chan *)(ch))
#define WUC_CHAN_SIZE_(ch) sizeof((ch)->__wuc_elem[0])
#define WUC_CHAN_ELEM_(ch) __typeof__((ch)->__wuc_elem[0])

#define WUC_CHAN_RECV_CLAUSE(ch) ((wuc_chan_recv_clause){(wuc_chan *)(ch), WUC_CHAN_SIZE_(ch)})
#define WUC_CHAN_SEND_CLAUSE(ch) ((wuc_chan_send_clause){(wuc_chan *)(ch), WUC_CHAN_SIZE_(ch)})
#define WUC_CHAN_CLOSED_CLAUSE(ch) ((wuc_chan_closed_clause){(wuc_chan *)(ch), WUC_CHAN_SIZE_(ch)})

#define WUC_CHAN_INIT(ch, ...) wuc_chan_init((wuc_chan *)(ch), (__VA_ARGS__), WUC_CHAN_SIZE_(ch))
#define WUC_CHAN_DESTROY(ch) wuc_chan_destroy(WUC_CHAN_CORE_(ch))
#define WUC_CHAN_SEND(ch, ...)                                                                     \
  __extension__({                                                                                  \
    WUC_CHAN_ELEM_(ch) __wuc_value = (__VA_ARGS__);                                                \
    wuc_chan_send_at((wuc_chan *)(ch), &__wuc_value, sizeof __wuc_value, WUC_SITE_);               \
  })
#define WUC_CHAN_TRY_SEND(ch, ...)                                                                 \
  __extension__({                                                                                  \
    WUC_CHAN_ELEM_(ch) __wuc_value = (__VA_ARGS__);                                                \
    wuc_chan_try_send((wuc_chan *)(ch), &__wuc_value, sizeof __wuc_value);                         \
  })
#define WUC_CHAN_RECV(ch, ...)                                                                     \
  __extension__({                                                                                  \
    WUC_CHAN_ELEM_(ch) *__wuc_out = (__VA_ARGS__);                                                 \
    wuc_chan_recv_at((wuc_chan *)(ch), __wuc_out, sizeof *__wuc_out, WUC_SITE_);                   \
  })
#define WUC_CHAN_TRY_RECV(ch, ...)                                                                 \
  __extension__({                                                                                  \
    WUC_CHAN_ELEM_(ch) *__wuc_out = (__VA_ARGS__);                                                 \
    wuc_chan_try_recv((wuc_chan *)(ch), __wuc_out, sizeof *__wuc_out);                             \
  })
#define WUC_CHAN_CLOSE(ch) wuc_chan_close((wuc_chan *)(ch), WUC_CHAN_SIZE_(ch))
#define WUC_CHAN_IS_CLOSED(ch) wuc_chan_is_closed(WUC_CHAN_CORE_(ch))
#define WUC_CHAN_LEN(ch) wuc_chan_len(WUC_CHAN_CORE_(ch))
#define WUC_CHAN_CAP(ch) wuc_chan_cap(WUC_CHAN_CORE_(ch))

#ifdef __cplusplus
}
#endif

#include <wuc/select.h>
WUC_SELECTABLE_BUILTIN_(wuc_chan_recv_clause, wuc_chan_recv_register, wuc_chan_recv_unregister,
                        wuc_chan_recv_on_selected, WUC_SELECTABLE_TRY_WIN_FINAL);
WUC_SELECTABLE_BUILTIN_(wuc_chan_send_clause, wuc_chan_send_register, wuc_chan_send_unregister,
                        wuc_chan_send_on_selected, WUC_SELECTABLE_TRY_WIN_FINAL);
WUC_SELECTABLE_BUILTIN_(wuc_chan_closed_clause, wuc_chan_closed_register,
                        wuc_chan_closed_unregister, wuc_chan_closed_on_selected,
                        WUC_SELECTABLE_TRY_WIN_FINAL);
#endif
