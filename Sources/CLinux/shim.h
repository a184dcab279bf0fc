#ifndef HIVED_CLINUX_SHIM_H
#define HIVED_CLINUX_SHIM_H

// glibc declarations Swift's Glibc module leaves out, for HiveDaemon's memory pressure
// watch: statfs/fstatfs (is a path cgroup2 or procfs?) and malloc_trim (return freed heap
// to the kernel after a memoryWarning). Plain functions: no wrapper is needed. Header
// only, like CSystemd: a .c file in a system-library target is never compiled.

#include <malloc.h>
#include <sys/statfs.h>

#endif
