import CoreMetrics
import HiveKit
import Prometheus
import Synchronization

/// The daemon's metrics, recorded through swift-metrics (so whatever backend the
/// application bootstrapped receives them) and always into a Prometheus registry of
/// its own, which `GetMetrics` and `hived ctl metrics` print.
///
/// Nothing is recorded on the event path. Per module and event, the figures are the
/// hive's profiler's (kept anyway under the lock every call already takes) and reach
/// swift-metrics when they are read: ``flush(_:control:)`` turns what changed since the
/// last flush into metric updates. A scrape (`GetMetrics`) flushes, into both backends;
/// with a backend of the application's own, a ``MetricsFlusher`` also flushes when the
/// daemon is ready, every 10 seconds, and once more after the stop.
///
/// | metric | labels | what |
/// |---|---|---|
/// | `hive_handler_duration_seconds` (timer) | `module`, `event` | handler call durations |
/// | `hive_handler_failures_total` | `module`, `event` | calls that threw or were abandoned |
/// | `hive_handler_stalls_total` | `module`, `event` | calls seen running past their budget |
/// | `hive_events_total` | `event` | events delivered to the modules |
/// | `hive_reloads_total` | `result` (`applied`, `invalid`, `failed`, `skipped`) | configuration reloads |
/// | `hive_control_refused_total` | `reason` (`permission`, `clients`) | control connections refused |
/// | `hive_control_connections_total` | `result` (`served`) | control connections served |
/// | `hive_control_dropped_total` | `reason` (`protocol`, `slow_subscriber`) | control connections closed by hived |
final class HiveMetrics: Sendable {
    /// The process's metrics: created (and the backend bootstrapped) on first use, at
    /// the daemon's start.
    static let shared = HiveMetrics()

    /// The registry `hived ctl metrics` prints.
    let registry = PrometheusCollectorRegistry()
    /// Whether swift-prometheus over ``registry`` is the process's backend (no other
    /// was bootstrapped before the daemon started).
    let ownsBackend: Bool
    private let factory: any MetricsFactory
    private let state = Mutex(State())

    private struct HandlerKey: Hashable {
        let module: String
        let event: EventKind
    }

    private struct HandlerMetrics {
        let duration: CoreMetrics.Timer
        let failures: CoreMetrics.Counter
        let stalls: CoreMetrics.Counter
        var seen = HandlerStats()
    }

    private struct State {
        var handlers: [HandlerKey: HandlerMetrics] = [:]
        var events: [EventKind: (counter: CoreMetrics.Counter, seen: Int)] = [:]
        var counters: [String: (counter: CoreMetrics.Counter, seen: Int)] = [:]
    }

    private init() {
        let prometheus = PrometheusMetricsFactory(registry: registry)
        if MetricsSystem.factory is NOOPMetricsHandler {
            MetricsSystem.bootstrap(prometheus)
            ownsBackend = true
            factory = prometheus
        } else {
            ownsBackend = false
            factory = MultiplexMetricsHandler(factories: [MetricsSystem.factory, prometheus])
        }
    }

    /// The `result` label values of `hive_reloads_total`.
    static let reloadResults = ["applied", "invalid", "failed", "skipped"]

    /// Counts a reload by how it ended.
    func recordReload(_ outcome: ReloadOutcome) {
        let result = switch outcome {
        case .applied(let summary): summary.failures.isEmpty ? "applied" : "failed"
        case .invalid: "invalid"
        case .failed: "failed"
        case .skipped: "skipped"
        }
        let reloads = state.withLock { state -> CoreMetrics.Counter in
            self.counter(&state, "hive_reloads_total", ("result", result)).counter
        }
        reloads.increment()
    }

