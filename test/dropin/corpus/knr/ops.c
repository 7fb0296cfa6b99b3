/* ops.c -- arithmetic and the named functions. */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "calc.h"

struct func {
	char *name;
	int arity;
	double (*fn)();
};

static double
fhalf(x)
	double x;
{
	return x / 2.0;
}

static double
fswap(x, y)
	double x, y;
{
	push(y);
	return x;
}

static double
fdup(x)
	double x;
{
	push(x);
	return x;
}

static struct func funcs[] = {
	{ "sqrt", 1, sqrt },
	{ "half", 1, fhalf },
	{ "dup", 1, fdup },
	{ "swap", 2, fswap },
	{ "pow", 2, pow },
	{ 0, 0, 0 }
};

/* apply:  binary operator op to a and b */
double
apply(op, a, b)
	int op;
	double a, b;
{
	switch (op) {
	case '+':
		return a + b;
	case '*':
		return a * b;
	case '-':
		return a - b;
	case '/':
		if (b == 0.0) {
			printf("error: zero divisor\n");
			return 0.0;
		}
		return a / b;
	case '%':
		if (b == 0.0) {
			printf("error: zero divisor\n");
			return 0.0;
		}
		return fmod(a, b);
	default:
		printf("error: unknown operator %c\n", op);
		return 0.0;
	}
}

/* lookup:  run the named function on the stack; 0 if there is none */
int
lookup(name, result)
	char *name;
	double *result;
{
	register struct func *f;
	double x, y;

	for (f = funcs; f->name != 0; f++) {
		if (strcmp(f->name, name) != 0)
			continue;
		if (depth() < f->arity) {
			printf("error: %s needs %d operands\n", name, f->arity);
			clear();
			*result = 0.0;
			return 1;
		}
		if (f->arity == 1) {
			x = pop();
			*result = (*f->fn)(x);
		} else {
			y = pop();
			x = pop();
			*result = (*f->fn)(x, y);
		}
		return 1;
	}
	return 0;
}
