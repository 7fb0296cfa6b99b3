/* Plain C for driver/multiple_inputs.wc: calls into a .wc unit. */
#include <stdio.h>

int wait_and_return(int v);

int main(void) {
  printf("plain main got %d\n", wait_and_return(7));
  return 0;
}
