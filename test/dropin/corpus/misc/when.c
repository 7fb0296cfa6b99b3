/* when.c - ordinary C that uses `when` as a function and a member name and
 * `or`/`and`/`timeout`/`closed` as variables; nothing here is the dialect. */
#include <stdio.h>

struct alarm {
	long when;
	int closed;
};

static int when(int t)
{
	printf("when(%d)\n", t);
	return t + 1;
}

int main(void)
{
	struct alarm a = { .when = 5, .closed = 0 };
	int or = 1, and = 2, timeout = 3;

	when (a.when);
	when(or + and);
	a.when = when(timeout);
	return (int)a.when - 4;
}
