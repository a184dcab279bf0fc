import CLinux
import HiveKit
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization

/// The daemon: maps Unix signals and systemd onto a hive's lifecycle events, and tells
/// systemd the truth with `sd_notify`.
///
/// | trigger | events | notification |
/// |---|---|---|
/// | start | `setup`, `init`, then `ready` | `READY=1` after `init`, before `ready` |
/// | `SIGHUP` | validate the file, then add/remove modules and `reload` | `RELOADING=1`+`MONOTONIC_USEC`, then `READY=1` |
/// | `SIGTSTP` / `SIGCONT` | `background` / `foreground` (`reason: signal`) | `STATUS=` |
/// | logind `PrepareForSleep(true/false)` | `background` / `foreground` (`reason: sleep`) | `STATUS=`; a delay lock held until `background` finished |
/// | memory pressure (PSI, `MEMORY_PRESSURE_WATCH`) | `memoryWarning` (`source: psi`), at most once per interval | |
/// | mapped signals | `custom(name)` | |
/// | `SIGTERM`, `SIGINT` | `terminate`, then `teardown` in reverse | `STOPPING=1` first |
///
/// A `main` of your own calls ``main(_:)`` before it starts any thread (it blocks the
/// signals the daemon reads in the calling thread itself; a program that starts threads
/// earlier calls ``DaemonSignals/blockInCallingThread()`` first thing in `main`). Such a
/// `main` owns swift-log: the daemon logs through the process's handler and never
/// bootstraps it.
public final class HiveDaemon: Sendable {
    let options: DaemonOptions
    let inbox = DaemonInbox()
    let notifier: SystemdNotifier
    /// Ends the process when the stop budget runs out, from a thread of its own.
    let stopGuard: StopGuard
    /// Set when reading a configuration for a reload has taken longer than the event
    /// budget, until the read ends: the watchdog treats that work like a stalled hook.
    let readingStalled = Atomic<Bool>(false)
    /// `CLOCK_MONOTONIC` nanoseconds when the daemon was made: the control socket's uptime.
    let startedAt = MonotonicClock.nanoseconds()
    /// What changes while the daemon runs: the settings a reload replaces, and whether
    /// start-up is still under way.
    let current: Mutex<Current>

    struct Current {
        var signals: [Int32: HiveEvent] = [:]
        var stopBudget: Duration = .seconds(30)
        var logTarget: LogTarget = .auto
        var services: [ServiceSpec] = []
        /// The hive, once the configuration was read.
        var hive: Hive?
        /// Until the configuration was read: signals other than stops wait in `early`.
        var isConfigured = false
        var early: [Int32] = []
        /// The configuration file being read, if one is.
        var readingPath: String?
        var control = ControlConfiguration()
        /// Until `setup` and `init` have finished (or failed).
        var isStarting = true
        /// A stop signal arrived while starting.
        var stopRequestedWhileStarting = false
        /// A start phase failed: the modules already set up are being torn down.
        var isRollingBack = false
        /// When the stop budget runs out (`CLOCK_MONOTONIC` nanoseconds); set by the first
        /// stop signal.
        var stopDeadline: UInt64?
        /// `STOPPING=1` was sent already.
        var sentStopping = false
        /// A reload is under way (`RELOADING=1` sent, `READY=1` not yet): a stop signal
        /// then waits for its `READY=1` before sending `STOPPING=1`.
        var isReloading = false
        /// The stop sequence (terminate, teardown) has begun.
        var isStopping = false
        /// `SIGTSTP` asks for the background (until `SIGCONT`).
        var suspendedBySignal = false
        /// The system is going to sleep (`PrepareForSleep(true)` until `false`).
        var suspendedBySleep = false
        /// What `sleep:` and `memory_pressure:` say now.
        var sleep = SleepConfiguration()
        var memoryPressure = MemoryPressureConfiguration()
        /// Following logind's sleep, when it is.
        var sleepWatch: SleepWatch?
        /// Watching memory pressure, when it is.
        var pressureWatch: MemoryPressureWatch?
        /// What a module that asked for a stop on a failure said; the exit status is then
        /// ``DaemonExitCode/serviceUnavailable``.
        var failureStop: String?
        var logger: Logger
    }

