import HiveKit
import Logging

/// What every HiveKit log line puts before its message to name the module and the event:
/// `[store] init: ` from the metadata keys `module` and `event` (each left out when unset).
///
/// One formatter for both handlers, so that a journal entry's `MESSAGE` reads as the
/// stderr line does (`[store] init: slow handler`): an operator reading `journalctl -u`
/// sees which module and which event without asking for the `HIVE_MODULE` and
/// `HIVE_EVENT` fields, which stay for filtering.
enum ModuleEventPrefix {
    /// `[module] event: `, `[module] `, `event: ` or nothing. Control characters in the
    /// module and event names are escaped (see ``DaemonLogHandler/escaped(_:)``), so
    /// neither can start a line of its own.
    static func prefix(_ metadata: Logger.Metadata) -> String {
        var prefix = ""
        if let module = metadata["module"] { prefix += "[" + DaemonLogHandler.escaped("\(module)") + "] " }
        if let event = metadata["event"] { prefix += DaemonLogHandler.escaped("\(event)") + ": " }
        return prefix
    }
}
