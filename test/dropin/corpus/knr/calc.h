/* calc.h -- reverse Polish calculator, written the old way. */
#ifndef CALC_H
#define CALC_H

#define MAXOP	100	/* max size of operand or operator */
#define NUMBER	'0'	/* signal that a number was found */
#define MAXVAL	100	/* maximum depth of val stack */

#ifdef __STDC__
#define P(args) args
#else
#define P(args) ()
#endif

extern int sp;
extern double val[];

void push P((double));
double pop P((void));
int depth P((void));
void clear P((void));

int getop P((char *));
int getch P((void));
void ungetch P((int));

double apply P((int, double, double));
int lookup P((char *, double *));

#endif
