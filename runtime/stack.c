/* stack.c — slab-allocated, guarded, lazily committed, pooled stacks. */
#define _GNU_SOURCE
#include "stack.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fatal.h"
#include "sysmon.h"
#include "wuc/time.h"

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102 /* Linux 6.13 */
#endif

#define DEFAULT_STACK_SIZE (256u * 1024)
#define MIN_STACK_SIZE (16u * 1024)
#define MAX_STACK_SIZE (1024u * 1024 * 1024)
#define GUARD_SIZE (64u * 1024) /* large enough that big frames do not jump it */
#define STACKS_PER_SLAB 16
/* Pooled stacks beyond this many give their pages back to the kernel once
 * they have stayed unused for TRIM_AGE_NS: the monitor thread (sysmon.c)
 * does it, TRIM_BATCH at a time (one process_madvise, one TLB flush), one
 * batch every TRIM_GAP_NS, so that neither a join nor the monitor's own
 * duties wait for it. */
#define POOL_KEEP_COMMITTED 256
#define TRIM_BATCH 64
#define TRIM_AGE_NS 1000000000
#define TRIM_GAP_NS 1000000
/* pidfd.h's PIDFD_SELF_PROCESS (Linux 6.15): "the calling process" without
 * opening a pidfd, which a forked child would inherit pointing at its parent. */
#define SELF_PIDFD (-10001)

static size_t stack_size = DEFAULT_STACK_SIZE;
static size_t page_size;

enum guard_mode { GUARD_UNKNOWN, GUARD_MADVISE, GUARD_MPROTECT };

static struct {
  pthread_mutex_t lock;
  enum guard_mode guard_mode;
  char *slab_next; /* next uncarved stack region in the current slab */
  char *slab_end;
  char **pool; /* guard addresses of free stacks with their pages (LIFO) */
  size_t pool_len, pool_cap;
  /* pool[0 .. pool_low) has stayed in the pool since the look at
   * next_trim was planned (TRIM_AGE_NS before it). */
  size_t pool_low;
  int64_t next_trim; /* when the monitor looks at the pool; 0: not planned */
  char **cold;       /* free stacks whose pages went back (LIFO) */
  size_t cold_len, cold_cap;
  /* process_madvise on ourselves failed: one madvise each.  Written under
   * the lock (new_slab) or by the monitor alone (release_pages). */
  _Atomic bool no_vector_madvise;
} stacks = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Bytes, or with a k, m or g suffix (and an optional b); 0 if the text is
 * not such a size or does not fit in a size_t: a shift that overflowed would
 * wrap to a size that looks valid (18014398509482048k is 2^64 + 64 KiB). */
static size_t parse_size(const char *text) {
  if (*text < '0' || *text > '9') return 0; /* strtoull would take "-1", " 1", "+1" */
  char *end;
  errno = 0;
  unsigned long long n = strtoull(text, &end, 10);
  if (errno) return 0;
  unsigned shift = 0;
  switch (*end) {
  case 'k':
  case 'K':
    shift = 10;
    end++;
    break;
  case 'm':
  case 'M':
    shift = 20;
    end++;
    break;
  case 'g':
  case 'G':
    shift = 30;
    end++;
    break;
  default:
    break;
  }
  if (*end == 'b' || *end == 'B') end++;
  if (*end != '\0' || n > (SIZE_MAX >> shift)) return 0;
  return (size_t)(n << shift);
}

