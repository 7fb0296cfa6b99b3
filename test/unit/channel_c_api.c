/* channel_c_api.c — the typed channel macros as a C program uses them (see
 * channel_c_api.h). */
#include "channel_c_api.h"

#include <limits.h>
#include <string.h>

#include <wuc.h>
#include <wuc/channel.h>
#include <wuc/thread.h>

#include "chan_segment.h"
#include "runtime_probe.h"

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) return __LINE__;                                                                  \
  } while (0)

int channel_c_char(void) {
  WUC_CHANNEL(char) c = {0};
  chan_init(&c, 4);
  CHECK(chan_send(&c, 'a'));
  CHECK(chan_send(&c, (char)-1));
  CHECK(chan_try_send(&c, CHAR_MAX));
  CHECK(chan_len(&c) == 3);
  char got[3] = {0};
  for (int i = 0; i < 3; i++) CHECK(chan_recv(&c, &got[i]));
  CHECK(got[0] == 'a' && got[1] == (char)-1 && got[2] == CHAR_MAX);
  CHECK(!chan_try_recv(&c, &got[0]));
  chan_destroy(&c);
  return 0;
}

int channel_c_long(void) {
  WUC_CHANNEL(long) c = {0};
  chan_init(&c, CHAN_UNBOUNDED);
  CHECK(chan_send(&c, LONG_MIN));
  CHECK(chan_send(&c, LONG_MAX));
  CHECK(chan_send(&c, 0L));
  long v = 1;
  CHECK(chan_recv(&c, &v) && v == LONG_MIN);
  CHECK(chan_try_recv(&c, &v) && v == LONG_MAX);
  CHECK(chan_recv(&c, &v) && v == 0);
  chan_destroy(&c);
  return 0;
}

struct s40 {
  long a[5];
};
_Static_assert(sizeof(struct s40) == 40, "a 40-byte element");

static struct s40 s40_make(long seed) {
  struct s40 s;
  for (int i = 0; i < 5; i++) s.a[i] = seed * 100 + i;
  return s;
}

static int s40_is(const struct s40 *s, long seed) {
  for (int i = 0; i < 5; i++)
    if (s->a[i] != seed * 100 + i) return 0;
  return 1;
}

int channel_c_struct40(void) {
  WUC_CHANNEL(struct s40) c = {0};
  chan_init(&c, 64);
  /* Across a segment boundary: elements of several segments. */
  for (long i = 0; i < 64; i++) CHECK(chan_send(&c, s40_make(i)));
  CHECK(!chan_try_send(&c, s40_make(99)));
  for (long i = 0; i < 64; i++) {
    struct s40 got;
    memset(&got, 0, sizeof got);
    CHECK(chan_recv(&c, &got));
    CHECK(s40_is(&got, i));
  }
  chan_destroy(&c);
  return 0;
}

typedef WUC_CHANNEL_STRUCT(s40_chan, struct s40) s40_chan;

static void s40_send_three(void *arg) {
  s40_chan *c = arg;
  for (long i = 1; i <= 3; i++) chan_send(c, s40_make(i));
}

static void s40_recv_one(void *arg) {
  s40_chan *c = arg;
  struct s40 got;
  if (chan_recv(c, &got) && s40_is(&got, 7)) chan_send(c, s40_make(8)); /* report back */
}

int channel_c_struct40_rendezvous(void) {
  s40_chan c = {0};
  /* A blocked sender's element is taken from its cell. */
  uthread_t *t = uthread_spawn(s40_send_three, &c);
  for (long i = 1; i <= 3; i++) {
    if (i == 1) probe_await_parked(t);
    struct s40 got;
    memset(&got, 0, sizeof got);
    CHECK(chan_recv(&c, &got));
    CHECK(s40_is(&got, i));
  }
  uthread_join(t);
  /* A blocked receiver gets the element copied into its target. */
  t = uthread_spawn(s40_recv_one, &c);
  probe_await_parked(t);
  CHECK(chan_send(&c, s40_make(7)));
  struct s40 back;
  CHECK(chan_recv(&c, &back) && s40_is(&back, 8));
  uthread_join(t);
  chan_destroy(&c);
  return 0;
}

struct empty {}; /* GNU C: sizeof 0 */
_Static_assert(sizeof(struct empty) == 0, "a zero-size element");

