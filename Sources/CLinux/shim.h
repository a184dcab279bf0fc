#ifndef HIVED_CLINUX_SHIM_H
#define HIVED_CLINUX_SHIM_H

// glibc declarations Swift's Glibc module leaves out, for HiveDaemon: statfs/fstatfs (is
// a memory pressure path cgroup2 or procfs?), malloc_trim (return freed heap to the kernel
// after a memoryWarning or a reload) and eventfd (the one descriptor that wakes a thread
// out of poll). Plain functions: no wrapper is needed. Header only, like CSystemd: a .c
// file in a system-library target is never compiled.

#include <malloc.h>
#include <sys/eventfd.h>
#include <sys/statfs.h>

#endif
