/* A plain C source next to the .wc one: compiled by the C compiler. */
const char *external_label(void);
const char *external_label(void) { return "sum"; }
