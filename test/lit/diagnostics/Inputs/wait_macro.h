/* A header macro holding a waituntil statement (waituntil_from_header_macro.wc). */
#define WAIT_RECV(x, c) waituntil (x << c) {}
