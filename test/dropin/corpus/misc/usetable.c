#include <stdio.h>

extern const int table[4];

int main(void)
{
	printf("%d\n", table[0] * table[1] * table[2] * table[3]);
	return 0;
}
