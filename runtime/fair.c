/* fair.c — the random numbers of [[wuc::fair]] statements (<wuc/waituntil.h>,
 * docs/language.md "Fair choice").
 *
 * One xorshift64* generator per kernel thread (so per worker): no lock, no
 * shared state, a few instructions per number.  Seeded on a thread's first
 * use from WUC_RANDOM_SEED when it is set (every thread then starts from the
 * same state, so a run at WUC_PROCESSORS=1 repeats its choices), else from
 * the clock and the thread's own address.  A user thread that moves to
 * another worker between two calls simply draws from that worker's
 * generator: the numbers stay uniform and independent of the clauses. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <wuc/waituntil.h>

#include "fatal.h"

static __thread uint64_t fair_state __attribute__((tls_model("initial-exec")));

/* SplitMix64's finaliser: spreads a seed over the state's bits. */
static uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static __attribute__((noinline)) uint64_t fair_seed(void) {
  const char *env = getenv("WUC_RANDOM_SEED");
  uint64_t seed;
  if (env && *env) {
    char *end;
    unsigned long long v = strtoull(env, &end, 0);
    if (*end != '\0' || *env == '-')
      wuc_fatal("WUC_RANDOM_SEED=%s: expected a non-negative integer", env);
    seed = mix((uint64_t)v);
  } else {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    seed =
        mix((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)(uintptr_t)&fair_state);
  }
  return seed ? seed : 1; /* xorshift's state must not be zero */
}

static uint32_t next32(void) {
  uint64_t x = fair_state;
  if (__builtin_expect(x == 0, 0)) x = fair_seed();
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  fair_state = x;
  return (uint32_t)((x * 0x2545f4914f6cdd1du) >> 32);
}

/* The rejection step of wuc_fair_random, rarely taken (low < bound). */
static __attribute__((noinline, cold)) unsigned reject(uint64_t m, unsigned bound) {
  uint32_t threshold = (uint32_t)-bound % bound;
  while ((uint32_t)m < threshold) m = (uint64_t)next32() * bound;
  return (unsigned)(m >> 32);
}

/* Uniform in [0, bound): Lemire's multiply-and-shift, with the rejection
 * that removes its bias (taken with probability below bound / 2^32). */
unsigned wuc_fair_random(unsigned bound) {
  uint64_t m = (uint64_t)next32() * bound;
  if (__builtin_expect((uint32_t)m < bound, 0)) return reject(m, bound);
  return (unsigned)(m >> 32);
}
