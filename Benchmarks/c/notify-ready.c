/*
 * The baseline hived's start, reload, stop and memory are measured against: the least
 * a C daemon under systemd does.
 *
 * Sends READY=1 at once, then waits for signals: SIGHUP answers RELOADING=1 with
 * MONOTONIC_USEC (one datagram) and then READY=1, as a Type=notify(-reload) service
 * must; SIGTERM or SIGINT exits 0.
 *
 * Build: cc -O2 -o notify-ready notify-ready.c $(pkg-config --cflags --libs libsystemd)
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <systemd/sd-daemon.h>

int main(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    /* Block before READY=1, so a signal that arrives right after it is not lost. */
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return 1;
    sd_notify(0, "READY=1");
    for (;;) {
        int signal = 0;
        if (sigwait(&set, &signal) != 0) return 1;
        if (signal != SIGHUP) return 0;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        char message[64];
        snprintf(message, sizeof message, "RELOADING=1\nMONOTONIC_USEC=%llu",
                 (unsigned long long)now.tv_sec * 1000000ULL + (unsigned long long)now.tv_nsec / 1000ULL);
        sd_notify(0, message);
        sd_notify(0, "READY=1");
    }
}