void wuc_stacks_init(void) {
  page_size = (size_t)sysconf(_SC_PAGESIZE);
  /* gdb's generate-core-file reads a mapping 1 MiB at a time and gives up on
   * the rest of it at the first read that fails: a MADV_GUARD_INSTALL guard
   * inside a slab hides every stack behind it.  mprotect guards are mappings
   * of their own, which gdb skips (docs/debugging.md, "Debugging with gdb"). */
  const char *guard = getenv("WUC_STACK_GUARD");
  if (guard && *guard) {
    if (strcmp(guard, "mprotect") == 0)
      stacks.guard_mode = GUARD_MPROTECT;
    else if (strcmp(guard, "madvise") != 0)
      wuc_fatal("WUC_STACK_GUARD=%s: expected madvise or mprotect", guard);
  }
  const char *env = getenv("WUC_STACK_SIZE");
  if (env && *env) {
    size_t n = parse_size(env);
    if (n < MIN_STACK_SIZE || n > MAX_STACK_SIZE)
      wuc_fatal(
          "WUC_STACK_SIZE=%s: expected a size from 16k to 1g (bytes, or with a k, m or g suffix)",
          env);
    stack_size = n;
  }
  stack_size = (stack_size + page_size - 1) & ~(page_size - 1);
}

size_t wuc_stack_size(void) { return stack_size; }
size_t wuc_stack_guard_size(void) { return GUARD_SIZE; }

static size_t region_size(void) { return GUARD_SIZE + stack_size; }

/* Makes [guard, guard + GUARD_SIZE) inaccessible.  Called with the lock held. */
static bool install_guard(char *guard) {
  if (stacks.guard_mode != GUARD_MPROTECT) {
    if (madvise(guard, GUARD_SIZE, MADV_GUARD_INSTALL) == 0) {
      stacks.guard_mode = GUARD_MADVISE;
      return true;
    }
    if (errno != EINVAL) return false;
    stacks.guard_mode = GUARD_MPROTECT; /* kernel older than 6.13 */
  }
  return mprotect(guard, GUARD_SIZE, PROT_NONE) == 0;
}

/* Installs the guards of every stack of a new slab: with MADV_GUARD_INSTALL,
 * in one process_madvise for them all (the guard markers need the page
 * tables of the whole slab, 5 MiB of address space: at most three page-table
 * pages ahead of the stacks that use them).  Called with the lock held. */
static bool install_guards(char *slab) {
  if (stacks.guard_mode != GUARD_MPROTECT && !stacks.no_vector_madvise) {
    struct iovec iov[STACKS_PER_SLAB];
    for (size_t i = 0; i < STACKS_PER_SLAB; i++) {
      iov[i].iov_base = slab + i * region_size();
      iov[i].iov_len = GUARD_SIZE;
    }
    long r = syscall(SYS_process_madvise, SELF_PIDFD, iov, (size_t)STACKS_PER_SLAB,
                     MADV_GUARD_INSTALL, 0u);
    if (r == (long)(STACKS_PER_SLAB * GUARD_SIZE)) {
      stacks.guard_mode = GUARD_MADVISE;
      return true;
    }
    if (r < 0) stacks.no_vector_madvise = true; /* then one at a time (again) */
  }
  for (size_t i = 0; i < STACKS_PER_SLAB; i++)
    if (!install_guard(slab + i * region_size())) return false;
  return true;
}

static bool new_slab(void) {
  size_t bytes = region_size() * STACKS_PER_SLAB;
  void *slab =
      mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (slab == MAP_FAILED) return false;
  /* A huge page would commit 2 MiB for a thread that touched 4 KiB. */
  madvise(slab, bytes, MADV_NOHUGEPAGE);
  if (!install_guards(slab)) {
    int saved = errno;
    munmap(slab, bytes);
    errno = saved;
    return false;
  }
  stacks.slab_next = slab;
  stacks.slab_end = (char *)slab + bytes;
  return true;
}

/* A free stack's guard address, or NULL (errno set).  Called with the lock
 * held. */
static char *take_locked(void) {
  if (stacks.pool_len > 0) {
    char *guard = stacks.pool[--stacks.pool_len];
    if (stacks.pool_len < stacks.pool_low) stacks.pool_low = stacks.pool_len;
    return guard;
  }
  if (stacks.cold_len > 0) return stacks.cold[--stacks.cold_len]; /* faults its pages in again */
  if (stacks.slab_next == stacks.slab_end && !new_slab()) return NULL;
  char *guard = stacks.slab_next; /* its guard is in place (new_slab) */
  stacks.slab_next += region_size();
  return guard;
}

