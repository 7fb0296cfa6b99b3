#ifndef KINDS_H
#define KINDS_H
#include "more.h"
enum kind { SMALL, BIG };
#endif
