/* sizes.c - prints what CMake found out about the compiler. */
#include <stdio.h>

#include "config.h"

int main(void)
{
#ifdef HAVE_SYS_EPOLL_H
	puts("sys/epoll.h: yes");
#endif
#ifdef HAVE_NO_SUCH_HEADER_H
	puts("no/such/header.h: yes (wrong)");
#endif
#ifdef HAVE_STRCASESTR_DEFAULT
	puts("strcasestr without _GNU_SOURCE: yes (wrong)");
#endif
#ifdef HAVE_STRCASESTR_GNU
	puts("strcasestr with _GNU_SOURCE: yes");
#endif
#ifdef HAVE_PLAIN_NAMES
	puts("bool typedef and channel(): yes");
#endif
	printf("sizeof(off_t): %d\n", SIZEOF_OFF_T);
	return 0;
}
