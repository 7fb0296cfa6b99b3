/* t.c - the small file most driver-flag cases compile. */
#include <stdio.h>
#include "t.h"

#ifdef GREETING
static const char greeting[] = GREETING;
#else
static const char greeting[] = "hello";
#endif

int twice(int x)
{
	return 2 * x;
}

int main(void)
{
	printf("%s, %d\n", greeting, twice(T_ANSWER / 2));
	return 0;
}
