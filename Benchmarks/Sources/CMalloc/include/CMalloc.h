// glibc's malloc statistics (mallinfo2), which the Glibc Swift module does not import.
#pragma once
#include <malloc.h>
