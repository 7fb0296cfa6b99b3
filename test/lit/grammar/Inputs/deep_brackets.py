"""Writes a program in the dialect with N levels of parentheses, subscripts
and braces around its waituntil statement and in its body (for
grammar/deep_brackets.wc): python3 deep_brackets.py N."""
import sys

n = int(sys.argv[1])
parens = lambda v: '(' * n + v + ')' * n
subscripts = 'a[' * n + '0' + ']' * n
print(f'''#include <stdio.h>
#include <wuc.h>

static latch L;
static int a[2];

int main(void) {{
  int x = {parens('1')};
  int p = x, y = {subscripts};
  latch_set(&L);
  {'{' * n} x += {n + 2}; {'}' * n}
  printf("%d %d %d %d\\n", x, {n}, p, y);
  waituntil (L) {{
    int q = {parens('2')};
    {'{' * n} q += 0; {'}' * n}
    printf("body %d %d %d\\n", q, {subscripts} + 1, a[1]);
  }}
  return 0;
}}''')
