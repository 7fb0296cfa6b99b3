/* preempt_stress.c — time-slice preemption under load (docs/runtime.md,
 * 'Preemption'; test/stress/README.md).
 *
 * wuc_preempt_stress MODE, run by CTest as stress.preempt.MODE.wN with
 * WUC_PROCESSORS=N and a short WUC_TIMESLICE:
 *
 *   mix        8 threads doing malloc/realloc/free, snprintf/sscanf/fprintf
 *              (open_memstream and a shared /dev/null), qsort, strtol/strtod
 *              with errno, and compute in this program's own code, a fixed
 *              amount of work each; every result is checked on the spot and
 *              the digest of each thread's work must equal the one main
 *              computed alone before spawning
 *   fp         SSE2 (and AVX where the CPU has it) vectors and x87 long
 *              doubles under a different rounding mode per thread: results
 *              bit for bit equal to a reference computed before spawning
 *   signals    the program's own SIGALRM (setitimer) and SIGUSR1 (raise)
 *              handlers: every raise handled exactly once, alarms keep
 *              coming, a handler that computes past the slice is never
 *              switched away from
 *   nodefer    the same with a SIGUSR1 handler installed with SA_NODEFER
 *              (its signal mask is the one outside it)
 *   callbacks  stdio calling back into the program (fopencookie) while it
 *              holds the FILE's lock; preemption is off around the fprintf
 *              that calls back (uthread_preemption_off, docs/runtime.md,
 *              'Preemption'): the callback is never switched away from, and
 *              the lines written by 4 threads arrive whole and in each
 *              thread's order
 *   off        WUC_TIMESLICE=0: threads that compute and yield are never
 *              preempted
 *   default    WUC_TIMESLICE unset: two threads that never yield share one
 *              worker (the default slice is on)
 *
 * Every mode but `off` requires preemptions (the sum of the workers'
 * wuc_worker_stats().preemptions) > 0 and prints it.  "Interleavings" are
 * seen directly: during a stretch of pure compute a thread notes, in a
 * variable of its kernel thread, that it is the one running there; finding
 * another thread's mark means it was switched away from without reaching a
 * scheduling point.  During such a stretch the kernel thread must not change
 * either (a preempted thread resumes on its worker).
 *
 * A failed check prints "FAILED: ..." and exits with status 1; the watchdog
 * ends a hang with status 3.  WUC_STRESS_SCALE=K multiplies the work. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sanitizer.h> /* WUC_ASAN, WUC_TSAN */
#include <scheduler.h> /* wuc_worker_stats, WUC_MAX_WORKERS (white-box) */
#include <wuc.h>

#include <errno.h>
#include <fenv.h>
#include <immintrin.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static const char *g_mode = "?";
static long g_scale = 1;

#include "stress_check.h"

/* ---- watchdog: a hang detector, not a timing assertion -------------------- */

static atomic_bool g_done;
static _Atomic(const char *) g_phase = "start";

static void *watchdog_main(void *arg) {
  long seconds = (long)(intptr_t)arg;
  /* Process-directed signals (SIGALRM) go to the workers, not here. */
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  for (long i = 0; i < seconds * 10; i++) {
    if (atomic_load(&g_done)) return NULL;
    usleep(100 * 1000);
  }
  fprintf(stderr, "FAILED: %s: watchdog: no end after %ld s (phase %s)\n", g_mode, seconds,
          atomic_load(&g_phase));
  _exit(3);
}

static void start_watchdog(void) {
  /* A run takes under a second (a few under a sanitizer). */
#if defined(WUC_TSAN)
  long seconds = 90;
#elif defined(WUC_ASAN)
  long seconds = 60;
#else
  long seconds = 30;
#endif
  seconds *= g_scale;
  pthread_t t;
  CHECK(pthread_create(&t, NULL, watchdog_main, (void *)(intptr_t)seconds) == 0, "watchdog");
  pthread_detach(t);
}

/* ---- what the runtime reports ---------------------------------------------- */

static uint64_t total_preemptions(void) {
  uint64_t sum = 0;
  for (unsigned w = 0; w < WUC_MAX_WORKERS; w++) {
    struct wuc_worker_stats s;
    memset(&s, 0, sizeof s);
    wuc_worker_stats(w, &s);
    sum += s.preemptions;
  }
  return sum;
}

/* ---- interleavings and kernel-thread moves during pure compute ------------ */

/* The kernel thread's own TCB address (%fs:0 on x86-64 Linux), read afresh
 * each time: a compiler may keep a thread-local address across a call, not
 * across this asm. */
static inline uintptr_t kernel_thread(void) {
  uintptr_t p;
  __asm__ volatile("mov %%fs:0, %0" : "=r"(p));
  return p;
}

/* Which user thread last ran a compute stretch on this kernel thread. */
static _Thread_local volatile unsigned long tl_owner;

struct tally {
  uint64_t interleaved; /* another thread ran here in the middle of a stretch */
  uint64_t moved;       /* the stretch continued on another kernel thread */
};

static inline uint64_t mix64(uint64_t x) {
  x ^= x >> 31;
  x *= UINT64_C(0x7fb5d329728ea185);
  x ^= x >> 27;
  x *= UINT64_C(0x81dadef4bc2dd44d);
  x ^= x >> 33;
  return x;
}

