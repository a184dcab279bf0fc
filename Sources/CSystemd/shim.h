#ifndef HIVED_CSYSTEMD_SHIM_H
#define HIVED_CSYSTEMD_SHIM_H

// libsystemd for HiveKit. Everything HiveKit calls imports as is:
// sd_notify, sd_pid_notify_with_fds, sd_listen_fds_with_names, sd_watchdog_enabled,
// sd_journal_sendv and sd_pid_get_user_unit are plain functions, and so are the sd-bus
// calls hived makes to follow logind and to read its unit's FileDescriptorStoreMax
// (HiveDaemon builds each message with sd_bus_message_append_basic, reads it with
// sd_bus_message_read_basic, and reads single properties with sd_bus_get_property_trivial
// and sd_bus_get_property_string, rather than the variadic sd_bus_call_method,
// sd_bus_message_read and sd_bus_get_property).
// No static inline wrapper is needed yet: HiveKit builds its notification text in Swift
// instead of calling the variadic sd_notifyf, writes journal entries with sd_journal_sendv
// instead of the variadic sd_journal_print/sd_journal_send, and adds the CODE_FILE,
// CODE_LINE and CODE_FUNC fields itself (the sd_journal_sendv macro that adds them does
// not import). A wrapper added here must name what it replaces.

#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-login.h>

#endif
