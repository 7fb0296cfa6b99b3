/* rsp.c - compiled and linked through response files (@file). */
#include <math.h>
#include <stdio.h>

int main(void)
{
	volatile double x = 2.0;
	printf("sqrt(2) = %.6f, RSP_MODE = %d\n", sqrt(x), RSP_MODE);
	return 0;
}