/* Pure compute in this program's code, no scheduling point: `iters` rounds of
 * mixing.  Deterministic in (x, iters). */
static uint64_t compute_stretch(uint64_t x, long iters, unsigned long me, struct tally *t) {
  uintptr_t kt = kernel_thread();
  tl_owner = me;
  for (long i = 0; i < iters; i++) {
    x = mix64(x + (uint64_t)i);
    if ((i & 127) == 0) {
      if (kernel_thread() != kt) {
        t->moved++;
        kt = kernel_thread();
      }
      if (tl_owner != me) {
        t->interleaved++;
        tl_owner = me;
      }
    }
  }
  return x;
}

struct rng {
  uint64_t s;
};
static uint64_t next(struct rng *r) {
  r->s += UINT64_C(0x9e3779b97f4a7c15);
  return mix64(r->s);
}

/* ---- mode mix -------------------------------------------------------------- */

enum { kMixThreads = 8, kSlots = 16 };
static long g_mix_rounds = 2000;
static FILE *g_devnull; /* shared by every thread: its lock is a kernel-thread lock */

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static uint64_t byte_sum(const unsigned char *p, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i++) s += p[i];
  return s;
}

struct block {
  unsigned char *p;
  size_t size;
  unsigned char pattern;
};

static void check_block(const struct block *b, unsigned t) {
  CHECK(byte_sum(b->p, b->size) == (uint64_t)b->size * b->pattern,
        "thread %u: a %zu-byte block filled with %u changed", t, b->size, b->pattern);
}

/* One thread's work; returns its digest.  The same (t, rounds) always gives
 * the same digest, whoever runs it and however it is interleaved. */
static uint64_t mix_work(unsigned t, long rounds, unsigned long me, struct tally *tally) {
  struct rng r = {UINT64_C(0x1234567) * (t + 1)};
  uint64_t digest = t;
  struct block blocks[kSlots];
  memset(blocks, 0, sizeof blocks);
  char *mem = NULL;
  size_t mem_size = 0, expected_len = 0;
  FILE *out = open_memstream(&mem, &mem_size);
  CHECK(out != NULL, "open_memstream: %s", strerror(errno));

  for (long round = 0; round < rounds; round++) {
    uint64_t v = next(&r);
    switch (v % 5) {
    case 0: { /* allocation: a block of a random size, filled, checked, freed later */
      struct block *b = &blocks[(v >> 8) % kSlots];
      if (b->p) {
        check_block(b, t);
        if ((v >> 16) % 4 == 0) { /* grow it: the old bytes must survive realloc */
          size_t bigger = b->size + 1 + (v >> 20) % 2048;
          unsigned char *q = realloc(b->p, bigger);
          CHECK(q != NULL, "realloc");
          b->p = q;
          check_block(b, t);
          memset(q + b->size, b->pattern, bigger - b->size);
          b->size = bigger;
          check_block(b, t);
          digest = mix64(digest ^ bigger);
          break;
        }
        free(b->p);
      }
      b->size = 1 + ((v >> 24) % 8 == 0 ? (v >> 28) % 65536 : (v >> 28) % 512);
      b->pattern = (unsigned char)(1 + (v >> 40) % 255);
      b->p = malloc(b->size);
      CHECK(b->p != NULL, "malloc(%zu)", b->size);
      memset(b->p, b->pattern, b->size);
      check_block(b, t);
      digest = mix64(digest ^ (b->size * b->pattern));
      break;
    }
    case 1: { /* formatted output and its parse */
      char buf[160];
      unsigned long a = (unsigned long)(v >> 3);
      int bi = (int)(v >> 40) - (1 << 23);
      double d = (double)(int64_t)(v >> 11) / 7.0;
      int n = snprintf(buf, sizeof buf, "%lu:%d:%.17g:%s", a, bi, d, (v & 1) ? "odd" : "even");
      CHECK(n > 0 && (size_t)n < sizeof buf, "snprintf returned %d", n);
      unsigned long a2 = 0;
      int b2 = 0;
      double d2 = 0;
      char word[8] = "";
      CHECK(sscanf(buf, "%lu:%d:%lg:%7s", &a2, &b2, &d2, word) == 4, "sscanf of \"%s\"", buf);
      CHECK(a2 == a && b2 == bi && d2 == d && strcmp(word, (v & 1) ? "odd" : "even") == 0,
            "\"%s\" read back wrong", buf);
      CHECK(fprintf(out, "%s\n", buf) == n + 1, "fprintf to a memstream");
      expected_len += (size_t)n + 1;
      CHECK(fprintf(g_devnull, "%s %u\n", buf, t) > 0, "fprintf to /dev/null");
      if ((v >> 32) % 16 == 0) {
        CHECK(fflush(out) == 0, "fflush");
        CHECK(mem_size == expected_len, "memstream holds %zu bytes, expected %zu", mem_size,
              expected_len);
        CHECK(memcmp(mem + mem_size - (size_t)n - 1, buf, (size_t)n) == 0, "last line differs");
        digest = mix64(digest ^ byte_sum((const unsigned char *)mem, mem_size));
        if (mem_size > 16384) { /* start over */
          fclose(out);
          free(mem);
          mem = NULL;
          mem_size = expected_len = 0;
          out = open_memstream(&mem, &mem_size);
          CHECK(out != NULL, "open_memstream");
        }
      }
      for (const char *c = buf; *c; c++) digest = mix64(digest ^ (unsigned char)*c);
      break;
    }
    case 2: { /* qsort of a small array (the comparator is this program's code) */
      int a[64];
      size_t n = 1 + (v >> 8) % 64;
      uint64_t sum = 0, x = 0;
      for (size_t i = 0; i < n; i++) {
        a[i] = (int)(next(&r) % 1000) - 500;
        sum += (uint64_t)(int64_t)a[i];
        x ^= (uint64_t)(int64_t)a[i];
      }
      qsort(a, n, sizeof a[0], cmp_int);
      uint64_t sum2 = 0, x2 = 0;
      for (size_t i = 0; i < n; i++) {
        CHECK(i == 0 || a[i - 1] <= a[i], "thread %u: qsort left %d before %d", t, a[i - 1], a[i]);
        sum2 += (uint64_t)(int64_t)a[i];
        x2 ^= (uint64_t)(int64_t)a[i];
        digest = mix64(digest ^ (uint64_t)(int64_t)a[i]);
      }
      CHECK(sum2 == sum && x2 == x, "thread %u: qsort changed the elements", t);
      break;
    }
    case 3: { /* strtol / strtod and errno: errno belongs to the user thread */
      char buf[64], *end;
      long want = (long)(v >> 1) * ((v & 1) ? -1 : 1);
      snprintf(buf, sizeof buf, "%ld", want);
      errno = 0;
      digest =
          compute_stretch(digest, 3000, me, tally); /* own code between errno = 0 and the call */
      long got = strtol(buf, &end, 10);
      CHECK(errno == 0 && got == want && *end == '\0', "strtol(\"%s\") = %ld, errno %d", buf, got,
            errno);
      errno = 0;
      long big = strtol("999999999999999999999999", &end, 10);
      CHECK(errno == ERANGE && big == LONG_MAX, "strtol overflow: %ld, errno %d", big, errno);
      double dwant = (double)(int64_t)(v >> 12) / 3.0;
      snprintf(buf, sizeof buf, "%.17g", dwant);
      errno = 0;
      digest = compute_stretch(digest, 3000, me, tally);
      double dgot = strtod(buf, &end);
      CHECK(errno == 0 && dgot == dwant && *end == '\0', "strtod(\"%s\"), errno %d", buf, errno);
      errno = 0;
      double huge = strtod("1e999999", &end);
      CHECK(errno == ERANGE && huge == HUGE_VAL, "strtod overflow: errno %d", errno);
      errno = 0;
      digest = compute_stretch(digest, 3000, me, tally);
      CHECK(errno == 0, "errno became %d during pure compute", errno);
      digest = mix64(digest ^ (uint64_t)got ^ (uint64_t)(int64_t)dgot);
      break;
    }
    default: /* pure compute, long enough to be preempted in; errno stays the thread's own */
      errno = 1000 + (int)t;
      digest = compute_stretch(digest, 20000 + (long)((v >> 8) % 20000), me, tally);
      CHECK(errno == 1000 + (int)t, "thread %u: errno became %d during pure compute", t, errno);
      break;
    }
  }
  for (unsigned i = 0; i < kSlots; i++) {
    if (!blocks[i].p) continue;
    check_block(&blocks[i], t);
    digest = mix64(digest ^ blocks[i].size);
    free(blocks[i].p);
  }
  fclose(out);
  free(mem);
  return digest;
}