static void fill(struct wuc_stack *s, char *guard) {
  s->guard = guard;
  s->base = guard + GUARD_SIZE;
  s->top = s->base + stack_size - WUC_STACK_SLOT;
  s->free_next = NULL;
}

bool wuc_stack_alloc(struct wuc_stack *s) {
  pthread_mutex_lock(&stacks.lock);
  char *guard = take_locked();
  int saved = errno;
  pthread_mutex_unlock(&stacks.lock);
  if (!guard) {
    errno = saved;
    return false;
  }
  fill(s, guard);
  return true;
}

/* An empty cache takes half its size from the pool (committed stacks only:
 * cold ones and new ones one at a time, as they cost a fault anyway). */
bool wuc_stack_alloc_cached(struct wuc_stack_cache *c, struct wuc_stack *s) {
  if (c->len == 0) {
    pthread_mutex_lock(&stacks.lock);
    while (c->len < WUC_STACK_CACHE / 2 && stacks.pool_len > 0) {
      c->guard[c->len++] = stacks.pool[--stacks.pool_len];
      if (stacks.pool_len < stacks.pool_low) stacks.pool_low = stacks.pool_len;
    }
    pthread_mutex_unlock(&stacks.lock);
    if (c->len == 0) return wuc_stack_alloc(s);
  }
  fill(s, c->guard[--c->len]);
  return true;
}

/* Makes room for n more entries in *list.  Called with the lock held. */
static bool reserve(char ***list, size_t len, size_t *cap, size_t n) {
  if (len + n <= *cap) return true;
  size_t want = *cap ? 2 * *cap : 256;
  while (want < len + n) want *= 2;
  char **grown = realloc(*list, want * sizeof *grown);
  if (!grown) return false;
  *list = grown;
  *cap = want;
  return true;
}

/* Pools n stacks.  Called with the lock held; returns when the monitor
 * should look at the pool, 0 if it need not be told. */
static int64_t pool_locked(char *const *guards, size_t n) {
  if (!reserve(&stacks.pool, stacks.pool_len, &stacks.pool_cap, n)) {
    pthread_mutex_unlock(&stacks.lock);
    wuc_fatal("out of memory recycling a thread stack");
  }
  memcpy(stacks.pool + stacks.pool_len, guards, n * sizeof *guards);
  stacks.pool_len += n;
  if (stacks.pool_len <= POOL_KEEP_COMMITTED || stacks.next_trim != 0) return 0;
  /* The first stacks beyond the bound: age from now, and have the monitor
   * look when the age is reached (it may sleep for ever otherwise). */
  int64_t now = wuc_now();
  stacks.pool_low = stacks.pool_len;
  stacks.next_trim = now + TRIM_AGE_NS;
  return stacks.next_trim;
}

void wuc_stack_free(const struct wuc_stack *s) {
  pthread_mutex_lock(&stacks.lock);
  int64_t plan = pool_locked(&s->guard, 1);
  pthread_mutex_unlock(&stacks.lock);
  if (plan) wuc_sysmon_timer_started(plan);
}

/* A full cache gives its older half to the pool. */
void wuc_stack_free_cached(struct wuc_stack_cache *c, const struct wuc_stack *s) {
  if (c->len == WUC_STACK_CACHE) {
    const unsigned half = WUC_STACK_CACHE / 2;
    pthread_mutex_lock(&stacks.lock);
    int64_t plan = pool_locked(c->guard, half);
    pthread_mutex_unlock(&stacks.lock);
    memmove(c->guard, c->guard + half, (WUC_STACK_CACHE - half) * sizeof *c->guard);
    c->len -= half;
    if (plan) wuc_sysmon_timer_started(plan);
  }
  c->guard[c->len++] = s->guard;
}

