/* <wuc/future.h> — future(T): a value set once by one thread and read by any
 * number of others, usable in waituntil clauses.
 *
 * Two layers.  wuc_future is the untyped core: a state word and a waiter
 * queue.  A typed future is any struct with a member `core` (wuc_future) and
 * a member `value` (the T); the macros below work on every such struct:
 *
 *   WUC_FUTURE(int) f;                       an anonymous struct: locals,
 *                                            statics, members
 *   WUC_FUTURE_STRUCT(future_int, int);      defines struct future_int (for
 *   struct future_int *p = ...;              futures passed between functions)
 *                                            and declares it selectable
 *   WUC_FUTURE_LOCAL_STRUCT(tag, T);         struct tag only, in any scope
 *
 * (wucc rewrites the dialect's future(T) into one such named struct per T.)
 * A zero-initialised future is empty.
 *
 * The operations, as <wuc.h> names them (here: WUC_FUTURE_SET, WUC_FUTURE_GET,
 * WUC_FUTURE_TRY_GET, WUC_FUTURE_IS_READY, WUC_FUTURE_RESET):
 *
 *   bool future_set(&f, v)        false if f was set already; v is converted
 *                                 to T as by assignment
 *   T    future_get(&f)           blocks until f is set
 *   bool future_try_get(&f, &out) false if f is not set yet
 *   bool future_ready(&f)
 *   void future_reset(&f)         makes f empty again
 *
 * States: EMPTY --set--> SETTING --value stored--> READY --reset--> EMPTY.
 * SETTING lets exactly one future_set store the value; READY is published
 * with release order after it, so a reader that sees READY sees the value.
 * READY is stored under the queue's spinlock and waiters queue under it only
 * after seeing the future not READY: a waiter is queued before the set takes
 * the queue, and the set wakes it.
 *
 * As a waituntil clause (`waituntil (f) body`): ready when f is set; the
 * clause does nothing to f; read the value in the body with future_get.
 *
 * Misuse stops the program: future_reset while a thread waits in future_get
 * or a waituntil clause on the future is still registered and has not
 * completed (a clause whose body runs has completed). */
#ifndef WUC_FUTURE_H
#define WUC_FUTURE_H

#include <wuc/lock.h> /* wuc_waitq */
#include <wuc/select.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { WUC_FUTURE_EMPTY = 0, WUC_FUTURE_SETTING = 1, WUC_FUTURE_READY = 2 };

typedef struct wuc_future {
  WUC_EXT_ WUC_ATOMIC(int) state;
  char __wuc_pad[4];
  wuc_waitq waiters;
} wuc_future;

static inline wuc_bool wuc_future_is_ready(wuc_future *__wuc_f) {
  return WUC_LOAD_ACQUIRE_(&__wuc_f->state) == WUC_FUTURE_READY;
}

/* The core operations, for the typed macros: a set is begin (false: set
 * already), store the value, end (publish and wake). */
wuc_bool wuc_future_begin_set(wuc_future *__wuc_f);
void wuc_future_end_set(wuc_future *__wuc_f);
/* Blocks until f is READY. */
void wuc_future_wait_at(wuc_future *__wuc_f, const char *__wuc_file, int __wuc_line);
void wuc_future_reset(wuc_future *__wuc_f);

/* The waituntil trait (<wuc/select.h>), on the core. */
wuc_bool wuc_future_register(wuc_future *__wuc_f, wuc_select_node *__wuc_n);
wuc_bool wuc_future_unregister(wuc_future *__wuc_f, wuc_select_node *__wuc_n);
WUC_SELECTABLE_DROPPABLE_BUILTIN_(wuc_future, wuc_future_register, wuc_future_unregister,
                                  wuc_future_on_selected, 0);

/* ---- typed futures ---------------------------------------------------- */

/* T is the macros' last argument, so a type with commas in it (a function
 * pointer, enum e {A, B}) is one type. */