struct mix_arg {
  unsigned t;
  uint64_t digest;
  struct tally tally;
};

static void mix_thread(void *p) {
  struct mix_arg *a = p;
  a->digest = mix_work(a->t, g_mix_rounds, a->t + 1, &a->tally);
}

static void run_mix(void) {
  g_mix_rounds *= g_scale;
  g_devnull = fopen("/dev/null", "w");
  CHECK(g_devnull != NULL, "fopen /dev/null");
  uint64_t expected[kMixThreads];
  atomic_store(&g_phase, "reference");
  for (unsigned t = 0; t < kMixThreads; t++) {
    struct tally ignored = {0, 0};
    expected[t] = mix_work(t, g_mix_rounds, 1000 + t, &ignored);
  }
  atomic_store(&g_phase, "threads");
  struct mix_arg args[kMixThreads];
  uthread_t *threads[kMixThreads];
  memset(args, 0, sizeof args);
  for (unsigned t = 0; t < kMixThreads; t++) {
    args[t].t = t;
    threads[t] = uthread_spawn(mix_thread, &args[t]);
  }
  uint64_t interleaved = 0;
  for (unsigned t = 0; t < kMixThreads; t++) {
    uthread_join(threads[t]);
    CHECK(args[t].digest == expected[t], "thread %u: digest %016" PRIx64 ", alone %016" PRIx64, t,
          args[t].digest, expected[t]);
    CHECK(args[t].tally.moved == 0,
          "thread %u: a compute stretch went on on another kernel thread %" PRIu64 " times", t,
          args[t].tally.moved);
    interleaved += args[t].tally.interleaved;
  }
  fclose(g_devnull);
  uint64_t preemptions = total_preemptions();
  printf("mix: %d threads x %ld rounds, %u workers: preemptions %" PRIu64
         ", interleavings seen %" PRIu64 "\n",
         kMixThreads, g_mix_rounds, wuc_processors(), preemptions, interleaved);
  CHECK(preemptions > 0, "no thread was preempted");
  CHECK(interleaved > 0, "no compute stretch was interrupted by another thread");
}

