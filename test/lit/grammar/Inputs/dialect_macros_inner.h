/* Included by dialect_macros.h. */
#define DECL_F(T, name) static future(T) name
#define WAIT_READY(f) waituntil (f) puts("ready " #f)
