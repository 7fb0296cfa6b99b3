/* main.c -- reverse Polish calculator */
#include <stdio.h>
#include <stdlib.h>
#include "calc.h"

int
main()
{
	int type;
	double op2, r;
	char s[MAXOP];
	long lines = 0;

	while ((type = getop(s)) != EOF) {
		switch (type) {
		case NUMBER:
			push(atof(s));
			break;
		case 'a':
			if (lookup(s, &r))
				push(r);
			else
				printf("error: unknown name %s\n", s);
			break;
		case '+': case '*': case '-': case '/': case '%':
			op2 = pop();
			push(apply(type, pop(), op2));
			break;
		case '\n':
			lines++;
			if (depth() > 0)
				printf("\t%.8g\n", pop());
			clear();
			break;
		default:
			printf("error: unknown command %s\n", s);
			break;
		}
	}
	printf("%ld lines\n", lines);
	return 0;
}
