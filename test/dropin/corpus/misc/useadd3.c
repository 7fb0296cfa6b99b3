/* useadd3.c - calls add3 from add3.S. */
#include <stdio.h>

int add3(int a, int b, int c);

int main(void)
{
	printf("add3(1, 2, 39) = %d\n", add3(1, 2, 39));
	return 0;
}
