import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's lifecycle: the one phase it is in, the requests waiting for its event loop,
/// and the one place that decides what every input does. Every source (signals, the control
/// socket, logind, memory pressure, a module's stop request, the stop guard) enters through
/// ``accept(_:)`` (``accept(signal:mappedBy:)`` for a raw signal); the event loop moves the
/// phase on with ``configured(mappingSignalsBy:)``, ``startFailed()``, ``startEnded()``,
/// ``next()`` and ``reloadEnded()``.
///
/// What an input does in each phase (a phase's data is in its case):
///
/// | phase | stop (`SIGTERM`, `SIGINT`, a module, the group) | reload (`SIGHUP`, `Reload`) | `SIGTSTP`/`SIGCONT`, sleep | event (mapped signal, `SendEvent`, pressure) |
/// |---|---|---|---|---|
/// | configuring | stopping: nothing starts, exit once the file was read | a signal waits, unmapped (64 at most) | the same | the same |
/// | starting | stopping: `STOPPING=1`, the stop follows start-up, never `READY=1` | waits in the queue | waits | waits |
/// | running (suspension reasons) | stopping: `STOPPING=1`; what waits is dropped, its callers answered | reloading (joins a reload waiting) | delivered in turn (replaces the one waiting; sleep never merges) | delivered in turn (merges with the same one waiting) |
/// | reloading (suspension reasons) | stopping: `STOPPING=1` held until the reload's `READY=1` | joins the next reload, waiting | after the reload | after the reload |
/// | rolling back (a failed start) | nothing: exit 70 within `budgets.stop` | refused | refused | refused |
/// | stopping (signal, failure, stage) | nothing new; the budget runs from the first | refused: "the daemon is stopping" | refused | refused |
/// | stopped | nothing | refused | refused | refused |
///
/// A value: the daemon keeps it under its lock and performs what each transition returns
/// (notifications, the stop guard, answers) outside it.
struct DaemonLifecycle {
    /// Where the daemon is.
    enum Phase: Equatable {
        /// Reading the configuration for the first time. Signals other than a stop wait
        /// here, unmapped: the file says what they mean.
        case configuring(early: [Int32])
        /// `setup` and `init` run; requests wait in the queue until `READY=1`.
        case starting
        /// Ready: the event loop handles requests one at a time. The set says who holds
        /// the modules in the background.
        case running(Suspension)
        /// A reload runs (`RELOADING=1` sent, `READY=1` not yet).
        case reloading(Suspension)
        /// `setup` or `init` failed: the modules set up are torn down, within
        /// `budgets.stop`; the daemon exits 70.
        case rollingBack
        /// A stop was asked for: `terminate`, `teardown`, exit.
        case stopping(Stop)
        /// ``HiveDaemon/run()`` returned.
        case stopped
    }

    /// Who holds the modules in the background: `SIGTSTP` (until `SIGCONT`), the system's
    /// sleep (`PrepareForSleep(true)` until `false`), or both.
    struct Suspension: OptionSet, Equatable {
        let rawValue: UInt8
        static let signal = Suspension(rawValue: 1)
        static let sleep = Suspension(rawValue: 2)
    }

    /// A stop under way.
    struct Stop: Equatable {
        /// The signal that asked for it; `nil` when a module, a service group or a
        /// cancelled task did.
        let signal: Int32?
        /// What a module said when it asked for the stop on a failure; the daemon then
        /// exits ``DaemonExitCode/serviceUnavailable`` after a clean stop.
        var failure: String?
        /// What the stop waits for before `terminate`.
        var stage: Stage

        /// What a stop waits for.
        enum Stage: Equatable {
            /// The configuration to be read: then the daemon exits without starting.
            case afterConfiguration
            /// `setup` and `init` to end: then it stops without `READY=1`.
            case afterStartUp
            /// The event loop to be free (the event being delivered to end).
            case afterEvent
            /// The reload under way to end: `STOPPING=1` waits for its `READY=1`.
            case afterReload
            /// `terminate` and `teardown` run.
            case terminating
        }
    }

    /// What asks for a stop.
    enum StopCause: Equatable {
        /// `SIGTERM` or `SIGINT`.
        case signal(Int32)
        /// A module (through ``/HiveKit/HiveHost``), a service group's graceful shutdown, a
        /// cancelled task; `failure` makes the exit status 69.
        case request(failure: String?)
    }

