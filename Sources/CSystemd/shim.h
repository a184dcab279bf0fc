#ifndef HIVED_CSYSTEMD_SHIM_H
#define HIVED_CSYSTEMD_SHIM_H

// libsystemd for HiveKit. Everything HiveKit calls imports as is:
// sd_notify, sd_watchdog_enabled and sd_journal_sendv are plain functions, and so are the
// sd-bus calls hived makes to follow logind (HiveDaemon builds each message with
// sd_bus_message_append_basic and reads it with sd_bus_message_read_basic rather than
// the variadic sd_bus_call_method and sd_bus_message_read).
// No static inline wrapper is needed yet: HiveKit builds its notification text in Swift
// instead of calling the variadic sd_notifyf, writes journal entries with sd_journal_sendv
// instead of the variadic sd_journal_print/sd_journal_send, and adds the CODE_FILE,
// CODE_LINE and CODE_FUNC fields itself (the sd_journal_sendv macro that adds them does
// not import). A wrapper added here must name what it replaces.

#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#endif
