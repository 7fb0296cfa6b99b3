/* The shared library's interface, called by a plain C host. */
#ifndef SQUARES_H
#define SQUARES_H
long external_squares(int n);
#endif