/* ---- mode fp --------------------------------------------------------------- */

typedef double v2d __attribute__((vector_size(16)));
typedef double v4d __attribute__((vector_size(32)));

struct fp_result {
  unsigned char sse[8][16];
  unsigned char sqrt_ps[2][16];
  unsigned char x87[4][10];
  unsigned char avx[4][32];
};

static volatile double g_fp_in[4] = {3.0, 7.0, 11.0, 1.1};
static volatile long double g_fp_ld[3] = {3.0L, 7.0L, 1.1L};
static long g_fp_iters = 3000000;
static int g_have_avx;

/* Accumulating sums, so a disturbed register stays disturbed: a division by
 * 3, 7 or 11 rounds differently in each mode. */
static void fp_sse_x87(uint64_t seed, long iters, struct fp_result *out) {
  v2d three = {g_fp_in[0], g_fp_in[1]}, eleven = {g_fp_in[2], g_fp_in[3]};
  v2d a0 = {0, 0}, a1 = {0, 0}, a2 = {0, 0}, a3 = {0, 0};
  v2d a4 = {1, 1}, a5 = {1, 1}, a6 = {0, 0}, a7 = {0, 0};
  __m128 f0 = _mm_setzero_ps(), f1 = _mm_setzero_ps();
  long double l0 = 0, l1 = 0, l2 = 0, l3 = 0;
  long double d3 = g_fp_ld[0], d7 = g_fp_ld[1], k = g_fp_ld[2];
  for (long i = 0; i < iters; i++) {
    double di = (double)i, dj = (double)(int64_t)((uint64_t)i ^ seed);
    v2d x = {di, dj};
    a0 += x / three;
    a1 += x / eleven;
    a2 -= a0 / eleven;
    a3 += (a1 - a0) / three;
    a4 = a4 * (v2d){1.0, 1.0} + x / (x + three);
    a5 += a4 / three;
    a6 += x * (v2d){0.1, 0.3};
    a7 -= a6 / three;
    __m128 fi = _mm_set_ps((float)i, (float)(i + 1), (float)(i + 2), (float)dj);
    f0 = _mm_add_ps(f0, _mm_sqrt_ps(fi));
    f1 = _mm_add_ps(f1, _mm_div_ps(fi, _mm_set1_ps(3.0f)));
    long double li = (long double)i;
    l0 += li / d3;
    l1 += l0 / d7;
    l2 += (long double)dj / d3;
    l3 -= li * k;
  }
  memcpy(out->sse[0], &a0, 16);
  memcpy(out->sse[1], &a1, 16);
  memcpy(out->sse[2], &a2, 16);
  memcpy(out->sse[3], &a3, 16);
  memcpy(out->sse[4], &a4, 16);
  memcpy(out->sse[5], &a5, 16);
  memcpy(out->sse[6], &a6, 16);
  memcpy(out->sse[7], &a7, 16);
  memcpy(out->sqrt_ps[0], &f0, 16);
  memcpy(out->sqrt_ps[1], &f1, 16);
  memcpy(out->x87[0], &l0, 10);
  memcpy(out->x87[1], &l1, 10);
  memcpy(out->x87[2], &l2, 10);
  memcpy(out->x87[3], &l3, 10);
}

/* The upper halves of the ymm registers must survive too. */
__attribute__((target("avx"))) static void fp_avx(uint64_t seed, long iters,
                                                  struct fp_result *out) {
  v4d three = {g_fp_in[0], g_fp_in[1], g_fp_in[2], g_fp_in[0]};
  v4d b0 = {0, 0, 0, 0}, b1 = {0, 0, 0, 0}, b2 = {0, 0, 0, 0}, b3 = {0, 0, 0, 0};
  for (long i = 0; i < iters; i++) {
    double di = (double)i, dj = (double)(int64_t)((uint64_t)i ^ seed);
    v4d x = {di, dj, di + 0.5, dj - 0.25};
    b0 += x / three;
    b1 -= b0 / three;
    b2 += (x + b0) / (x + three);
    b3 += b2 / three;
  }
  memcpy(out->avx[0], &b0, 32);
  memcpy(out->avx[1], &b1, 32);
  memcpy(out->avx[2], &b2, 32);
  memcpy(out->avx[3], &b3, 32);
}

static void fp_compute(uint64_t seed, long iters, struct fp_result *out) {
  memset(out, 0, sizeof *out);
  fp_sse_x87(seed, iters, out);
  if (g_have_avx) fp_avx(seed, iters / 2, out);
}

static unsigned read_mxcsr(void) { return _mm_getcsr(); }
static unsigned short read_x87_cw(void) {
  unsigned short cw;
  __asm__ volatile("fnstcw %0" : "=m"(cw));
  return cw;
}

enum { kFpThreads = 4, kFpRepeats = 3 };
static const int kModes[kFpThreads] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO, FE_TONEAREST};
static const char *const kModeNames[kFpThreads] = {"upward", "downward", "toward zero",
                                                   "to nearest"};
