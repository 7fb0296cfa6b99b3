/* prose.c - prose in a skipped block, as old code bases have it.  gcc warns
 * about the lone apostrophes (it still scans skipped lines for tokens) but
 * compiles the file. */
#include <stdio.h>

#if 0
This function used to do the rounding itself; it doesn't any more, because
printf's rounding is what everybody's expecting.  Don't put it back.
It's also why there's no "round.h".
#endif

#ifdef NEVER_DEFINED
the old version's notes: we weren't sure it'd work on the VAX
#endif

int main(void)
{
	printf("%.2f\n", 2.675);
	return 0;
}