    /// What a source asks for.
    enum Input: Equatable {
        case request(DaemonRequest)
        case stop(StopCause)
    }

    /// What ``accept(_:)`` decided.
    enum Verdict: Equatable {
        /// Queued for the event loop, or merged into a request waiting.
        case accepted(RequestQueue.Added)
        /// A signal kept until the configuration says what it means.
        case kept
        /// A signal that means nothing here.
        case ignored
        /// Refused, saying why; its callers are owed that answer.
        case refused(String)
        /// The stop begins: arm the stop guard, tell systemd (unless the stage is
        /// ``Stop/Stage/afterReload``), answer the callers of what was dropped.
        case stopBegins(Stop.Stage, dropped: [DaemonRequest])
        /// A stop was under way already (a failure it brings is recorded).
        case stopping
    }

    /// What the event loop does next.
    enum Work: Equatable {
        /// Handle this request.
        case request(DaemonRequest)
        /// Stop: `terminate`, `teardown`; the stop as it was asked for (its stage says what
        /// it waited for).
        case stop(Stop)
    }

    /// Why a request is refused once a stop (or a failed start) began.
    static let stoppingRefusal = "the daemon is stopping"
    /// The most signals kept while the configuration is read.
    static let earlyCapacity = 64

    private(set) var phase: Phase = .configuring(early: [])
    private(set) var queue = RequestQueue()

    // MARK: - Inputs, from any thread

    /// A signal: kept while configuring (a stop acts at once), else turned into its input
    /// through `signals` (the file's `signals:` map) and accepted.
    mutating func accept(signal: Int32, mappedBy signals: [Int32: HiveEvent]) -> Verdict {
        if case .configuring(var early) = phase, signal != SIGTERM, signal != SIGINT {
            guard early.count < Self.earlyCapacity else { return .ignored }
            early.append(signal)
            phase = .configuring(early: early)
            return .kept
        }
        guard let input = Self.input(for: signal, mappedBy: signals) else { return .ignored }
        return accept(input)
    }

    /// A request or a stop, as the table above says.
    mutating func accept(_ input: Input) -> Verdict {
        switch (input, phase) {
        case (.request(let request), .configuring), (.request(let request), .starting),
            (.request(let request), .running), (.request(let request), .reloading):
            let added = queue.add(request)
            if added == .overflowed {
                return .refused("the daemon's queue is full (\(RequestQueue.capacity) requests waiting); try again")
            }
            return .accepted(added)
        case (.request, .rollingBack), (.request, .stopping), (.request, .stopped):
            return .refused(Self.stoppingRefusal)
        case (.stop(let cause), .stopping(var stop)):
            if case .request(let failure?) = cause, stop.failure == nil {
                stop.failure = failure
                phase = .stopping(stop)
            }
            return .stopping
        case (.stop, .rollingBack), (.stop, .stopped):
            return .stopping
        case (.stop(let cause), _):
            let stage: Stop.Stage = switch phase {
            case .configuring: .afterConfiguration
            case .starting: .afterStartUp
            case .reloading: .afterReload
            default: .afterEvent
            }
            let (signal, failure): (Int32?, String?) = switch cause {
            case .signal(let signal): (signal, nil)
            case .request(let failure): (nil, failure)
            }
            phase = .stopping(Stop(signal: signal, failure: failure, stage: stage))
            return .stopBegins(stage, dropped: queue.removeAll())
        }
    }

    /// The input a signal stands for: a stop, a reload, a suspension, or the event the
    /// `signals:` map gives it (`nil`: none).
    static func input(for signal: Int32, mappedBy signals: [Int32: HiveEvent]) -> Input? {
        switch signal {
        case SIGTERM, SIGINT: .stop(.signal(signal))
        case SIGHUP: .request(.signalledReload)
        case SIGTSTP: .request(.suspend)
        case SIGCONT: .request(.resume)
        default: signals[signal].map { .request(.event($0, from: .signal(signal))) }
        }
    }

    // MARK: - The event loop's transitions