static struct fp_result g_fp_ref[kFpThreads];

struct fp_arg {
  unsigned t;
  int ok_repeats;
};

static void fp_thread(void *p) {
  struct fp_arg *a = p;
  CHECK(fesetround(kModes[a->t]) == 0, "fesetround");
  unsigned mxcsr = read_mxcsr();
  unsigned short cw = read_x87_cw();
  for (int rep = 0; rep < kFpRepeats; rep++) {
    struct fp_result r;
    fp_compute(0x5eed, g_fp_iters, &r);
    CHECK(fegetround() == kModes[a->t], "thread %u (%s): the rounding mode became %d", a->t,
          kModeNames[a->t], fegetround());
    CHECK(read_mxcsr() == mxcsr && read_x87_cw() == cw,
          "thread %u (%s): MXCSR %#x (was %#x), x87 control word %#x (was %#x)", a->t,
          kModeNames[a->t], read_mxcsr(), mxcsr, read_x87_cw(), cw);
    CHECK(memcmp(r.sse, g_fp_ref[a->t].sse, sizeof r.sse) == 0,
          "thread %u (%s), repeat %d: SSE2 double results differ from the reference", a->t,
          kModeNames[a->t], rep);
    CHECK(memcmp(r.sqrt_ps, g_fp_ref[a->t].sqrt_ps, sizeof r.sqrt_ps) == 0,
          "thread %u (%s), repeat %d: SSE float results differ from the reference", a->t,
          kModeNames[a->t], rep);
    CHECK(memcmp(r.x87, g_fp_ref[a->t].x87, sizeof r.x87) == 0,
          "thread %u (%s), repeat %d: x87 long double results differ from the reference", a->t,
          kModeNames[a->t], rep);
    CHECK(memcmp(r.avx, g_fp_ref[a->t].avx, sizeof r.avx) == 0,
          "thread %u (%s), repeat %d: AVX results differ from the reference", a->t,
          kModeNames[a->t], rep);
    a->ok_repeats++;
  }
}

static void run_fp(void) {
  g_fp_iters *= g_scale;
  g_have_avx = __builtin_cpu_supports("avx");
  atomic_store(&g_phase, "reference");
  for (unsigned t = 0; t < kFpThreads; t++) {
    CHECK(fesetround(kModes[t]) == 0, "fesetround");
    fp_compute(0x5eed, g_fp_iters, &g_fp_ref[t]);
    CHECK(fesetround(FE_TONEAREST) == 0, "fesetround");
  }
  /* The test means something only if each unit's results depend on the mode. */
  CHECK(memcmp(g_fp_ref[0].sse, g_fp_ref[1].sse, sizeof g_fp_ref[0].sse) != 0 &&
            memcmp(g_fp_ref[0].sqrt_ps, g_fp_ref[1].sqrt_ps, sizeof g_fp_ref[0].sqrt_ps) != 0 &&
            memcmp(g_fp_ref[0].x87, g_fp_ref[1].x87, sizeof g_fp_ref[0].x87) != 0 &&
            (!g_have_avx || memcmp(g_fp_ref[0].avx, g_fp_ref[1].avx, sizeof g_fp_ref[0].avx) != 0),
        "the reference results do not depend on the rounding mode");
  atomic_store(&g_phase, "threads");
  struct fp_arg args[kFpThreads];
  uthread_t *threads[kFpThreads];
  memset(args, 0, sizeof args);
  for (unsigned t = 0; t < kFpThreads; t++) {
    args[t].t = t;
    threads[t] = uthread_spawn(fp_thread, &args[t]);
  }
  for (unsigned t = 0; t < kFpThreads; t++) {
    uthread_join(threads[t]);
    CHECK(args[t].ok_repeats == kFpRepeats, "thread %u", t);
  }
  CHECK(fegetround() == FE_TONEAREST, "main's rounding mode became %d", fegetround());
  uint64_t preemptions = total_preemptions();
  printf("fp: %d threads (rounding upward, downward, toward zero, to nearest) x %d x %ld "
         "iterations, SSE2 + x87%s, %u workers: preemptions %" PRIu64 "\n",
         kFpThreads, kFpRepeats, g_fp_iters, g_have_avx ? " + AVX" : "", wuc_processors(),
         preemptions);
  CHECK(preemptions > 0, "no thread was preempted");
}

/* ---- mode signals ---------------------------------------------------------- */

enum { kSigThreads = 4 };
static long g_sig_raises = 200;       /* per thread */
static long g_handler_iters = 150000; /* a SIGUSR1 handler computes past the slice */
static atomic_long g_usr1_handled, g_usr1_raised, g_alarms;
static _Thread_local volatile int tl_in_handler; /* this kernel thread is in a handler */

static void on_usr1(int sig) {
  (void)sig;
  tl_in_handler++;
  volatile uint64_t x = 1;
  for (long i = 0; i < g_handler_iters; i++) x = mix64(x + (uint64_t)i);
  atomic_fetch_add(&g_usr1_handled, 1);
  tl_in_handler--;
}

static atomic_long g_urg_handled;

/* The program's own SIGURG handler, installed before the first spawn: the
 * runtime preempts with SIGURG too, and hands the program the ones it did
 * not send. */
