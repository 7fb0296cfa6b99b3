/* context.c — building the first frame of a new context (see context_x86_64.S). */
#include "context.h"

#include <stdint.h>
#include <string.h>

void wuc_context_entry(void);

void wuc_context_init(wuc_context *ctx, void *stack_top, void (*entry)(void *), void *arg) {
  uintptr_t top = (uintptr_t)stack_top & ~(uintptr_t)15;
  /* Eight slots: the control words, six registers, the return address.  After
   * the switch's `ret` the stack pointer is `top`, 16-byte aligned, as
   * wuc_context_entry requires before its call. */
  uint64_t *frame = (uint64_t *)(top - 8 * sizeof(uint64_t));
  uint32_t mxcsr;
  uint16_t fpucw;
  __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
  __asm__ volatile("fnstcw %0" : "=m"(fpucw));
  memset(frame, 0, 8 * sizeof(uint64_t));
  memcpy((char *)frame, &mxcsr, sizeof mxcsr);
  memcpy((char *)frame + 4, &fpucw, sizeof fpucw);
  frame[3] = (uint64_t)(uintptr_t)arg;   /* r13 */
  frame[4] = (uint64_t)(uintptr_t)entry; /* r12 */
  frame[7] = (uint64_t)(uintptr_t)wuc_context_entry;
  ctx->sp = frame;
}
