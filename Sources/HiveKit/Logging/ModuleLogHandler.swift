import Logging

/// A module's log handler: the hive's own handler, with the module's name in its metadata
/// and, on each line, the event the hive is delivering when the line is logged (`event`
/// metadata), not the one during which the logger was handed out. A line logged between
/// events carries no `event`; one that names its own `event` keeps it.
struct ModuleLogHandler: ForwardingLogHandler {
    var base: any LogHandler
    private let currentEvent: CurrentEvent

    /// Wraps `base` for the module `name` of the hive whose event is `currentEvent`.
    init(_ base: any LogHandler, module name: String, currentEvent: CurrentEvent) {
        self.base = base
        self.base[metadataKey: "module"] = .string(name)
        self.currentEvent = currentEvent
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    func log(event: LogEvent) {
        guard event.metadata?["event"] == nil, base[metadataKey: "event"] == nil, let kind = currentEvent.kind else {
            base.log(event: event)
            return
        }
        var event = event
        var metadata = event.metadata ?? [:]
        metadata["event"] = .string(kind.name)
        event.metadata = metadata
        base.log(event: event)
    }
}