static void on_urg(int sig) {
  (void)sig;
  atomic_fetch_add(&g_urg_handled, 1);
}

static void on_alarm(int sig) {
  (void)sig;
  tl_in_handler++;
  atomic_fetch_add(&g_alarms, 1);
  tl_in_handler--;
}

struct sig_arg {
  unsigned t;
  long seen_in_handler; /* ran while its kernel thread was inside a handler */
  struct tally tally;
};

static void sig_thread(void *p) {
  struct sig_arg *a = p;
  uint64_t x = a->t;
  for (long i = 0; i < g_sig_raises; i++) {
    for (int j = 0; j < 50; j++) {
      x = compute_stretch(x, 2000, a->t + 1, &a->tally);
      if (tl_in_handler) a->seen_in_handler++;
    }
    atomic_fetch_add(&g_usr1_raised, 1);
    CHECK(raise(SIGUSR1) == 0, "raise: %s", strerror(errno));
  }
}

/* nodefer: the SIGUSR1 handler is installed with SA_NODEFER, so the signal
 * mask inside it is the mask outside it. */
static void run_signals(bool nodefer) {
  g_sig_raises *= g_scale;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | (nodefer ? SA_NODEFER : 0);
  sa.sa_handler = on_usr1;
  CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "sigaction");
  sa.sa_flags = SA_RESTART;
  sa.sa_handler = on_alarm;
  CHECK(sigaction(SIGALRM, &sa, NULL) == 0, "sigaction");
  sa.sa_handler = on_urg;
  CHECK(sigaction(SIGURG, &sa, NULL) == 0, "sigaction");
  struct itimerval every = {{0, 500}, {0, 500}};
  CHECK(setitimer(ITIMER_REAL, &every, NULL) == 0, "setitimer");

  struct sig_arg args[kSigThreads];
  uthread_t *threads[kSigThreads];
  memset(args, 0, sizeof args);
  atomic_store(&g_phase, "threads");
  for (unsigned t = 0; t < kSigThreads; t++) {
    args[t].t = t;
    threads[t] = uthread_spawn(sig_thread, &args[t]);
  }
  for (unsigned t = 0; t < kSigThreads; t++) uthread_join(threads[t]);
  /* Alarms keep being handled (the watchdog ends a wait that never does). */
  atomic_store(&g_phase, "waiting for 20 more alarms");
  long target = atomic_load(&g_alarms) + 20;
  while (atomic_load(&g_alarms) < target) uthread_sleep(milliseconds(1));
  struct itimerval off = {{0, 0}, {0, 0}};
  CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0, "setitimer");
  /* SIGURG sent to the process reaches the program's handler, each one
   * (the next is sent once the last was handled: signals of one number
   * pending at once are delivered once). */
  atomic_store(&g_phase, "SIGURG to the program's handler");
  enum { kUrgs = 50 };
  for (long i = 1; i <= kUrgs; i++) {
    CHECK(kill(getpid(), SIGURG) == 0, "kill: %s", strerror(errno));
    while (atomic_load(&g_urg_handled) < i) uthread_yield();
  }

  long seen = 0;
  uint64_t moved = 0;
  for (unsigned t = 0; t < kSigThreads; t++) {
    seen += args[t].seen_in_handler;
    moved += args[t].tally.moved;
  }
  uint64_t preemptions = total_preemptions();
  printf("%s: %d threads, %u workers: SIGUSR1%s raised %ld, handled %ld; SIGALRM handled "
         "%ld; SIGURG sent %d, handled %ld; preemptions %" PRIu64 "\n",
         g_mode, kSigThreads, wuc_processors(), nodefer ? " (SA_NODEFER)" : "",
         atomic_load(&g_usr1_raised), atomic_load(&g_usr1_handled), atomic_load(&g_alarms), kUrgs,
         atomic_load(&g_urg_handled), preemptions);
  CHECK(atomic_load(&g_urg_handled) == kUrgs, "SIGURG handled more often than sent");
  CHECK(atomic_load(&g_usr1_handled) == atomic_load(&g_usr1_raised),
        "every raise(SIGUSR1) must be handled exactly once");
  CHECK(seen == 0,
        "a thread ran %ld times while its kernel thread was inside a signal handler "
        "(a handler was preempted)",
        seen);
  CHECK(moved == 0, "a compute stretch went on on another kernel thread");
  CHECK(preemptions > 0, "no thread was preempted");
}

/* ---- mode callbacks -------------------------------------------------------- */

enum { kCbThreads = 4 };
static long g_cb_lines = 2000; /* per thread */

/* The FILE's lock orders the callbacks, but ThreadSanitizer does not see
 * glibc's internal locks: relaxed atomics keep it quiet without adding any
 * order (a write in the middle of another still loses bytes). */
struct sink {
  char *data;
  _Atomic size_t len;
  size_t cap;
};

static atomic_long g_cb_interrupted; /* callbacks switched away from */

/* Called by stdio with the FILE's lock, a lock of the kernel thread, held:
 * this program's code, computing long enough to be preempted in, appending
 * the bytes one at a time.  A switch to another thread here would let that
 * thread, on the same kernel thread, take the lock again (it is recursive)
 * and write in the middle of this write; so preemption is off around the
 * fprintf that calls it (cb_thread) — not just inside it: its own return
 * still runs with the lock held. */
