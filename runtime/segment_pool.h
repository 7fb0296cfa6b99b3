/* segment_pool.h — channel segments kept for reuse, per worker.
 *
 * A channel allocates a segment every 32 cells and frees one as often.
 * Through malloc alone, a segment allocated on one worker and freed on
 * another (a producer's segments, retired by its consumer's worker) takes
 * the allocating worker's arena lock, which that worker's next allocation
 * wants at the same time: with a producer and a consumer on two workers,
 * three quarters of the process's context switches were waits for glibc's
 * lock (elastic Con; docs/channels.md, "Segments and memory").
 *
 * So each worker keeps the segments its own allocations free:
 *   - freed on the allocating worker: onto that worker's list (plain);
 *   - freed on another worker: pushed onto the allocating worker's remote
 *     stack (a compare-and-swap and a count), which the allocating worker
 *     takes whole (one exchange) when its list for a size is empty;
 *   - an allocation takes from the list first, then malloc.
 * Invariants: a segment on a list or stack is referenced by nothing else
 * (it is freed only after its grace period and its last pin); at most
 * SEGMENT_POOL_KEEP per size are on a list and about SEGMENT_POOL_REMOTE on a
 * remote stack; the rest, segments of a fifth size, and segments allocated
 * outside a worker go back to malloc.  Off under sanitizers, so that ASan
 * reports every use after free and TSan sees every reuse. */
#ifndef WUC_RUNTIME_SEGMENT_POOL_H
#define WUC_RUNTIME_SEGMENT_POOL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define SEGMENT_POOL_SIZES 4 /* allocation sizes a worker keeps (one per element size) */
#define SEGMENT_POOL_KEEP 16 /* segments per size on a worker's list */
#define SEGMENT_POOL_REMOTE 64

struct pooled_segment; /* a kept segment's first bytes (segment_pool.c) */

struct segment_pool {
  size_t bytes[SEGMENT_POOL_SIZES]; /* 0: not yet used */
  struct pooled_segment *kept[SEGMENT_POOL_SIZES];
  uint32_t count[SEGMENT_POOL_SIZES];
  /* Freed on other workers: pushed there, taken whole here. */
  _Alignas(64) _Atomic(struct pooled_segment *) remote;
  _Atomic uint32_t remote_count;
};

/* Where an allocation came from, for its free: owner 0 is malloc. */
struct segment_pool_tag {
  uint16_t owner; /* the allocating worker's id + 1 */
  uint8_t size;   /* index into its pool's sizes */
};

void *wuc_segment_pool_alloc(size_t bytes, struct segment_pool_tag *tag);
void wuc_segment_pool_free(void *p, struct segment_pool_tag tag);

/* The bytes every worker's pool holds (its lists and remote stack), for
 * tests that look for leaks in malloc's counts: exact only while no worker
 * allocates or frees segments. */
size_t wuc_segment_pools_held_bytes(void);

#endif
