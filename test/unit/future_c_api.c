/* future_c_api.c — WUC_FUTURE and WUC_FUTURE_STRUCT as a C program uses
 * them: assignment conversion, struct values, a named future passed to a
 * function, and a clause through the named struct's own trait. */
#include "future_c_api.h"

#include <string.h>

#include <wuc.h>

struct pair {
  int a;
  char name[8];
};
WUC_FUTURE_STRUCT(future_pair, struct pair);
WUC_FUTURE_STRUCT(future_double, double);

static WUC_FUTURE(unsigned char) static_future; /* zeroed: empty */

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) return __LINE__;                                                                  \
  } while (0)

static struct pair take(struct future_pair *f) { return future_get(f); }

int future_c_api_check(void) {
  CHECK(!future_ready(&static_future));
  int big = 300;
  CHECK(future_set(&static_future, big)); /* converted as by assignment: 300 % 256 */
  CHECK(future_get(&static_future) == 44);

  struct future_double d = {0};
  CHECK(future_set(&d, 7)); /* int to double */
  double out = 0;
  CHECK(future_try_get(&d, &out) && out == 7.0);

  struct future_pair p = {0};
  struct pair v = {.a = 5, .name = "five"};
  CHECK(future_set(&p, v));
  CHECK(!future_set(&p, (struct pair){.a = 6}));
  struct pair got = take(&p);
  CHECK(got.a == 5 && strcmp(got.name, "five") == 0);

  /* A clause on the named struct, through the trait WUC_FUTURE_STRUCT declared. */
  wuc_select_stmt s;
  wuc_select_stmt_init(&s, true);
  wuc_select_node n;
  wuc_select_node_init(&n, &s, NULL);
  CHECK(wuc_selectable_trait_future_pair_register.__wuc_register_select(&p, &n));
  CHECK(wuc_selectable_trait_future_pair_register.__wuc_unregister_select(&p, &n));

  future_reset(&p);
  CHECK(!future_ready(&p));
  return 0;
}