static ssize_t sink_write(void *cookie, const char *buf, size_t size) {
  struct sink *s = cookie;
  size_t at = atomic_load_explicit(&s->len, memory_order_relaxed);
  if (at + size > s->cap) return -1;
  unsigned long me = 1000000 + uthread_id(uthread_self());
  uintptr_t kt = kernel_thread();
  tl_owner = me;
  for (size_t i = 0; i < size; i++) {
    volatile uint64_t x = (unsigned char)buf[i];
    for (int j = 0; j < 400; j++) x = mix64(x + (uint64_t)j);
    __atomic_store_n(&s->data[at + i], buf[i], __ATOMIC_RELAXED);
  }
  if (tl_owner != me || kernel_thread() != kt) atomic_fetch_add(&g_cb_interrupted, 1);
  atomic_store_explicit(&s->len, at + size, memory_order_relaxed);
  return (ssize_t)size;
}

static FILE *g_cb_file;

struct cb_arg {
  unsigned t;
  struct tally tally;
};

static void cb_thread(void *p) {
  struct cb_arg *a = p;
  uint64_t x = a->t;
  for (long i = 0; i < g_cb_lines; i++) {
    uthread_preemption_off(); /* stdio may call sink_write: see there */
    int written =
        fprintf(g_cb_file, "line %u %ld %016" PRIx64 "\n", a->t, i, mix64(a->t * 100000 + i));
    uthread_preemption_on();
    CHECK(written > 0, "fprintf");
    /* Compute outside stdio, where preemption may switch. */
    x = compute_stretch(x, 3000, a->t + 1, &a->tally);
  }
}

/* One round: every line checked; returns the compute stretches interrupted. */
static uint64_t callbacks_round(void) {
  static struct sink sink;
  sink.len = 0;
  sink.cap = (size_t)kCbThreads * g_cb_lines * 64;
  sink.data = malloc(sink.cap);
  CHECK(sink.data != NULL, "malloc");
  cookie_io_functions_t io = {.read = NULL, .write = sink_write, .seek = NULL, .close = NULL};
  g_cb_file = fopencookie(&sink, "w", io);
  CHECK(g_cb_file != NULL, "fopencookie");
  static char buffer[64]; /* small: a write every couple of lines */
  CHECK(setvbuf(g_cb_file, buffer, _IOFBF, sizeof buffer) == 0, "setvbuf");
  uthread_t *threads[kCbThreads];
  struct cb_arg args[kCbThreads];
  memset(args, 0, sizeof args);
  atomic_store(&g_phase, "threads");
  for (unsigned t = 0; t < kCbThreads; t++) {
    args[t].t = t;
    threads[t] = uthread_spawn(cb_thread, &args[t]);
  }
  uint64_t interleaved = 0, moved = 0;
  for (unsigned t = 0; t < kCbThreads; t++) {
    uthread_join(threads[t]);
    interleaved += args[t].tally.interleaved;
    moved += args[t].tally.moved;
  }
  CHECK(fclose(g_cb_file) == 0, "fclose");
  CHECK(atomic_load(&g_cb_interrupted) == 0,
        "%ld callbacks with preemption off were switched away from",
        atomic_load(&g_cb_interrupted));
  CHECK(moved == 0, "a compute stretch went on on another kernel thread");

  /* Every line whole, each thread's in order, none lost. */
  long next_line[kCbThreads] = {0};
  long lines = 0;
  size_t pos = 0;
  while (pos < sink.len) {
    char *nl = memchr(sink.data + pos, '\n', sink.len - pos);
    CHECK(nl != NULL, "the output ends in the middle of a line");
    char line[128], want[128];
    size_t n = (size_t)(nl - (sink.data + pos));
    CHECK(n < sizeof line, "a %zu-byte line at offset %zu", n, pos);
    memcpy(line, sink.data + pos, n);
    line[n] = '\0';
    unsigned t = 0;
    long i = 0;
    CHECK(sscanf(line, "line %u %ld", &t, &i) == 2 && t < kCbThreads,
          "a broken line at offset %zu: \"%s\"", pos, line);
    snprintf(want, sizeof want, "line %u %ld %016" PRIx64, t, i, mix64(t * 100000 + i));
    CHECK(strcmp(line, want) == 0 && i == next_line[t],
          "at offset %zu: \"%s\" (thread %u's next line is %ld)", pos, line, t, next_line[t]);
    next_line[t]++;
    lines++;
    pos += n + 1;
  }
  CHECK(lines == kCbThreads * g_cb_lines, "%ld lines, expected %ld", lines,
        kCbThreads * g_cb_lines);
  free(sink.data);
  printf("callbacks: %d threads x %ld lines through fopencookie, %u workers: preemptions "
         "%" PRIu64 ", interleavings seen %" PRIu64 "\n",
         kCbThreads, g_cb_lines, wuc_processors(), total_preemptions(), interleaved);
  return interleaved;
}

/* A round is preempted only when the monitor's signal lands in the program's
 * own code; under ThreadSanitizer, which runs the handler at its next
 * interceptor, a round of 2 workers saw none about once in 80 (preemptions
 * 0-8 in the tail, 20-60 typically).  So up to 8 rounds, until one is. */
