/* A measurement aid, never a build of wuc: forced into every C file with
 * `-include bench/plain_atomics.h`, it turns every <stdatomic.h>
 * read-modify-write (fetch-and-op, exchange, compare-exchange) and every
 * sequentially consistent store into plain loads and stores.  The program is
 * then wrong as soon as two kernel threads share an object, but on one
 * worker (WUC_PROCESSORS=1) a benchmark still runs, and the difference in
 * time is what its locked instructions cost in place (docs/benchmarks.md,
 * the channel round trip).  __atomic builtins used directly are left alone. */
#ifndef WUC_BENCH_PLAIN_ATOMICS_H
#define WUC_BENCH_PLAIN_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>

#undef atomic_store
#undef atomic_exchange
#undef atomic_exchange_explicit
#undef atomic_compare_exchange_strong
#undef atomic_compare_exchange_weak
#undef atomic_compare_exchange_strong_explicit
#undef atomic_compare_exchange_weak_explicit
#undef atomic_fetch_add
#undef atomic_fetch_sub
#undef atomic_fetch_or
#undef atomic_fetch_and
#undef atomic_fetch_add_explicit
#undef atomic_fetch_sub_explicit
#undef atomic_fetch_or_explicit
#undef atomic_fetch_and_explicit

#define PLAIN_LOAD_(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define PLAIN_STORE_(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define PLAIN_FETCH_(p, op, v)                                                                     \
  ({                                                                                               \
    __auto_type plain_p_ = (p);                                                                    \
    __auto_type plain_old_ = PLAIN_LOAD_(plain_p_);                                                \
    PLAIN_STORE_(plain_p_, plain_old_ op(v));                                                      \
    plain_old_;                                                                                    \
  })
#define PLAIN_EXCHANGE_(p, v)                                                                      \
  ({                                                                                               \
    __auto_type plain_p_ = (p);                                                                    \
    __auto_type plain_old_ = PLAIN_LOAD_(plain_p_);                                                \
    PLAIN_STORE_(plain_p_, (v));                                                                   \
    plain_old_;                                                                                    \
  })
#define PLAIN_CAS_(p, expected, desired)                                                           \
  ({                                                                                               \
    __auto_type plain_p_ = (p);                                                                    \
    __auto_type plain_e_ = (expected);                                                             \
    __auto_type plain_now_ = PLAIN_LOAD_(plain_p_);                                                \
    bool plain_ok_ = plain_now_ == *plain_e_;                                                      \
    if (plain_ok_)                                                                                 \
      PLAIN_STORE_(plain_p_, (desired));                                                           \
    else                                                                                           \
      *plain_e_ = plain_now_;                                                                      \
    plain_ok_;                                                                                     \
  })

#define atomic_store(p, v) PLAIN_STORE_((p), (v))
#define atomic_exchange(p, v) PLAIN_EXCHANGE_(p, v)
#define atomic_exchange_explicit(p, v, order) PLAIN_EXCHANGE_(p, v)
#define atomic_compare_exchange_strong(p, e, d) PLAIN_CAS_(p, e, d)
#define atomic_compare_exchange_weak(p, e, d) PLAIN_CAS_(p, e, d)
#define atomic_compare_exchange_strong_explicit(p, e, d, s, f) PLAIN_CAS_(p, e, d)
#define atomic_compare_exchange_weak_explicit(p, e, d, s, f) PLAIN_CAS_(p, e, d)
#define atomic_fetch_add(p, v) PLAIN_FETCH_(p, +, v)
#define atomic_fetch_sub(p, v) PLAIN_FETCH_(p, -, v)
#define atomic_fetch_or(p, v) PLAIN_FETCH_(p, |, v)
#define atomic_fetch_and(p, v) PLAIN_FETCH_(p, &, v)
#define atomic_fetch_add_explicit(p, v, order) PLAIN_FETCH_(p, +, v)
#define atomic_fetch_sub_explicit(p, v, order) PLAIN_FETCH_(p, -, v)
#define atomic_fetch_or_explicit(p, v, order) PLAIN_FETCH_(p, |, v)
#define atomic_fetch_and_explicit(p, v, order) PLAIN_FETCH_(p, &, v)

#endif
