#ifndef HIVED_CSYSTEMD_SHIM_H
#define HIVED_CSYSTEMD_SHIM_H

// libsystemd for HiveKit. Everything HiveKit calls imports as is:
// sd_notify, sd_watchdog_enabled and sd_journal_sendv are plain functions.
// No static inline wrapper is needed yet: HiveKit builds its notification text in Swift
// instead of calling the variadic sd_notifyf, writes journal entries with sd_journal_sendv
// instead of the variadic sd_journal_print/sd_journal_send, and adds the CODE_FILE,
// CODE_LINE and CODE_FUNC fields itself (the sd_journal_sendv macro that adds them does
// not import). A wrapper added here must name what it replaces.

#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#endif