    /// The configuration was read: configuring → starting, and the signals kept meanwhile
    /// are accepted now, mapped by `signals`; returns those that mean nothing. `nil` when
    /// a stop came first (the daemon exits without starting anything).
    mutating func configured(mappingSignalsBy signals: [Int32: HiveEvent]) -> [Int32]? {
        guard case .configuring(let early) = phase else { return nil }
        phase = .starting
        return early.filter { accept(signal: $0, mappedBy: signals) == .ignored }
    }

    /// `setup` or `init` failed and the rollback begins: starting → rolling back. Returns
    /// the requests dropped (their callers are owed ``stoppingRefusal``), or `nil` when a
    /// stop was under way already (its budget bounds the rollback).
    mutating func startFailed() -> [DaemonRequest]? {
        guard case .starting = phase else { return nil }
        phase = .rollingBack
        return queue.removeAll()
    }

    /// `setup` and `init` succeeded: starting → running; false when a stop came meanwhile
    /// (the daemon stops without `READY=1`).
    mutating func startEnded() -> Bool {
        guard case .starting = phase else { return false }
        phase = .running([])
        return true
    }

    /// The event loop's next work, if there is some now: the stop once one was asked for
    /// and nothing holds it (stopping → terminating), else the oldest request (a reload:
    /// running → reloading).
    mutating func next() -> Work? {
        switch phase {
        case .stopping(let stop) where stop.stage == .afterEvent || stop.stage == .afterStartUp:
            var terminating = stop
            terminating.stage = .terminating
            phase = .stopping(terminating)
            return .stop(stop)
        case .running(let suspension):
            guard let request = queue.take() else { return nil }
            if case .reload = request { phase = .reloading(suspension) }
            return .request(request)
        default:
            return nil
        }
    }

    /// The reload's `READY=1` was sent: reloading → running. True when a stop came during
    /// the reload: its `STOPPING=1` goes out now.
    mutating func reloadEnded() -> Bool {
        switch phase {
        case .reloading(let suspension):
            phase = .running(suspension)
            return false
        case .stopping(var stop) where stop.stage == .afterReload:
            stop.stage = .afterEvent
            phase = .stopping(stop)
            return true
        default:
            return false
        }
    }

    /// Records whether `reason` asks for the background while running; returns who asks
    /// now (`nil` when not running).
    mutating func setSuspended(_ asks: Bool, by reason: Suspension) -> Suspension? {
        guard case .running(var suspension) = phase else { return nil }
        if asks { suspension.insert(reason) } else { suspension.remove(reason) }
        phase = .running(suspension)
        return suspension
    }

    /// ``HiveDaemon/run()`` returned.
    mutating func finished() {
        phase = .stopped
    }

    /// The stop budget ran out (the stop guard's report): what the daemon was doing, for
    /// `STATUS=` ("exceeded while …"), and whether `STOPPING=1` must go with the report
    /// (it was held for a reload that never ended; never for a rollback, which is no stop).
    mutating func stopBudgetExpired(reading: Bool) -> (doing: String, announce: Bool) {
        let doing: String
        var announce = false
        switch phase {
        case .rollingBack: doing = "rolling back a failed start"
        case .stopped: doing = "stopping"
        case .stopping(var stop):
            switch stop.stage {
            case .afterConfiguration, .afterStartUp: doing = "starting"
            case .afterEvent: doing = "waiting for an event"
            case .terminating: doing = "stopping"
            case .afterReload:
                doing = "reloading"
                announce = true
                stop.stage = .afterEvent
                phase = .stopping(stop)
            }
        default: doing = "waiting for an event"
        }
        return (reading ? "reading the configuration" : doing, announce)
    }

    // MARK: - Reading

    /// Who holds the modules in the background, while running or reloading.
    var suspension: Suspension {
        switch phase {
        case .running(let suspension), .reloading(let suspension): suspension
        default: []
        }
    }

    /// Whether a stop was asked for (or start-up failed): nothing new starts.
    var isStopping: Bool {
        switch phase {
        case .stopping, .rollingBack, .stopped: true
        default: false
        }
    }

    /// What a module said when it asked for the stop on a failure, if it did.
    var stopFailure: String? {
        if case .stopping(let stop) = phase { return stop.failure }
        return nil
    }
}
