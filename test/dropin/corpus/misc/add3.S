/* add3.S - assembler with the C preprocessor, as libraries keep their fast paths. */
#define FUNCTION(name) .globl name; .type name, @function; name:
#define END(name) .size name, .-name

	.text
#if defined(__x86_64__)
FUNCTION(add3)
	leal	(%rdi,%rsi), %eax
	addl	%edx, %eax
	ret
END(add3)
#endif
	.section .note.GNU-stack,"",@progbits