/* Gives the pages of n stacks back to the kernel.  Called without the lock:
 * nobody else can reach these stacks.  One process_madvise (Linux 6.13 for
 * any advice on ourselves, 6.15 for SELF_PIDFD) zaps them all with one TLB
 * flush (6.16); a madvise per stack sends an IPI per stack to every CPU the
 * program runs on.  A partial or failed call is redone one madvise at a time
 * (discarding twice is harmless). */
static void release_pages(char *const *guards, size_t n) {
  struct iovec iov[TRIM_BATCH];
  size_t bytes = 0;
  for (size_t i = 0; i < n; i++) {
    /* A held slot keeps its page (stack.h, "The slot"): nobody can claim
     * the slot meanwhile, and a holder that lets go of it now leaves the
     * page resident until the stack's next use, no more. */
    struct wuc_stack s;
    fill(&s, guards[i]);
    size_t keep =
        atomic_load_explicit(wuc_stack_slot_held(&s), memory_order_relaxed) ? page_size : 0;
    iov[i].iov_base = s.base;
    iov[i].iov_len = stack_size - keep;
    bytes += stack_size - keep;
  }
  bool done = false;
  if (!stacks.no_vector_madvise) {
    long r = syscall(SYS_process_madvise, SELF_PIDFD, iov, n, MADV_DONTNEED, 0u);
    done = r >= 0 && (size_t)r == bytes;
    if (r < 0) stacks.no_vector_madvise = true;
  }
  if (!done)
    for (size_t i = 0; i < n; i++) madvise(iov[i].iov_base, iov[i].iov_len, MADV_DONTNEED);
}

int64_t wuc_stacks_trim(int64_t now) {
  char *batch[TRIM_BATCH];
  size_t n = 0;
  pthread_mutex_lock(&stacks.lock);
  if (stacks.next_trim == 0 || now < stacks.next_trim) {
    int64_t next = stacks.next_trim ? stacks.next_trim : INT64_MAX;
    pthread_mutex_unlock(&stacks.lock);
    return next;
  }
  /* The top TRIM_BATCH of the aged part beyond the bound; the stacks pooled
   * since move down over them (LIFO order kept). */
  size_t aged = stacks.pool_low > POOL_KEEP_COMMITTED ? stacks.pool_low - POOL_KEEP_COMMITTED : 0;
  n = aged < TRIM_BATCH ? aged : TRIM_BATCH;
  if (n > 0 && !reserve(&stacks.cold, stacks.cold_len, &stacks.cold_cap, n)) n = 0;
  size_t from = stacks.pool_low - n;
  memcpy(batch, stacks.pool + from, n * sizeof *batch);
  memmove(stacks.pool + from, stacks.pool + stacks.pool_low,
          (stacks.pool_len - stacks.pool_low) * sizeof *stacks.pool);
  stacks.pool_len -= n;
  stacks.pool_low -= n;
  if (n > 0 && aged > n) {
    stacks.next_trim = now + TRIM_GAP_NS; /* more of the same age: soon */
  } else if (stacks.pool_len > POOL_KEEP_COMMITTED) {
    stacks.pool_low = stacks.pool_len; /* age the rest from now */
    stacks.next_trim = now + TRIM_AGE_NS;
  } else {
    stacks.next_trim = 0; /* wuc_stack_free plans the next look */
  }
  int64_t next = stacks.next_trim ? stacks.next_trim : INT64_MAX;
  pthread_mutex_unlock(&stacks.lock);
  if (n == 0) return next;
  /* Out of both lists meanwhile: a spawn may carve a new stack instead. */
  release_pages(batch, n);
  pthread_mutex_lock(&stacks.lock);
  memcpy(stacks.cold + stacks.cold_len, batch, n * sizeof *batch);
  stacks.cold_len += n;
  pthread_mutex_unlock(&stacks.lock);
  return next;
}

bool wuc_stack_guard_contains(const struct wuc_stack *s, const void *addr) {
  const char *a = addr;
  return s->guard && a >= s->guard && a < s->base;
}
