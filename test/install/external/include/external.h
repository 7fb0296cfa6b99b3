/* The external project's own functions (plain C declarations). */
#ifndef EXTERNAL_H
#define EXTERNAL_H
const char *external_label(void); /* core/greeting.c */
int external_first(void);         /* core/util.wc */
int external_last(void);          /* util.wc */
#endif
