/* For driver/preprocessor_flags.wc: found only through -I. */
#ifndef LIT_HEADER_H
#define LIT_HEADER_H
static inline ELEM make_value(void) { return (ELEM)14; }
#endif
