/* f.h - given with -include or -imacros: macros only. */
#define GREETING "hello from f.h"
#define F_H_SEEN 1
