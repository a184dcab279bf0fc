import HiveKit
import Logging

/// The process's own handler (the one it bootstrapped, or swift-log's default), made to follow ``HiveLogging/level`` (the
/// configuration's `log.level`) like HiveDaemon's own handlers, until a logger sets its
/// own level. Everything else goes to the wrapped handler.
struct SharedLevelLogHandler: ForwardingLogHandler {
    var base: any LogHandler
    private var ownLevel: Logger.Level?

    init(wrapping handler: any LogHandler) {
        base = handler
        // The wrapped handler writes whatever this one lets through.
        base.logLevel = .trace
    }

    var logLevel: Logger.Level {
        get { ownLevel ?? HiveLogging.level }
        set { ownLevel = newValue }
    }

    func log(event: LogEvent) {
        base.log(event: event)
    }
}
