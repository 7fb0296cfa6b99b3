/* stack.c -- the value stack, K&R style definitions. */
#include <stdio.h>
#include "calc.h"

int sp = 0;		/* next free stack position */
double val[MAXVAL];	/* value stack */

/* push:  push f onto value stack */
void
push(f)
	double f;
{
	if (sp < MAXVAL)
		val[sp++] = f;
	else
		printf("error: stack full, can't push %g\n", f);
}

/* pop:  pop and return top value from stack */
double
pop()
{
	if (sp > 0)
		return val[--sp];
	else {
		printf("error: stack empty\n");
		return 0.0;
	}
}

int
depth()
{
	return sp;
}

void
clear()
{
	sp = 0;
}
