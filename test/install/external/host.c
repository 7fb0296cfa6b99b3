/* A plain C program over the shared wuc library, knowing nothing of wuc. */
#include <stdio.h>

#include "squares.h"

int main(void) {
  printf("host: squares 1..10 = %ld\n", external_squares(10));
  return 0;
}
