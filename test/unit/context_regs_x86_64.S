/* context_regs_x86_64.S — register-exact helpers for context_test.cc.
 *
 * struct regtest_state (context_test.cc must match):
 *   +0 rbx  +8 rbp  +16 r12  +24 r13  +32 r14  +40 r15  +48 mxcsr (4)  +52 x87 cw (2)
 */
        .text

/* void regtest_switch(wuc_context *from, wuc_context *to,
 *                     const struct regtest_state *load, struct regtest_state *after)
 *
 * Loads every callee-saved register and both FP control words from *load,
 * calls wuc_context_switch(from, to), and when some context switches back
 * stores what those registers hold into *after.  The caller's own registers
 * and control words are saved around all this, so the helper itself obeys
 * the ABI. */
        .globl  regtest_switch
        .type   regtest_switch, @function
        .p2align 4
regtest_switch:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        subq    $24, %rsp               /* 0: after; 8: caller's mxcsr; 12: caller's cw */
        movq    %rcx, (%rsp)            /* rsp is 16-byte aligned from here on */
        stmxcsr 8(%rsp)
        fnstcw  12(%rsp)
        movq    0(%rdx), %rbx
        movq    8(%rdx), %rbp
        movq    16(%rdx), %r12
        movq    24(%rdx), %r13
        movq    32(%rdx), %r14
        movq    40(%rdx), %r15
        ldmxcsr 48(%rdx)
        fldcw   52(%rdx)
        call    wuc_context_switch@PLT  /* rdi, rsi: from, to, untouched */
        movq    (%rsp), %rax
        movq    %rbx, 0(%rax)
        movq    %rbp, 8(%rax)
        movq    %r12, 16(%rax)
        movq    %r13, 24(%rax)
        movq    %r14, 32(%rax)
        movq    %r15, 40(%rax)
        stmxcsr 48(%rax)
        fnstcw  52(%rax)
        ldmxcsr 8(%rsp)
        fldcw   12(%rsp)
        addq    $24, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   regtest_switch, .-regtest_switch

/* void regtest_record_entry(void *arg)
 *
 * A context entry function: records the stack pointer it was entered with in
 * regtest_entry_rsp, then tail-jumps to regtest_entry_body(arg). */
        .globl  regtest_record_entry
        .type   regtest_record_entry, @function
        .p2align 4
regtest_record_entry:
        movq    %rsp, regtest_entry_rsp(%rip)
        jmp     regtest_entry_body@PLT
        .size   regtest_record_entry, .-regtest_record_entry

        .bss
        .globl  regtest_entry_rsp
        .p2align 3
regtest_entry_rsp:
        .zero   8

        .section .note.GNU-stack,"",@progbits
