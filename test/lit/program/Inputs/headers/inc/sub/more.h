/* Two levels down, included as "more.h" by kinds.h beside it. */
#ifndef MORE_H
#define MORE_H
extern channel(enum more_kind { MORE_A, MORE_B }) *more_ptr;
#endif
