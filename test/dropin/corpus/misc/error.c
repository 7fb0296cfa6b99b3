/* error.c - plain C with mistakes: the diagnostics must be the back end's. */
#include <stdio.h>

struct point {
	int x, y;
};

int main(void)
{
	struct point p = { 1, 2 };

	printf("%d\n", p.z);
	return undeclared_total + p.x;
}
