import HiveKit
#if canImport(Glibc)
import Glibc
#endif

extension HiveDaemon {
    /// Queues `request` for the event loop; never blocks, safe from any thread. A stop
    /// starts the stop budget at once and drops the requests still waiting (logged here,
    /// with how many of each); the control calls among them are answered "the daemon is
    /// stopping" at once. Control calls are logged (debug) as queued or joining.
    @discardableResult
    func post(_ request: DaemonRequest) -> DaemonInbox.Posted {
        if case .stop = request { armStopDeadline() }
        let posted = inbox.post(request)
        switch posted {
        case .stopping(let dropped) where !dropped.isEmpty:
            for waiting in dropped {
                for call in Self.callers(of: waiting) { call.complete(call.action.refused(Self.stoppingRefusal).encoded) }
            }
            var counts: [(name: String, count: Int)] = []
            for name in dropped.map(\.name) {
                if let index = counts.firstIndex(where: { $0.name == name }) {
                    counts[index].count += 1
                } else {
                    counts.append((name, 1))
                }
            }
            let summary = counts.map { $0.count == 1 ? $0.name : "\($0.name) ×\($0.count)" }.joined(separator: ", ")
            logger.info("stopping: dropped \(dropped.count) queued request\(dropped.count == 1 ? "" : "s") that had not started (\(summary))")
        case .queued where !Self.callers(of: request).isEmpty:
            logger.debug("\(request.name) queued")
        case .coalesced where !Self.callers(of: request).isEmpty:
            logger.debug("\(request.name) joins the reload already waiting")
        default:
            break
        }
        return posted
    }

    /// The control calls waiting for `request`'s answer.
    static func callers(of request: DaemonRequest) -> [ControlRequest] {
        switch request {
        case .reload(let callers): callers
        case .control(let call): [call]
        default: []
        }
    }

    /// Turns a signal into a request for the event loop; runs on the signal thread. Until
    /// the configuration was read, only a stop acts at once; other signals wait for the
    /// signal map.
    func receive(_ signal: Int32) {
        let (signals, logger, configured) = current.withLock { current in
            if !current.isConfigured, signal != SIGTERM, signal != SIGINT, current.early.count < 64 {
                current.early.append(signal)
            }
            return (current.signals, current.logger, current.isConfigured)
        }
        guard configured || signal == SIGTERM || signal == SIGINT else { return }
        if let request = Self.request(for: signal, signals: signals) {
            post(request)
        } else {
            logger.debug("ignored \(SignalName.name(of: signal)): not mapped to an event")
        }
    }

    /// The request a signal stands for.
    static func request(for signal: Int32, signals: [Int32: HiveEvent]) -> DaemonRequest? {
        switch signal {
        case SIGTERM, SIGINT: .stop(signal: signal)
        case SIGHUP: .signalledReload
        case SIGTSTP: .suspend
        case SIGCONT: .resume
        default: signals[signal].map { .event($0, signal: signal) }
        }
    }

    /// Why a control call a stop dropped, or that came after it, is refused.
    static let stoppingRefusal = "the daemon is stopping"
}
