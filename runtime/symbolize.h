/* symbolize.h — names of code addresses, and where the runtime was loaded
 * from, read from the ELF files of the process (private to the runtime).
 *
 * Reports name a thread by its function ("user thread 2 (consumer, ...)").
 * dladdr sees only the dynamic symbol table, so it named nothing in a program
 * linked without -rdynamic and never a `static` function; wuc_symbolize reads
 * the full symbol table (.symtab, then .dynsym) of the file mapped at the
 * address instead, so programs need no special link flag (docs/runtime.md,
 * 'Names in reports'). */
#ifndef WUC_RUNTIME_SYMBOLIZE_H
#define WUC_RUNTIME_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The name of the function containing code address `addr`, or NULL when it
 * cannot be told (no symbol table: a stripped file; a file deleted or
 * replaced since it was mapped; no /proc).  The string lives as long as the
 * process.
 *
 * Async-signal-safe: it uses only system calls (open, read, fstat, mmap,
 * munmap, close) and lock-free atomics, never malloc, stdio or a lock, so the
 * SIGSEGV handler's stack overflow report may call it.  Each file is mapped
 * once, on its first look-up, and kept for the names to live in (up to 32
 * files; addresses in further files get NULL).  A look-up reads
 * /proc/self/maps and scans the file's symbol table: for report paths only. */
const char *wuc_symbolize(const void *addr);

/* The name of the static or global object holding data address `addr`
 * (STT_OBJECT symbols, `static` ones included), written into buf as "name",
 * or "name+OFFSET" for an address inside it (a member, an array element);
 * a C++ `static` variable at namespace scope (_ZL<length><name>) by its
 * plain name;
 * false if there is none (heap, stack, a stripped file).  For reports, but
 * not from a signal handler: a file not yet mapped is found with
 * dl_iterate_phdr (the dynamic linker's lock), and the name is formatted
 * with snprintf. */
bool wuc_symbolize_data(const void *addr, char *buf, size_t size);

/* Whether the code at `addr` belongs to the program as it was started — the
 * executable, or a shared library that it needs directly or through other
 * libraries, or one named in $LD_PRELOAD — rather than to a library dlopened
 * later (or one that only such a library needs).  For start-up code only
 * (it calls dl_iterate_phdr, which is not async-signal-safe). */
bool wuc_loaded_with_program(const void *addr);

#ifdef __cplusplus
}
#endif

#endif
