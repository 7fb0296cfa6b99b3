/* <wuc/atomic.h> — atomics spelled so that one struct layout serves C and C++. */
#ifndef WUC_ATOMIC_H
#define WUC_ATOMIC_H

#ifdef __cplusplus
#include <atomic>
#define WUC_ATOMIC(T) std::atomic<T>
#else
#include <stdatomic.h>
#define WUC_ATOMIC(T) _Atomic(T)
#endif

#endif
