/* Plain C over libwuc (core/sum.c): a total guarded by an owner_lock. */
#ifndef PROJ_SUM_H
#define PROJ_SUM_H
void proj_add(int v);
long proj_total(void);
#endif
