// Empty: a C target needs one source file; everything is in include/CMalloc.h.
#include "CMalloc.h"
