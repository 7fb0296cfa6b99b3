/* <wuc/atomic.h> — WUC_ATOMIC(T): atomics spelled so that one struct layout
 * serves C and C++ (defined in <wuc/base.h>). */
#ifndef WUC_ATOMIC_H
#define WUC_ATOMIC_H

#include <wuc/base.h>

#endif
