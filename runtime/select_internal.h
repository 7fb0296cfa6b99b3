/* select_internal.h — the parts of the select protocol (select.c) that only
 * the runtime's own resources use. */
#ifndef WUC_RUNTIME_SELECT_INTERNAL_H
#define WUC_RUNTIME_SELECT_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wuc/select.h>

/* wuc_select_claim_pair, except that two nodes of one statement are not
 * claimed nor dropped: it returns SELECT_PAIR_OWN and leaves both as they
 * were (a channel sets `theirs` aside: docs/select.md, "A statement
 * meeting itself").  Otherwise one of enum wuc_claim_pair_result. */
enum { SELECT_PAIR_OWN = WUC_PAIR_THEIRS_LOST + 1 };
int wuc_select_claim_pair_or_own(wuc_select_node *mine, wuc_select_node *theirs);

/* wuc_select_stmt_init for a statement that stands in for the blocking
 * call `call` (chan_send, chan_recv) made at `site` ("FILE:LINE", or NULL if
 * unknown): a caller that is no user thread is told that call's name and
 * site, not "waituntil". */
void wuc_select_stmt_init_for(wuc_select_stmt *s, bool all_or, const char *call, const char *site);

#endif
