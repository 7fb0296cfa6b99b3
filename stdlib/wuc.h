/* <wuc.h> — the wuc library: user-level threads, durations, channels, futures,
 * locks, semaphores, latches, timeouts and the select protocol.
 *
 * Two layers (docs/language.md, "Names and headers").  <wuc/...> headers
 * declare only prefixed names (wuc_..., WUC_...) and reserved ones
 * (__wuc...), and include no C library header: they are what wucc inserts
 * into a dialect file for its constructs.  This header, which only a program
 * includes, adds the short names of docs/library.md on top of them —
 * typedefs, macros and static inline functions — together with <stdbool.h>,
 * <stddef.h> and <stdint.h>, which its signatures use.  So `semaphore`,
 * `seconds` or `chan_send` reach a file only through an #include <wuc.h>
 * the file wrote. */
#ifndef WUC_H
#define WUC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/channel.h>
#include <wuc/select.h>
#include <wuc/thread.h>
#include <wuc/time.h>

#include <wuc/future.h>
#include <wuc/latch.h>
#include <wuc/lock.h>
#include <wuc/semaphore.h>
#include <wuc/timeout.h>

/* The support code of lowered statements, with the rest: one inclusion
 * brings all of wuc, so a program's macros after it cannot split it. */
#include <wuc/waituntil.h>

/* A waituntil statement that reaches the C compiler was not lowered: it
 * comes from a macro defined in a header (wucc expands only the uses of
 * the dialect file's own macros, docs/language.md "Macros"), or stands in
 * a plain C file.  Say so at the use, rather than "implicit declaration of
 * function 'waituntil'" (the text is msg::WaituntilFromHeaderMacro). */
/* clang-format off */
#ifndef waituntil
#define waituntil(...) _Pragma("GCC error \"a waituntil statement from a macro defined in a header is not lowered: wucc expands only the macros of the dialect file itself; define the macro in the .wc file, or make its statement a static inline function of the header\"") if (0)
#endif
/* clang-format on */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- threads (<wuc/thread.h>) ---------------------------------------------
 * The macros record the caller's source location; (uthread_spawn)(f, a)
 * reaches the plain function. */
typedef wuc_uthread_t uthread_t;
static inline uthread_t *(uthread_spawn)(void (*fn)(void *), void *arg) {
  return (wuc_uthread_spawn)(fn, arg);
}
static inline void(uthread_join)(uthread_t *t) { (wuc_uthread_join)(t); }
static inline void uthread_yield(void) { wuc_uthread_yield(); }
static inline uthread_t *uthread_self(void) { return wuc_uthread_self(); }
static inline void(uthread_sleep)(wuc_duration_t d) { (wuc_uthread_sleep)(d); }
static inline unsigned long uthread_id(const uthread_t *t) { return wuc_uthread_id(t); }
static inline void uthread_set_name(const char *name) { wuc_uthread_set_name(name); }
static inline const char *uthread_name(const uthread_t *t) { return wuc_uthread_name(t); }
static inline uthread_t *(uthread_spawn_named)(const char *name, void (*fn)(void *), void *arg) {
  return (wuc_uthread_spawn_named)(name, fn, arg);
}
static inline void uthread_preemption_off(void) { wuc_uthread_preemption_off(); }
static inline void uthread_preemption_on(void) { wuc_uthread_preemption_on(); }
#define uthread_spawn(fn, ...) wuc_uthread_spawn(fn, __VA_ARGS__)
#define uthread_spawn_named(name, fn, ...) wuc_uthread_spawn_named(name, fn, __VA_ARGS__)
#define uthread_join(...) wuc_uthread_join(__VA_ARGS__)
#define uthread_sleep(...) wuc_uthread_sleep(__VA_ARGS__)

/* ---- durations (<wuc/time.h>) --------------------------------------------- */
typedef wuc_duration_t duration_t;
static inline duration_t nanoseconds(int64_t n) { return wuc_nanoseconds(n); }
static inline duration_t microseconds(int64_t n) { return wuc_microseconds(n); }
static inline duration_t milliseconds(int64_t n) { return wuc_milliseconds(n); }
static inline duration_t seconds(int64_t n) { return wuc_seconds(n); }

/* ---- channels (<wuc/channel.h>) ------------------------------------------- */
#define CHAN_UNBOUNDED WUC_CHAN_UNBOUNDED
#define chan_init(ch, ...) WUC_CHAN_INIT(ch, __VA_ARGS__)
#define chan_destroy(ch) WUC_CHAN_DESTROY(ch)
#define chan_send(ch, ...) WUC_CHAN_SEND(ch, __VA_ARGS__)
#define chan_try_send(ch, ...) WUC_CHAN_TRY_SEND(ch, __VA_ARGS__)
#define chan_recv(ch, ...) WUC_CHAN_RECV(ch, __VA_ARGS__)
#define chan_try_recv(ch, ...) WUC_CHAN_TRY_RECV(ch, __VA_ARGS__)
#define chan_close(ch) WUC_CHAN_CLOSE(ch)
#define chan_is_closed(ch) WUC_CHAN_IS_CLOSED(ch)
#define chan_len(ch) WUC_CHAN_LEN(ch)
#define chan_cap(ch) WUC_CHAN_CAP(ch)
#define chan_recv_clause(ch) WUC_CHAN_RECV_CLAUSE(ch)
#define chan_send_clause(ch) WUC_CHAN_SEND_CLAUSE(ch)
#define chan_closed_clause(ch) WUC_CHAN_CLOSED_CLAUSE(ch)

/* ---- futures (<wuc/future.h>) --------------------------------------------- */
#define future_set(f, ...) WUC_FUTURE_SET(f, __VA_ARGS__)
#define future_get(f) WUC_FUTURE_GET(f)
#define future_try_get(f, ...) WUC_FUTURE_TRY_GET(f, __VA_ARGS__)
#define future_ready(f) WUC_FUTURE_IS_READY(f)
#define future_reset(f) WUC_FUTURE_RESET(f)

/* ---- locks (<wuc/lock.h>) ------------------------------------------------- */
typedef wuc_owner_lock owner_lock;
static inline void(lock_acquire)(owner_lock *l) { (wuc_lock_acquire)(l); }
static inline bool lock_try_acquire(owner_lock *l) { return wuc_lock_try_acquire(l); }
static inline void lock_release(owner_lock *l) { wuc_lock_release(l); }
#define lock_acquire(...) wuc_lock_acquire(__VA_ARGS__)

/* ---- semaphores (<wuc/semaphore.h>) --------------------------------------- */
typedef wuc_semaphore semaphore;
static inline void semaphore_init(semaphore *s, long n) { wuc_semaphore_init(s, n); }
static inline void(semaphore_acquire)(semaphore *s) { (wuc_semaphore_acquire)(s); }
static inline bool semaphore_try_acquire(semaphore *s) { return wuc_semaphore_try_acquire(s); }
static inline void semaphore_release(semaphore *s) { wuc_semaphore_release(s); }
#define semaphore_acquire(...) wuc_semaphore_acquire(__VA_ARGS__)

/* ---- latches (<wuc/latch.h>) ---------------------------------------------- */
typedef wuc_latch latch;
static inline void latch_set(latch *e) { wuc_latch_set(e); }
static inline void(latch_wait)(latch *e) { (wuc_latch_wait)(e); }
static inline bool latch_is_set(latch *e) { return wuc_latch_is_set(e); }
#define latch_wait(...) wuc_latch_wait(__VA_ARGS__)

#ifdef __cplusplus
}
#endif
#endif
