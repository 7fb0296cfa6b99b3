/* <wuc/base.h> — the types and atomics every wuc header is written with.
 *
 * wuc's headers declare only prefixed names (wuc_..., WUC_...) and reserved
 * ones (__wuc...), and include no C library header: wucc inserts them into
 * dialect files after the file's own feature macros and declarations, which
 * may define `bool`, `seconds` or `semaphore` themselves (docs/language.md,
 * "Names and headers").  So the types come from the compiler's predefined
 * macros (__SIZE_TYPE__: the type size_t names), _Bool, and atomics from
 * _Atomic and the compilers' builtins. */
#ifndef WUC_BASE_H
#define WUC_BASE_H

#ifdef __cplusplus
#include <atomic>
typedef bool wuc_bool;
#else
typedef _Bool wuc_bool;
#endif

typedef __SIZE_TYPE__ wuc_size_t;
typedef __INT64_TYPE__ wuc_int64_t;
typedef __UINT64_TYPE__ wuc_uint64_t;
typedef __UINT32_TYPE__ wuc_uint32_t;
typedef __UINTPTR_TYPE__ wuc_uintptr_t;

#define WUC_SIZE_MAX __SIZE_MAX__
#define WUC_INT64_MAX __INT64_MAX__
#define WUC_INT64_MIN (-__INT64_MAX__ - 1)

/* An atomic T with one layout in C and C++.  A member declared with it
 * starts with WUC_EXT_, so that -std=c99 -pedantic accepts _Atomic. */
#ifdef __cplusplus
#define WUC_ATOMIC(T) std::atomic<T>
#define WUC_LOAD_ACQUIRE_(p) ((p)->load(std::memory_order_acquire))
#define WUC_LOAD_SEQ_CST_(p) ((p)->load())
#define WUC_INIT_RELAXED_(p, v) ((p)->store((v), std::memory_order_relaxed))
#else
#define WUC_ATOMIC(T) _Atomic(T)
#if defined(__clang__)
#define WUC_LOAD_ACQUIRE_(p) __c11_atomic_load((p), __ATOMIC_ACQUIRE)
#define WUC_LOAD_SEQ_CST_(p) __c11_atomic_load((p), __ATOMIC_SEQ_CST)
#define WUC_INIT_RELAXED_(p, v) __c11_atomic_init((p), (v))
#else
#define WUC_LOAD_ACQUIRE_(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define WUC_LOAD_SEQ_CST_(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define WUC_INIT_RELAXED_(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#endif
#endif
#define WUC_EXT_ __extension__

/* "FILE:LINE" of the macro's use, as one string literal: how a blocking
 * call's macro passes its site to the runtime in one argument. */
#define WUC_STR2_(x) #x
#define WUC_STR_(x) WUC_STR2_(x)
#define WUC_SITE_ __FILE__ ":" WUC_STR_(__LINE__)

#endif
