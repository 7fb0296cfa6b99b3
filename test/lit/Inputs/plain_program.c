/* A plain C program with no reference to wuc
 * (driver/runtime_not_linked_when_unused.wc). */
#include <stdio.h>

int main(void) {
  puts("plain");
  return 0;
}
