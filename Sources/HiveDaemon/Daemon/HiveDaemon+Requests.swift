import HiveKit
#if canImport(Glibc)
import Glibc
#endif

extension HiveDaemon {
    /// Queues `request` for the event loop; never blocks, safe from any thread. A stop
    /// starts the stop budget at once and drops the requests still waiting (logged here,
    /// with how many of each; a control call dropped so is answered "the daemon is
    /// stopping").
    func post(_ request: DaemonRequest) {
        if case .stop = request { armStopDeadline() }
        guard case .stopping(let dropped) = inbox.post(request), !dropped.isEmpty else { return }
        for case .control(let call) in dropped { call.complete(Self.stoppingReply(to: call)) }
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
        case SIGHUP: .reload
        case SIGTSTP: .suspend
        case SIGCONT: .resume
        default: signals[signal].map { .event($0, signal: signal) }
        }
    }

    /// The reply to a control call dropped by a stop.
    static func stoppingReply(to call: ControlRequest) -> [UInt8] {
        switch call.action {
        case .reload: VarlinkError.reloadFailed(module: "", event: "reload", message: "the daemon is stopping").encoded
        case .send(let event): VarlinkError.eventRefused(event: "\(event)", message: "the daemon is stopping").encoded
        }
    }
}