static void run_callbacks(void) {
  g_cb_lines *= g_scale;
  uint64_t interleaved = 0;
  for (int round = 0; round < 8 && (round == 0 || total_preemptions() == 0); round++)
    interleaved += callbacks_round();
  CHECK(total_preemptions() > 0, "no thread was preempted in 8 rounds");
  if (wuc_processors() == 1) CHECK(interleaved > 0, "no compute stretch was interrupted");
}

/* ---- modes off and default ------------------------------------------------- */

struct share_arg {
  unsigned t;
  long stretches, iters;
  int yield;
  uint64_t result;
  struct tally tally;
  long others_after_yield; /* another thread ran here across a yield */
};

static void share_thread(void *p) {
  struct share_arg *a = p;
  uint64_t x = a->t;
  for (long s = 0; s < a->stretches; s++) {
    x = compute_stretch(x, a->iters, a->t + 1, &a->tally);
    if (a->yield) {
      uthread_yield();
      if (tl_owner != a->t + 1) a->others_after_yield++;
    }
  }
  a->result = x;
}

/* n threads, each computing `stretches` stretches of `iters`, yielding
 * between them or not. */
static void run_share(unsigned n, long stretches, long iters, int yield, struct share_arg *args) {
  uthread_t *threads[8];
  for (unsigned t = 0; t < n; t++) {
    args[t] = (struct share_arg){.t = t, .stretches = stretches, .iters = iters, .yield = yield};
    threads[t] = uthread_spawn(share_thread, &args[t]);
  }
  for (unsigned t = 0; t < n; t++) uthread_join(threads[t]);
}

static void run_off(void) {
  const char *slice = getenv("WUC_TIMESLICE");
  CHECK(slice != NULL && strcmp(slice, "0") == 0, "run with WUC_TIMESLICE=0 (it is %s)",
        slice ? slice : "unset");
  enum { n = 4 };
  struct share_arg args[n];
  atomic_store(&g_phase, "threads");
  /* Stretches of about 15 ms (more under a sanitizer): longer than the
   * default slice, so a 0 taken for "the default" shows too. */
  run_share(n, 3 * g_scale, 5000000, 1, args);
  uint64_t interleaved = 0, moved = 0;
  long others = 0;
  for (unsigned t = 0; t < n; t++) {
    interleaved += args[t].tally.interleaved;
    moved += args[t].tally.moved;
    others += args[t].others_after_yield;
  }
  uint64_t preemptions = total_preemptions();
  printf("off: %d threads computing and yielding, %u workers: preemptions %" PRIu64
         ", interleavings seen %" PRIu64 ", other threads seen after a yield %ld\n",
         n, wuc_processors(), preemptions, interleaved, others);
  CHECK(preemptions == 0, "WUC_TIMESLICE=0, yet threads were preempted");
  CHECK(interleaved == 0 && moved == 0, "a compute stretch was interrupted");
  /* The detector works: at one worker the others run at each yield. */
  if (wuc_processors() == 1) CHECK(others > 0, "no other thread ran across a yield");
}

static void run_default(void) {
  CHECK(getenv("WUC_TIMESLICE") == NULL, "run with WUC_TIMESLICE unset");
  enum { n = 2 };
  struct share_arg args[n];
  atomic_store(&g_phase, "threads");
  /* One stretch each of about 50 ms, no yield: five default slices. */
  run_share(n, 1, 16000000 * g_scale, 0, args);
  uint64_t interleaved = args[0].tally.interleaved + args[1].tally.interleaved;
  uint64_t preemptions = total_preemptions();
  printf("default: %d threads that never yield, %u workers: preemptions %" PRIu64
         ", interleavings seen %" PRIu64 "\n",
         n, wuc_processors(), preemptions, interleaved);
  CHECK(preemptions > 0, "no thread was preempted with the default slice");
  CHECK(args[0].tally.moved == 0 && args[1].tally.moved == 0,
        "a compute stretch went on on another kernel thread");
  if (wuc_processors() == 1) CHECK(interleaved > 0, "the two threads did not share the worker");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: wuc_preempt_stress mix|fp|signals|nodefer|callbacks|off|default\n");
    return 2;
  }
  g_mode = argv[1];
  const char *scale = getenv("WUC_STRESS_SCALE");
  if (scale && atol(scale) > 1) g_scale = atol(scale);
  const char *slice = getenv("WUC_TIMESLICE");
  printf("%s: WUC_TIMESLICE=%s, scale %ld\n", g_mode, slice ? slice : "(unset)", g_scale);
  fflush(stdout);
  start_watchdog();
  if (strcmp(g_mode, "mix") == 0)
    run_mix();
  else if (strcmp(g_mode, "fp") == 0)
    run_fp();
  else if (strcmp(g_mode, "signals") == 0)
    run_signals(false);
  else if (strcmp(g_mode, "nodefer") == 0)
    run_signals(true);
  else if (strcmp(g_mode, "callbacks") == 0)
    run_callbacks();
  else if (strcmp(g_mode, "off") == 0)
    run_off();
  else if (strcmp(g_mode, "default") == 0)
    run_default();
  else {
    fprintf(stderr, "unknown mode %s\n", g_mode);
    return 2;
  }
  atomic_store(&g_done, true);
  return 0;
}