    /// A daemon for `options`; nothing runs before ``run()``.
    public init(_ options: DaemonOptions) {
        self.options = options
        let identifier = options.identity.logLabel
        let stderrLogger = Logger(label: identifier) { _ in
            HiveLogging.makeHandler(target: .stderr, identifier: identifier)
        }
        let notifier = SystemdNotifier(environment: options.systemd, logger: stderrLogger)
        self.notifier = notifier
        var current = Current(logger: stderrLogger)
        // Until the file is read, a stop signal is timed with the override or the default.
        if let (_, text) = options.overrides.value("BUDGET_STOP"), let budget = Duration(parsing: text),
            budget >= BudgetConfiguration.minimum
        {
            current.stopBudget = budget
        }
        self.current = Mutex(current)
        self.stopGuard = StopGuard()
    }

    package var logger: Logger { current.withLock { $0.logger } }

    /// Runs the daemon on a task while the calling thread, the main thread, reads signals;
    /// exits the process with the daemon's status (see ``exit(_:)``).
    ///
    /// It first blocks the signals the daemon reads in the calling thread
    /// (``DaemonSignals/blockInCallingThread()``), so the threads the daemon starts inherit
    /// the mask: call it before starting threads of your own, or block them first. Where
    /// `/proc` is not mounted it exits at once with ``DaemonExitCode/systemFileMissing``
    /// (72), saying why on stderr: the Swift runtime's thread pool cannot run without it.
    public static func main(_ options: DaemonOptions) -> Never {
        DaemonSignals.blockInCallingThread()
        if let reason = ProcFilesystem.missingReason() {
            StderrWriter.writeNow("\(options.identity.name): \(reason)\n")
            Glibc.exit(DaemonExitCode.systemFileMissing.rawValue)
        }
        DispatchWorkerPriority.quietIfRefused()
        let daemon = HiveDaemon(options)
        Task.detached {
            daemon.exit(await daemon.run())
        }
        SignalReader.readForever()
    }

    /// Runs the daemon until it is stopped; returns the exit status. Signals reach it only
    /// while ``SignalReader`` runs (``main(_:)`` does that).
    public func run() async -> DaemonExitCode {
        SignalReader.setHandler { [self] signal in receive(signal) }
        Self.fixMallocThresholds()
        let configuration: DaemonConfiguration
        do {
            configuration = try readConfiguration()
        } catch {
            writeStandardError("\(options.identity.name): \(StderrLogHandler.escaped("\(error)"))\n")
            notifier.send(.status("invalid configuration: \(error)"))
            return .invalidConfiguration
        }
        let setup = HiveLogging.setUp(
            identity: options.identity, target: configuration.log.target, level: configuration.log.level,
            environment: options.systemd, mayBootstrap: options.mayBootstrapLogging)
        let logger = setup.logger(label: options.identity.logLabel)
        if let notice = DispatchWorkerPriority.takeNotice() { logger.info("\(notice)") }
        if configuration.log.target == .journal && setup.target == .stderr {
            logger.warning("log.target is journal but journald is not reachable: logging to stderr")
        } else if configuration.log.target != .auto && setup == .external {
            logger.notice("log.target \(configuration.log.target.rawValue) is not applied: the process's swift-log handler writes the daemon's lines")
        }
        // Before any module is built, so a module's swift-metrics objects get the backend.
        let metrics = HiveMetrics.shared
        var hiveConfiguration = configuration.hiveConfiguration(logger: logger)
        addSockets(to: &hiveConfiguration, logger: logger)
        let hive = Hive(hiveConfiguration)
        let (early, stopRequested) = current.withLock { current in
            current.signals = configuration.signals
            if current.stopDeadline == nil { current.stopBudget = configuration.budgets.stop }
            current.logTarget = configuration.log.target
            current.services = configuration.services
            current.sleep = configuration.sleep
            current.memoryPressure = configuration.memoryPressure
            current.control = configuration.control
            current.logger = logger
            current.hive = hive
            current.isConfigured = true
            defer { current.early = [] }
            return (current.early, current.stopRequestedWhileStarting)
        }
        if stopRequested {
            logger.info("stopped before any module started")
            return exitStatus(after: .success)
        }
        early.forEach(receive)
        do {
            try hive.services.register(HiveHost.self) { DaemonHost(daemon: self) }
            try hive.services.register(configuration.services, catalog: options.serviceCatalog)
            for spec in configuration.modules { try await hive.register(spec, catalog: options.catalog) }
        } catch {
            logger.critical("\(error.logMessage)", metadata: error.logMetadata)
            notifier.send(.status("invalid configuration: \(error)"))
            return .invalidConfiguration
        }
        startSleepWatch(configuration, hive: hive)
        let control: ControlServer?
        do {
            control = try startControl(configuration.control, hive: hive)
        } catch {
            logger.critical("control socket: \(error)")
            notifier.send(.status("invalid configuration: control socket \(error)"))
            return .invalidConfiguration
        }
        defer { control?.stop() }
        switch await start(hive, configuration) {
        case .failed: return .moduleFailed
        case .stopRequested: return exitStatus(after: await stop(hive))
        case .ready: break
        }
        let watchdog = startWatchdog(hive)
        defer { watchdog?.cancel() }
        // An application's own metrics backend is fed now, every 10 s, and once more after
        // the stop; hived's own Prometheus registry is fed when it is scraped.
        let flusher = metrics.startFlushing(hive, control: control?.statistics)
        let status = exitStatus(after: await serve(hive))
        flusher?.finish()
        return status
    }

