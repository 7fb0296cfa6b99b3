/* context.c — building the first frame of a new context (see
 * context_x86_64.S), and, in sanitized builds, the switch annotated for
 * AddressSanitizer and ThreadSanitizer (see context.h). */
#define _GNU_SOURCE
#include "context.h"

#include <stdint.h>
#include <string.h>

#ifdef WUC_FIBER_ANNOTATIONS
#include <pthread.h>
#endif
#ifdef WUC_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef WUC_TSAN
#include <sanitizer/tsan_interface.h>
#endif

void wuc_context_entry(void);

#ifdef WUC_FIBER_ANNOTATIONS
static void context_start(void *arg);
#endif

void wuc_context_init(wuc_context *ctx, void *stack_bottom, void *stack_top, void (*entry)(void *),
                      void *arg) {
  /* 64 bytes are left above the first frame: an unwinder reads words above
   * the entry's return address (the outermost frame's CFA), and `perf record
   * --call-graph dwarf` copies the stack only up to the next stack's guard,
   * just above stack_top; with the frame at the very top, every user
   * thread's stack ended in "[unknown] 0xffffffffffffffff" instead of
   * wuc_context_entry (docs/debugging.md, 'Profiling with perf'). */
  uintptr_t top = ((uintptr_t)stack_top - 64) & ~(uintptr_t)15;
  /* Eight slots: the control words, six registers, the return address.  After
   * the switch's `ret` the stack pointer is `top`, 16-byte aligned, as
   * wuc_context_entry requires before its call. */
  uint64_t *frame = (uint64_t *)(top - 8 * sizeof(uint64_t));
  uint32_t mxcsr;
  uint16_t fpucw;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  __asm__ volatile("fnstcw %0" : "=m"(fpucw));
#ifdef WUC_FIBER_ANNOTATIONS
  ctx->stack_bottom = stack_bottom;
  ctx->stack_size = (size_t)((char *)stack_top - (char *)stack_bottom);
#ifdef WUC_TSAN
  ctx->tsan_fiber = __tsan_create_fiber(0);
#endif
  /* The context first tells the sanitizers it has started, then runs entry. */
  ctx->entry = entry;
  ctx->arg = arg;
  entry = context_start;
  arg = ctx;
#else
  (void)stack_bottom;
#endif
  memset(frame, 0, 8 * sizeof(uint64_t));
  memcpy((char *)frame, &mxcsr, sizeof mxcsr);
  memcpy((char *)frame + 4, &fpucw, sizeof fpucw);
  frame[3] = (uint64_t)(uintptr_t)arg;   /* r13 */
  frame[4] = (uint64_t)(uintptr_t)entry; /* r12 */
  frame[7] = (uint64_t)(uintptr_t)wuc_context_entry;
  ctx->sp = frame;
}

#ifdef WUC_FIBER_ANNOTATIONS
/* The assembly switch; wuc_context_switch is the annotated wrapper. */
void wuc_context_swap(wuc_context *from, wuc_context *to);

/* Just before the stack pointer moves to `to`.  fake_stack_save is where
 * ASan keeps the leaving context's fake stack (use-after-return frames) until
 * it resumes; NULL says the leaving context is gone for good. */
static inline void before_switch(wuc_context *to, void **fake_stack_save) {
#ifdef WUC_ASAN
  __sanitizer_start_switch_fiber(fake_stack_save, to->stack_bottom, to->stack_size);
#else
  (void)fake_stack_save;
#endif
#ifdef WUC_TSAN
  /* Synchronizing (flags 0): the switch orders what the leaving context did
   * before what the resumed one does, as it does on the hardware. */
  __tsan_switch_to_fiber(to->tsan_fiber, 0);
#endif
}

/* Just after a context resumes (or starts, with fake_stack NULL). */
static inline void after_switch(void *fake_stack) {
#ifdef WUC_ASAN
  __sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
#else
  (void)fake_stack;
#endif
}

/* Not instrumented by ASan: fake_stack must live on the real stack, not in
 * the fake stack being switched out. */
__attribute__((no_sanitize("address"))) void wuc_context_switch(wuc_context *from,
                                                                wuc_context *to) {
  void *fake_stack = NULL;
  before_switch(to, &fake_stack);
  wuc_context_swap(from, to);
  after_switch(fake_stack);
}

void wuc_context_exit(wuc_context *from, wuc_context *to) {
  before_switch(to, NULL);
  wuc_context_swap(from, to);
  __builtin_unreachable();
}

static void context_start(void *arg) {
  wuc_context *ctx = arg;
  after_switch(NULL);
  ctx->entry(ctx->arg);
}

void wuc_context_init_current(wuc_context *ctx) {
  memset(ctx, 0, sizeof *ctx);
#ifdef WUC_ASAN
  pthread_attr_t attr;
  void *bottom;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    if (pthread_attr_getstack(&attr, &bottom, &size) == 0) {
      ctx->stack_bottom = bottom;
      ctx->stack_size = size;
    }
    pthread_attr_destroy(&attr);
  }
#endif
#ifdef WUC_TSAN
  ctx->tsan_fiber = __tsan_get_current_fiber();
#endif
}

void wuc_context_release(wuc_context *ctx) {
#ifdef WUC_ASAN
  /* Frames the exited context never returned from left their redzones
   * poisoned; the next context on this stack must not trip over them. */
  ASAN_UNPOISON_MEMORY_REGION(ctx->stack_bottom, ctx->stack_size);
#endif
#ifdef WUC_TSAN
  __tsan_destroy_fiber(ctx->tsan_fiber);
  ctx->tsan_fiber = NULL;
#endif
}
#endif