int channel_c_zero_size(void) {
  WUC_CHANNEL(struct empty) c = {0};
  chan_init(&c, 2);
  struct empty e = {};
  CHECK(chan_send(&c, e));
  CHECK(chan_try_send(&c, e));
  CHECK(!chan_try_send(&c, e));
  CHECK(chan_len(&c) == 2);
  CHECK(chan_recv(&c, &e));
  CHECK(chan_try_recv(&c, &e));
  CHECK(!chan_try_recv(&c, &e));
  chan_destroy(&c);

  WUC_CHANNEL(struct empty) u = {0};
  chan_init(&u, CHAN_UNBOUNDED);
  for (int i = 0; i < 100; i++) CHECK(chan_send(&u, e));
  chan_close(&u);
  for (int i = 0; i < 100; i++) CHECK(chan_recv(&u, &e));
  CHECK(!chan_recv(&u, &e));
  chan_destroy(&u);
  return 0;
}

typedef WUC_CHANNEL_STRUCT(empty_chan, struct empty) empty_chan;

static void empty_send_three(void *arg) {
  empty_chan *c = arg;
  struct empty e = {};
  for (int i = 0; i < 3; i++) chan_send(c, e);
}

int channel_c_zero_size_rendezvous(void) {
  empty_chan c = {0}; /* zeroed: rendezvous */
  uthread_t *t = uthread_spawn(empty_send_three, &c);
  probe_await_parked(t);
  struct empty e = {};
  CHECK(chan_try_recv(&c, &e)); /* a sender is blocked */
  CHECK(chan_recv(&c, &e));
  CHECK(chan_recv(&c, &e));
  uthread_join(t);
  CHECK(!chan_try_recv(&c, &e));
  chan_destroy(&c);
  return 0;
}

int channel_c_pointers(void) {
  static int x, y;
  WUC_CHANNEL(int *) c = {0};
  chan_init(&c, 3);
  CHECK(chan_send(&c, &x));
  CHECK(chan_send(&c, NULL));
  CHECK(chan_send(&c, &y));
  int *p = &y;
  CHECK(chan_recv(&c, &p) && p == &x);
  CHECK(chan_recv(&c, &p) && p == NULL);
  CHECK(chan_recv(&c, &p) && p == &y);

  WUC_CHANNEL(const char *) s = {0};
  chan_init(&s, 1);
  CHECK(chan_send(&s, "literal"));
  const char *got = NULL;
  CHECK(chan_recv(&s, &got) && strcmp(got, "literal") == 0);
  chan_destroy(&c);
  chan_destroy(&s);
  return 0;
}

int channel_c_conversions(void) {
  WUC_CHANNEL(double) d = {0};
  chan_init(&d, 4);
  CHECK(chan_send(&d, 3));         /* int literal to double */
  CHECK(chan_try_send(&d, 7 / 2)); /* an int expression: 3, then converted */
  CHECK(chan_send(&d, 'A'));
  double v = 0;
  CHECK(chan_recv(&d, &v) && v == 3.0);
  CHECK(chan_recv(&d, &v) && v == 3.0);
  CHECK(chan_recv(&d, &v) && v == 65.0);

  WUC_CHANNEL(int) i = {0};
  chan_init(&i, 2);
  double x = 2.9;
  CHECK(chan_send(&i, x)); /* truncated, as by assignment */
  CHECK(chan_send(&i, -x));
  int n = 0;
  CHECK(chan_recv(&i, &n) && n == 2);
  CHECK(chan_recv(&i, &n) && n == -2);

  WUC_CHANNEL(unsigned char) u = {0};
  chan_init(&u, 1);
  int big = 300;
  CHECK(chan_send(&u, big)); /* modulo 256 */
  unsigned char b = 0;
  CHECK(chan_recv(&u, &b) && b == 44);

  WUC_CHANNEL(float) f = {0};
  chan_init(&f, 1);
  CHECK(chan_send(&f, 0.1)); /* double to float */
  float fv = 0;
  CHECK(chan_recv(&f, &fv) && fv == (float)0.1);
  chan_destroy(&d);
  chan_destroy(&i);
  chan_destroy(&u);
  chan_destroy(&f);
  return 0;
}

/* A named channel type passed between functions. */
typedef WUC_CHANNEL_STRUCT(long_chan, long) long_chan;

static void fill(struct long_chan *c, long n) {
  for (long i = 0; i < n; i++) chan_send(c, i * i);
}

static long sum(long_chan *c) {
  long s = 0, v;
  while (chan_try_recv(c, &v)) s += v;
  return s;
}

int channel_c_named_struct(void) {
  long_chan c = {0};
  chan_init(&c, 10);
  fill(&c, 10);
  CHECK(sum(&c) == 285);
  CHECK(chan_cap(&c) == 10);
  chan_destroy(&c);
  return 0;
}

size_t channel_linked_segments(wuc_chan *ch) {
  size_t n = 0;
  for (struct wuc_chan_segment *s = ch->oldest; s; s = atomic_load(&s->next)) n++;
  return n;
}

size_t channel_segment_size(void) { return WUC_SEGMENT_SIZE; }
