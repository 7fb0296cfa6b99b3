/* gdb_scripts.S — the gdb extension (gdb/wuc_gdb.py) inlined into every
 * program linked with libwuc, so that gdb loads it by itself: a
 * .debug_gdb_scripts entry of kind 4 (a Python script's text, gdb's manual,
 * "The .debug_gdb_scripts section") is the byte 4, a first line naming the
 * script, the script, and a NUL.  The inline form needs no path, so it works
 * from the build tree, an installed prefix and a moved one alike, and on a
 * core file (gdb reads the section from the program).  The section is not
 * loaded at run time.  gdb runs it only if the program's file is under its
 * `auto-load safe-path` (docs/debugging.md, "Debugging with gdb").
 *
 * scheduler.c refers to wuc_gdb_scripts_anchor, so that a static link pulls
 * this object out of libwuc.a. */
        .section .debug_gdb_scripts, "MS", @progbits, 1
        .byte   4
        .ascii  "wuc_gdb.py\n"
        .incbin WUC_GDB_SCRIPT
        .byte   0

        .section .rodata
        .globl  wuc_gdb_scripts_anchor
        .hidden wuc_gdb_scripts_anchor
        .type   wuc_gdb_scripts_anchor, @object
        .size   wuc_gdb_scripts_anchor, 1
wuc_gdb_scripts_anchor:
        .byte   0

        .section .note.GNU-stack,"",@progbits
