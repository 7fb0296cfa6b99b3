/* report_probe.c — C helpers for report_test.cc: a waituntil clause on a
 * file descriptor as lowered C builds it (its trait object named as in C),
 * described as the deadlock report shows it. */
#include <wuc/fd.h>
#include <wuc/waituntil.h>

#include <scheduler.h>

void report_probe_describe_fd_clause(int fd, unsigned events, char *buf, unsigned size);

void report_probe_describe_fd_clause(int fd, unsigned events, char *buf, unsigned size) {
  wuc_fd_clause resource = {fd, events};
  wuc_wu_clause clause = {0};
  clause.res = &resource;
  clause.ops = &WUC_SELECTABLE_OPS(wuc_fd_register);
  wuc_describe_clause(&clause, buf, size);
}
