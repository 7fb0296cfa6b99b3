/* getop.c -- input: one operator or operand at a time. */
#include <stdio.h>
#include <ctype.h>
#include "calc.h"

#define BUFSIZE 100

static char buf[BUFSIZE];	/* buffer for ungetch */
static int bufp = 0;		/* next free position in buf */

int
getch()		/* get a (possibly pushed back) character */
{
	return (bufp > 0) ? buf[--bufp] : getchar();
}

void
ungetch(c)	/* push character back on input */
	int c;
{
	if (bufp >= BUFSIZE)
		printf("ungetch: too many characters\n");
	else
		buf[bufp++] = (char) c;
}

/* getop:  get next operator, numeric operand or name */
int
getop(s)
	char s[];
{
	register int i, c;

	while ((s[0] = (char) (c = getch())) == ' ' || c == '\t')
		;
	s[1] = '\0';
	if (isalpha(c)) {
		i = 0;
		while (isalpha(s[++i] = (char) (c = getch())))
			;
		s[i] = '\0';
		if (c != EOF)
			ungetch(c);
		return 'a';
	}
	if (!isdigit(c) && c != '.' && c != '-')
		return c;	/* not a number */
	i = 0;
	if (c == '-') {
		c = getch();
		if (!isdigit(c) && c != '.') {
			if (c != EOF)
				ungetch(c);
			return '-';
		}
		s[++i] = (char) c;
	}
	if (isdigit(c))	/* collect integer part */
		while (isdigit(s[++i] = (char) (c = getch())))
			;
	if (c == '.')	/* collect fraction part */
		while (isdigit(s[++i] = (char) (c = getch())))
			;
	s[i] = '\0';
	if (c != EOF)
		ungetch(c);
	return NUMBER;
}
