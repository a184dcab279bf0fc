#ifndef HIVED_CLINUX_SHIM_H
#define HIVED_CLINUX_SHIM_H

// glibc declarations Swift's Glibc module leaves out, for HiveDaemon: statfs/fstatfs (is
// a memory pressure path cgroup2 or procfs?), malloc_trim (return freed heap to the kernel
// after a memoryWarning or a reload), eventfd (the one descriptor that wakes a thread out
// of poll), prctl (thread names), gettid and sched_setattr (the stop guard's priority). Plain
// functions need no wrapper; the ones below wrap variadic functions. Header only, like
// CSystemd: a .c file in a system-library target is never compiled.

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

// Replaces prctl(PR_SET_NAME, name), which is variadic: names the calling thread (at most
// 15 bytes are kept) without opening /proc/thread-self/comm, so it works where /proc is
// not mounted and never holds a descriptor, even for a moment.
static inline int hive_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

// The calling thread's id (gettid, which glibc declares only for _GNU_SOURCE).
static inline pid_t hive_thread_id(void) {
    return (pid_t)syscall(SYS_gettid);
}

// Raises thread `tid` (0: the calling thread) so that it runs as soon as it wakes, however
// many threads want a CPU, as far as the process may: real time (SCHED_FIFO at `priority`)
// where it may (root, CAP_SYS_NICE, RLIMIT_RTPRIO); else a fair thread at its nice value
// with the shortest slice the scheduler allows (sched_setattr's sched_runtime, 0.1 ms:
// from Linux 6.12 EEVDF lets a thread with a shorter slice preempt at wake-up; older
// kernels ignore it), which needs no privilege. Returns 2 (real time), 1 (short slice) or
// 0 (neither allowed: a system-call filter without @resources, RestrictRealtime=).
static inline int hive_raise_thread(pid_t tid, int priority) {
    struct sched_param parameters = { .sched_priority = priority };
    if (sched_setscheduler(tid, SCHED_FIFO, &parameters) == 0) return 2;
    struct {
        uint32_t size, policy;
        uint64_t flags;
        int32_t nice;
        uint32_t priority;
        uint64_t runtime, deadline, period;
    } attributes = { .size = sizeof attributes, .policy = SCHED_OTHER, .runtime = 100000 };
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, (id_t)tid);
    if (errno != 0) return 0;
    attributes.nice = nice;
    return syscall(SYS_sched_setattr, tid, &attributes, 0) == 0 ? 1 : 0;
}

#endif