#define WUC_FUTURE(...)                                                                            \
  struct {                                                                                         \
    wuc_future core;                                                                               \
    __typeof__(__VA_ARGS__) value;                                                                 \
  }

/* struct tag alone, in any scope (a function's own types): selectable
 * through its core, like WUC_FUTURE(T).  The struct may end with padding
 * (T smaller than the core's alignment), which -Wpadded would report in the
 * program's text: the definition is a declaration of its own, with the
 * warning off around it (the trailing `struct tag` takes the `;`). */
#define WUC_FUTURE_LOCAL_STRUCT(tag, ...)                                                          \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wpadded\"") struct tag {       \
    wuc_future core;                                                                               \
    __typeof__(__VA_ARGS__) value;                                                                 \
  };                                                                                               \
  _Pragma("GCC diagnostic pop") struct tag

/* A file-scope declaration: struct tag, and its waituntil trait (the
 * functions tag##_register, tag##_unregister, tag##_on_selected).  wucc
 * writes one for each future(T) of a program, in the program's text, so
 * every name it declares besides the public members is reserved
 * (docs/lowering.md, "Names"); the core is reached by a cast (it is the
 * first member). */
#define WUC_FUTURE_STRUCT(tag, ...)                                                                \
  WUC_FUTURE_LOCAL_STRUCT(tag, __VA_ARGS__);                                                       \
  static inline wuc_bool tag##_register(struct tag *__wuc_f, wuc_select_node *__wuc_n) {           \
    return wuc_future_register((wuc_future *)__wuc_f, __wuc_n);                                    \
  }                                                                                                \
  static inline wuc_bool tag##_unregister(struct tag *__wuc_f, wuc_select_node *__wuc_n) {         \
    return wuc_future_unregister((wuc_future *)__wuc_f, __wuc_n);                                  \
  }                                                                                                \
  WUC_SELECTABLE_DROPPABLE_BUILTIN_(struct tag, tag##_register, tag##_unregister,                  \
                                    tag##_on_selected, 0)

/* Each macro evaluates its arguments once (GNU statement expressions); its
 * temporaries are reserved names, so an argument can name anything. */
#define WUC_FUTURE_SET(f, ...)                                                                     \
  __extension__({                                                                                  \
    __typeof__(f) __wuc_fut = (f);                                                                 \
    __typeof__(__wuc_fut->value) __wuc_fut_v = (__VA_ARGS__); /* assignment conversion to T */     \
    wuc_bool __wuc_fut_ok = wuc_future_begin_set(&__wuc_fut->core);                                \
    if (__wuc_fut_ok) {                                                                            \
      __wuc_fut->value = __wuc_fut_v;                                                              \
      wuc_future_end_set(&__wuc_fut->core);                                                        \
    }                                                                                              \
    __wuc_fut_ok;                                                                                  \
  })

#define WUC_FUTURE_GET(f)                                                                          \
  __extension__({                                                                                  \
    __typeof__(f) __wuc_fut = (f);                                                                 \
    if (!wuc_future_is_ready(&__wuc_fut->core))                                                    \
      wuc_future_wait_at(&__wuc_fut->core, __FILE__, __LINE__);                                    \
    __wuc_fut->value;                                                                              \
  })

#define WUC_FUTURE_TRY_GET(f, ...)                                                                 \
  __extension__({                                                                                  \
    __typeof__(f) __wuc_fut = (f);                                                                 \
    wuc_bool __wuc_fut_ok = wuc_future_is_ready(&__wuc_fut->core);                                 \
    if (__wuc_fut_ok) *(__VA_ARGS__) = __wuc_fut->value;                                           \
    __wuc_fut_ok;                                                                                  \
  })

#define WUC_FUTURE_IS_READY(f) wuc_future_is_ready(&(f)->core)
#define WUC_FUTURE_RESET(f) wuc_future_reset(&(f)->core)

#ifdef __cplusplus
}
#endif
#endif
