/* t.h - included by t.c, so that depfiles name two files. */
#ifndef T_H
#define T_H
#define T_ANSWER 42
int twice(int x);
#endif
