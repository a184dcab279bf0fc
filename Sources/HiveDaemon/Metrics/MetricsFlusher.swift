import HiveKit

/// Feeds an application's own swift-metrics backend from the daemon's figures
/// (``HiveMetrics/flush(_:control:)``): once when it starts (the daemon is ready, and the
/// start-up's hooks are counted), every ``interval`` after that, and once more at
/// ``finish()``, when the daemon has stopped and before it exits. The process's
/// ``DeadlineTimer`` times the flushes; each runs on a task of its own, never on the event
/// path or the timer's queue.
final class MetricsFlusher: Sendable {
    /// Between two flushes while the daemon runs.
    static let interval = Duration.seconds(10)

    private let metrics: HiveMetrics
    private let hive: Hive
    private let control: ControlStatistics?
    private let timer: UInt64

    /// Starts flushing `hive`'s figures (and the control socket's) into `metrics`.
    init(_ metrics: HiveMetrics, hive: Hive, control: ControlStatistics?) {
        self.metrics = metrics
        self.hive = hive
        self.control = control
        timer = DeadlineTimer.shared.run(every: Self.interval, after: .zero) {
            Task { metrics.flush(hive, control: control) }
        }
    }

    /// Stops the periodic flushes and flushes once more, on the calling thread: what the
    /// stop delivered (`terminate`, `teardown`) reaches the backend before the process exits.
    func finish() {
        DeadlineTimer.shared.cancel(timer)
        metrics.flush(hive, control: control)
    }
}

extension HiveMetrics {
    /// A ``MetricsFlusher`` when the application bootstrapped a backend of its own; `nil`
    /// when hived's Prometheus registry is the backend, which a scrape flushes.
    func startFlushing(_ hive: Hive, control: ControlStatistics?) -> MetricsFlusher? {
        ownsBackend ? nil : MetricsFlusher(self, hive: hive, control: control)
    }
}
