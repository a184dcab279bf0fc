import CoreMetrics
import Logging
import Synchronization

/// A stand-in for an application's real backend (swift-otel, statsd…): it keeps a total per
/// counter and timer and logs each update it receives, with its running total, e.g.
/// `metric hive_events_total event=custom: 3 (+2)`.
struct LoggedMetrics: MetricsFactory {
    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        LoggedMetric(label, dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        LoggedMetric(label, dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        LoggedMetric(label, dimensions)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}

/// One metric: a counter's total, or a timer's (recorder's) count of values.
final class LoggedMetric: CounterHandler, RecorderHandler, TimerHandler {
    private let name: String
    private let total = Mutex<Int64>(0)
    // Made by the daemon's metrics after it set up logging: this logger writes where the
    // daemon's lines go.
    private let logger = Logger(label: "metrics")

    init(_ label: String, _ dimensions: [(String, String)]) {
        name = ([label] + dimensions.map { "\($0)=\($1)" }).joined(separator: " ")
    }

    func increment(by amount: Int64) {
        let total = total.withLock { $0 += amount; return $0 }
        logger.info("metric \(name): \(total) (+\(amount))")
    }

    func reset() {
        total.withLock { $0 = 0 }
    }

    func record(_ value: Int64) {
        recorded("\(value)")
    }

    func record(_ value: Double) {
        recorded("\(value)")
    }

    func recordNanoseconds(_ duration: Int64) {
        recorded("\(duration)ns")
    }

    private func recorded(_ value: String) {
        let count = total.withLock { $0 += 1; return $0 }
        logger.info("metric \(name): \(count) recorded, last \(value)")
    }
}
