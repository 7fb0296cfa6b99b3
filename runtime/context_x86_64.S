/* context_x86_64.S — the user-thread context switch for x86-64 SysV.
 *
 * Saved frame, from the saved stack pointer upwards (must match
 * wuc_context_init in context.c):
 *
 *   +0   MXCSR (4 bytes)    +4 x87 control word (2 bytes, 2 unused)
 *   +8   r15   +16 r14   +24 r13   +32 r12   +40 rbx   +48 rbp
 *   +56  return address
 */
#include "sanitizer.h"

/* Under a sanitizer, wuc_context_switch is context.c's annotated wrapper
 * around this code; in a plain build it is this code. */
#ifdef WUC_FIBER_ANNOTATIONS
#define SWITCH wuc_context_swap
#else
#define SWITCH wuc_context_switch
#endif

        .text

/* void SWITCH(wuc_context *from, wuc_context *to) */
        .globl  SWITCH
        .type   SWITCH, @function
        .p2align 4
SWITCH:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        subq    $8, %rsp
        .cfi_adjust_cfa_offset 8
        stmxcsr (%rsp)
        fnstcw  4(%rsp)
        movl    (%rsp), %eax            /* this thread's MXCSR and x87 control */
        movzwl  4(%rsp), %ecx           /* word, to compare with the next's    */
        movq    %rsp, (%rdi)            /* from->sp */
        movq    (%rsi), %rsp            /* to->sp   */
        /* Loading either register costs more than the rest of the switch
         * (ldmxcsr and fldcw stall the pipeline): load only one that
         * differs, which for threads that share the default settings (or
         * have set the same sticky flags) is never. */
        cmpl    (%rsp), %eax
        jne     .Lload_mxcsr
.Lmxcsr_done:
        cmpw    4(%rsp), %cx
        jne     .Lload_x87_control
.Lcontrol_done:
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        popq    %r15
        .cfi_adjust_cfa_offset -8
        popq    %r14
        .cfi_adjust_cfa_offset -8
        popq    %r13
        .cfi_adjust_cfa_offset -8
        popq    %r12
        .cfi_adjust_cfa_offset -8
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_adjust_cfa_offset 56
.Lload_mxcsr:
        ldmxcsr (%rsp)
        jmp     .Lmxcsr_done
.Lload_x87_control:
        fldcw   4(%rsp)
        jmp     .Lcontrol_done
        .cfi_endproc
        .size   SWITCH, .-SWITCH

/* First code of every new context: wuc_context_init leaves the entry function
 * in r12 and its argument in r13.  The stack is 16-byte aligned here.  rip is
 * marked undefined so debuggers and unwinders stop at this frame. */
        .globl  wuc_context_entry
        .type   wuc_context_entry, @function
        .p2align 4
wuc_context_entry:
        .cfi_startproc
        .cfi_undefined rip
        xorl    %ebp, %ebp
        movq    %r13, %rdi
        callq   *%r12
        ud2                             /* entry functions never return */
        .cfi_endproc
        .size   wuc_context_entry, .-wuc_context_entry

        .section .note.GNU-stack,"",@progbits