    /// Fixes glibc's mmap and trim thresholds at 128 KiB. By default freeing a large block
    /// raises both (up to 32 and 64 MiB), after which the memory a large reload used stays
    /// in the heap of the thread that parsed it, out of `malloc_trim`'s reach; fixed, it
    /// goes back to the system after every reload.
    static func fixMallocThresholds() {
        mallopt(M_MMAP_THRESHOLD, 128 * 1024)
        mallopt(M_TRIM_THRESHOLD, 128 * 1024)
    }

    /// Reads and validates the configuration, recording what is being read so that a
    /// stop, or the watchdog, can name it if the read hangs.
    func readConfiguration() throws(HiveError) -> DaemonConfiguration {
        let (path, hive) = current.withLock { current in
            current.readingPath = options.configurationPath ?? "the embedded configuration"
            return (current.readingPath!, current.hive)
        }
        // For a reload, the same timer as the hooks' budgets marks the read as stalled (and
        // logs it) the moment it has taken longer than the event budget.
        let budget = hive?.defaultBudget
        let timer = budget.map { budget in
            DeadlineTimer.shared.run(after: budget) { [self] in
                readingStalled.store(true, ordering: .relaxed)
                logger.warning("reading \(path) has taken longer than the event budget of \(budget.shortDescription)")
            }
        }
        defer {
            if let timer { DeadlineTimer.shared.cancel(timer) }
            readingStalled.store(false, ordering: .relaxed)
            current.withLock { $0.readingPath = nil }
        }
        return try options.loadConfiguration()
    }

    private enum StartOutcome { case ready, stopRequested, failed }