    /// Records what the profiler, the hive and the control socket counted since the last flush.
    func flush(_ hive: Hive, control: ControlStatistics?) {
        let profile = hive.profile
        let delivered = hive.deliveredEvents
        state.withLock { state in
            for module in profile.modules {
                for (event, stats) in module.events {
                    record(stats, for: HandlerKey(module: module.name, event: event), in: &state)
                }
            }
            for (event, count) in delivered {
                let entry = state.events[event]
                    ?? (CoreMetrics.Counter(label: "hive_events_total", dimensions: [("event", event.name)], factory: factory), 0)
                if count > entry.seen { entry.counter.increment(by: count - entry.seen) }
                state.events[event] = (entry.counter, count)
            }
            // Every result from the start, at 0: a rate or an alert on one needs the series.
            for result in Self.reloadResults { _ = counter(&state, "hive_reloads_total", ("result", result)) }
            if let control {
                add(control.denied.load(ordering: .relaxed), to: "hive_control_refused_total", ("reason", "permission"), in: &state)
                add(control.overLimit.load(ordering: .relaxed), to: "hive_control_refused_total", ("reason", "clients"), in: &state)
                add(control.noDescriptor.load(ordering: .relaxed), to: "hive_control_refused_total", ("reason", "descriptors"), in: &state)
                add(control.accepted.load(ordering: .relaxed), to: "hive_control_connections_total", ("result", "served"), in: &state)
                add(control.malformed.load(ordering: .relaxed), to: "hive_control_dropped_total", ("reason", "protocol"), in: &state)
                add(control.droppedSubscribers.load(ordering: .relaxed), to: "hive_control_dropped_total", ("reason", "slow_subscriber"), in: &state)
                add(control.idle.load(ordering: .relaxed), to: "hive_control_dropped_total", ("reason", "idle"), in: &state)
            }
        }
    }

    /// ``flush(_:control:)``, then the registry in the Prometheus text format.
    func prometheusText(_ hive: Hive, control: ControlStatistics?) -> String {
        flush(hive, control: control)
        return registry.emitToString()
    }

    /// Turns one (module, event)'s new calls into timer records and counter increments.
    /// The profiler keeps totals, not every duration: one new call is recorded exactly;
    /// of several, the latest exactly and the others at their mean (count and sum stay exact).
    private func record(_ stats: HandlerStats, for key: HandlerKey, in state: inout State) {
        var metrics = state.handlers[key] ?? HandlerMetrics(
            duration: CoreMetrics.Timer(label: "hive_handler_duration_seconds", dimensions: dimensions(key), factory: factory),
            failures: CoreMetrics.Counter(label: "hive_handler_failures_total", dimensions: dimensions(key), factory: factory),
            stalls: CoreMetrics.Counter(label: "hive_handler_stalls_total", dimensions: dimensions(key), factory: factory))
        // A module removed and added again by a reload starts from zero.
        let seen = stats.calls < metrics.seen.calls ? HandlerStats() : metrics.seen
        let calls = stats.calls - seen.calls
        if calls > 0 {
            let last = stats.last.nanoseconds
            metrics.duration.recordNanoseconds(last)
            if calls > 1 {
                let rest = max(stats.total.nanoseconds - seen.total.nanoseconds - last, 0) / Int64(calls - 1)
                for _ in 1..<calls { metrics.duration.recordNanoseconds(rest) }
            }
        }
        let failures = (stats.failures + stats.abandoned) - (seen.failures + seen.abandoned)
        if failures > 0 { metrics.failures.increment(by: failures) }
        if stats.stalls > seen.stalls { metrics.stalls.increment(by: stats.stalls - seen.stalls) }
        metrics.seen = stats
        state.handlers[key] = metrics
    }

    private func dimensions(_ key: HandlerKey) -> [(String, String)] {
        [("module", key.module), ("event", key.event.name)]
    }

    /// Brings a counter up to `total`, what the process counted so far.
    private func add(_ total: Int, to label: String, _ dimension: (String, String), in state: inout State) {
        let entry = counter(&state, label, dimension)
        if total > entry.seen { entry.counter.increment(by: total - entry.seen) }
        state.counters["\(label){\(dimension.1)}"] = (entry.counter, max(total, entry.seen))
    }

    private func counter(_ state: inout State, _ label: String, _ dimension: (String, String)) -> (counter: CoreMetrics.Counter, seen: Int) {
        let key = "\(label){\(dimension.1)}"
        if let entry = state.counters[key] { return entry }
        let entry = (CoreMetrics.Counter(label: label, dimensions: [dimension], factory: factory), 0)
        state.counters[key] = entry
        return entry
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to `Int64`.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : product + attoseconds / 1_000_000_000
    }
}
