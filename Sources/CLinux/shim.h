#ifndef HIVED_CLINUX_SHIM_H
#define HIVED_CLINUX_SHIM_H

// glibc declarations Swift's Glibc module leaves out, for HiveDaemon: statfs/fstatfs (is
// a memory pressure path cgroup2 or procfs?), malloc_trim (return freed heap to the kernel
// after a memoryWarning or a reload), eventfd (the one descriptor that wakes a thread out
// of poll) and prctl (thread names). Plain functions need no wrapper; the one below wraps
// a variadic function. Header only, like CSystemd: a .c file in a system-library target is
// never compiled.

#include <malloc.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/statfs.h>

// Replaces prctl(PR_SET_NAME, name), which is variadic: names the calling thread (at most
// 15 bytes are kept) without opening /proc/thread-self/comm, so it works where /proc is
// not mounted and never holds a descriptor, even for a moment.
static inline int hive_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

#endif
