/* <wuc/fd.h> — the resource of the `readable(fd)` and `writable(fd)` clauses.
 *
 * wucc lowers `waituntil (readable(fd)) body` to a wuc_fd_clause made by
 * wuc_readable_make(fd) when the clause's resource expression is evaluated
 * (fd once, an int).  As a waituntil clause: ready when a read (a write) on
 * fd would not block at the moment the clause is looked at — data, end of
 * file, a hang-up or an error count as readable, as poll(2) reports them.
 * The clause only waits: the body does the read or write (with <wuc/io.h>,
 * or with read(2) on a non-blocking fd; another thread may have taken the
 * data meanwhile, and then that read reports EAGAIN).  While the clause
 * waits, its node is queued on the fd's entry in the runtime's poller
 * (epoll, docs/io.md); unregistering takes it off.  A negative fd stops the
 * program with a message; a closed one is readable and writable at once
 * (the body's call reports EBADF), as poll(2) says. */
#ifndef WUC_FD_H
#define WUC_FD_H

#include <wuc/select.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { WUC_FD_READABLE = 1, WUC_FD_WRITABLE = 2 };

typedef struct wuc_fd_clause {
  int fd;
  unsigned events; /* WUC_FD_READABLE or WUC_FD_WRITABLE */
} wuc_fd_clause;

static inline wuc_fd_clause wuc_readable_make(int __wuc_fd) {
  wuc_fd_clause __wuc_c = {__wuc_fd, WUC_FD_READABLE};
  return __wuc_c;
}

static inline wuc_fd_clause wuc_writable_make(int __wuc_fd) {
  wuc_fd_clause __wuc_c = {__wuc_fd, WUC_FD_WRITABLE};
  return __wuc_c;
}

/* The waituntil trait (<wuc/select.h>). */
wuc_bool wuc_fd_register(wuc_fd_clause *__wuc_c, wuc_select_node *__wuc_n);
wuc_bool wuc_fd_unregister(wuc_fd_clause *__wuc_c, wuc_select_node *__wuc_n);
WUC_SELECTABLE_DROPPABLE_BUILTIN_(wuc_fd_clause, wuc_fd_register, wuc_fd_unregister,
                                  wuc_fd_on_selected, 0);

#ifdef __cplusplus
}
#endif
#endif