    /// Runs setup and init (while logind is asked for the sleep delay lock, which is
    /// awaited before `READY=1` for at most ``SleepWatch/settleTimeout``), then tells
    /// systemd and the modules the hive is ready, unless a stop arrived meanwhile: then the
    /// daemon stops without ever reporting ready.
    private func start(_ hive: Hive, _ configuration: DaemonConfiguration) async -> StartOutcome {
        let count = hive.moduleNames.count
        if !current.withLock({ $0.sentStopping }) {
            notifier.send(.status("starting \(count) module\(count == 1 ? "" : "s")"))
        }
        var failure: HiveError?
        do {
            try await hive.start(rollingBack: { _ in armRollbackDeadline() })
            await current.withLock({ $0.sleepWatch })?.waitUntilSettled(within: SleepWatch.settleTimeout)
        } catch {
            failure = error
        }
        let stopRequested = current.withLock { current in
            current.isStarting = false
            return current.stopRequestedWhileStarting
        }
        if let error = failure {
            logger.critical("start failed: \(error.logMessage)", metadata: error.logMetadata)
            let status = "failed: \(error)"
            notifier.send(error.errnoValue.map { .errno($0, status: status) } ?? .status(status))
            return .failed
        }
        if stopRequested { return .stopRequested }
        notifier.send(.ready(status: runningStatus(hive)))
        logger.info("\(Self.startedLine(hive, since: startedAt))")
        // What can wait until systemd knows the daemon is ready: threads cost start-up time.
        stopGuard.start()
        startPressureWatch(configuration, hive: hive)
        await deliver(.ready, to: hive)
        return .ready
    }

    /// Handles requests one at a time until a stop; returns the exit status.
    private func serve(_ hive: Hive) async -> DaemonExitCode {
        var overflowed = 0
        while true {
            let request = await inbox.next()
            let dropped = inbox.overflowCount
            if dropped != overflowed {
                logger.warning("\(dropped - overflowed) requests dropped: \(DaemonInbox.capacity) were already waiting")
                overflowed = dropped
            }
            switch request {
            case .reload(let callers):
                await reload(hive, answering: callers)
            case .suspend:
                await setSuspended(true, by: .signal, hive: hive)
            case .resume:
                await setSuspended(false, by: .signal, hive: hive)
            case .sleep(let entering):
                await followSleep(entering: entering, hive: hive)
            case .memoryPressure(let someAvg10):
                await warnOfMemoryPressure(someAvg10: someAvg10, hive: hive)
            case .event(let event, let signal):
                logger.debug("\(SignalName.name(of: signal)) fires \(event)")
                await deliver(event, to: hive)
            case .stop(let signal):
                if signal != 0 { logger.info("\(SignalName.name(of: signal)) received, stopping") }
                return await stop(hive)
            case .control(let request):
                await handle(request, hive: hive)
            }
        }
    }

    /// Sends an event; a refusal (e.g. `foreground` while running) is logged, not fatal.
    @discardableResult
    func deliver(_ event: HiveEvent, to hive: Hive) async -> Bool {
        do {
            try await hive.send(event)
            return true
        } catch {
            logger.debug("\(error)")
            return false
        }
    }

    /// `started 7 modules in 12.3 ms; slowest: store init 8.1 ms`: the info line at
    /// `READY=1`, timed from `start` (when the daemon began), always in milliseconds.
    static func startedLine(_ hive: Hive, since start: UInt64) -> String {
        let count = hive.activeModuleNames.count
        let took = milliseconds(.nanoseconds(Int64(clamping: MonotonicClock.nanoseconds() &- start)))
        var line = "started \(count) module\(count == 1 ? "" : "s") in \(took)"
        let calls = hive.profile.startup.phases.flatMap { $0.sync + $0.async }
        if let slowest = calls.max(by: { $0.duration < $1.duration }) {
            line += "; slowest: \(slowest.module) \(slowest.event) \(milliseconds(slowest.duration))"
        }
        return line
    }

    /// `12.3 ms`, `0.13 ms` (two decimals below a millisecond), `2041.7 ms`: how the start,
    /// reload and stop lines say how long they took.
    static func milliseconds(_ duration: Duration) -> String {
        let milliseconds = Double(duration.nanosecondsClamped) / 1e6
        let places = milliseconds < 1 ? 100.0 : 10.0
        return "\((milliseconds * places).rounded() / places) ms"
    }

    func runningStatus(_ hive: Hive) -> String {
        let count = hive.activeModuleNames.count
        return "running \(count) module\(count == 1 ? "" : "s")"
    }
}

/// Queues text for stderr (before logging is set up); never blocks.
func writeStandardError(_ text: String) {
    StderrWriter.write(text)
}
