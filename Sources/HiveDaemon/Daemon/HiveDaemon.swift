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
/// Which of these an input does depends on the daemon's phase: one state machine holds
/// the phase and decides, for every source, through one door (<doc:DaemonLifecycle>).
///
/// A `main` of your own calls ``main(_:)`` before it starts any thread (it blocks the
/// signals the daemon reads in the calling thread itself; a program that starts threads
/// earlier calls ``DaemonSignals/blockInCallingThread()`` first thing in `main`). Such a
/// `main` owns swift-log: the daemon logs through the process's handler and never
/// bootstraps it.
public final class HiveDaemon: Sendable {
    let options: DaemonOptions
    let notifier: SystemdNotifier
    /// Ends the process when the stop budget runs out, from a thread of its own.
    let stopGuard = StopGuard()
    /// Set when reading a configuration for a reload has taken longer than the event
    /// budget, until the read ends: the watchdog treats that work like a stalled hook.
    let readingStalled = Atomic<Bool>(false)
    /// `CLOCK_MONOTONIC` nanoseconds when the daemon was made: the control socket's uptime.
    let startedAt = MonotonicClock.nanoseconds()
    let state: Mutex<State>

    /// What the daemon holds under its lock.
    struct State {
        /// The phase and the requests waiting for the event loop.
        var lifecycle = DaemonLifecycle()
        /// The event loop, while it waits for work.
        var loop: CheckedContinuation<DaemonLifecycle.Work, Never>?
        var settings: DaemonSettings
        /// The hive, once the configuration was read.
        var hive: Hive?
        /// The configuration file being read, if one is: a stop or the watchdog names it.
        var reading: String?
        /// Following logind's sleep, when it is.
        var sleepWatch: SleepWatch?
        /// Watching memory pressure, when it is.
        var pressureWatch: MemoryPressureWatch?
        var logger: Logger

        /// The waiting event loop and its next work, if it waits and there is some.
        mutating func handOver() -> (CheckedContinuation<DaemonLifecycle.Work, Never>, DaemonLifecycle.Work)? {
            guard let loop, let work = lifecycle.next() else { return nil }
            self.loop = nil
            return (loop, work)
        }
    }

    /// A daemon for `options`; nothing runs before ``run()``.
    package init(_ options: DaemonOptions) {
        self.options = options
        let identifier = options.identity.logLabel
        let stderrLogger = Logger(label: identifier) { _ in
            HiveLogging.makeHandler(target: .stderr, identifier: identifier)
        }
        notifier = SystemdNotifier(environment: options.systemd, logger: stderrLogger)
        state = Mutex(State(settings: DaemonSettings(overrides: options.overrides), logger: stderrLogger))
    }

    package var logger: Logger { state.withLock { $0.logger } }

    /// Runs the daemon on a task while the calling thread, the main thread, reads signals;
    /// exits the process with the daemon's status (``DaemonExitCode``), once systemd took
    /// the notifications queued before and the log lines had a moment to go out.
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

    /// Runs the daemon until it is stopped, phase after phase (<doc:DaemonLifecycle>);
    /// returns the exit status. Signals reach it only while the calling thread reads them
    /// (``main(_:)`` does that).
    package func run() async -> DaemonExitCode {
        SignalReader.setHandler { [self] signal in receive(signal) }
        Self.fixMallocThresholds()
        defer { state.withLock { $0.lifecycle.finished() } }
        guard let (configuration, hive) = configure() else { return .invalidConfiguration }
        let logger = self.logger
        guard beginStart(configuration, hive: hive) else {
            logger.info("stopped before any module started")
            return exitStatus(after: .success)
        }
        do {
            try hive.services.register(HiveHost.self) { DaemonHost(daemon: self) }
            try hive.services.register(configuration.services, catalog: options.serviceCatalog)
            for module in configuration.modules { try await hive.register(module, catalog: options.catalog) }
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
        case .stopping: return exitStatus(after: await serve(hive))
        case .ready: break
        }
        let watchdog = startWatchdog(hive)
        defer { if let watchdog { DeadlineTimer.shared.cancel(watchdog) } }
        // An application's own metrics backend is fed now, every 10 s, and once more after
        // the stop; hived's own Prometheus registry is fed when it is scraped.
        let flusher = HiveMetrics.shared.startFlushing(hive, control: control?.statistics)
        let status = exitStatus(after: await serve(hive))
        flusher?.finish()
        return status
    }

    /// Configuring: reads the configuration, sets up logging and builds the hive. `nil`
    /// when the configuration cannot start (reported on stderr and in `STATUS=`).
    private func configure() -> (DaemonConfiguration, Hive)? {
        let configuration: DaemonConfiguration
        do {
            configuration = try readConfiguration()
        } catch {
            writeStandardError("\(options.identity.name): \(DaemonLogHandler.escaped("\(error)"))\n")
            notifier.send(.status("invalid configuration: \(error)"))
            return nil
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
        _ = HiveMetrics.shared
        var hiveConfiguration = configuration.hiveConfiguration(logger: logger)
        hiveConfiguration.stateDirectory = SystemdEnvironment.firstDirectory(in: options.systemd.stateDirectory)
        hiveConfiguration.runtimeDirectory = SystemdEnvironment.firstDirectory(in: options.systemd.runtimeDirectory)
        addSockets(to: &hiveConfiguration, logger: logger)
        let hive = Hive(hiveConfiguration)
        state.withLock { state in
            state.logger = logger
            state.hive = hive
        }
        return (configuration, hive)
    }

    /// Configuring → starting: the file's settings apply, and the signals that arrived
    /// while it was read are mapped now. False when a stop came first.
    private func beginStart(_ configuration: DaemonConfiguration, hive: Hive) -> Bool {
        let (ignored, handOver, logger) = state.withLock { state in
            state.settings.apply(configuration, keepingStopBudget: state.lifecycle.isStopping)
            let ignored = state.lifecycle.configured(mappingSignalsBy: configuration.signals)
            return (ignored, state.handOver(), state.logger)
        }
        guard let ignored else { return false }
        for signal in ignored { logger.debug("ignored \(SignalName.name(of: signal)): not mapped to an event") }
        if let (loop, work) = handOver { loop.resume(returning: work) }
        return true
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
        let path = options.configurationPath ?? "the embedded configuration"
        let hive = state.withLock { state in
            state.reading = path
            return state.hive
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
            state.withLock { $0.reading = nil }
        }
        return try options.loadConfiguration()
    }

    /// Starting: runs setup and init (while logind is asked for the sleep delay lock, which
    /// is awaited before `READY=1` for at most ``SleepWatch/settleTimeout``), then tells
    /// systemd and the modules the hive is ready, unless a stop arrived meanwhile: then the
    /// daemon stops (``serve(_:)`` starts with it) without ever reporting ready.
    private func start(_ hive: Hive, _ configuration: DaemonConfiguration) async -> StartOutcome {
        let count = hive.moduleNames.count
        if !state.withLock({ $0.lifecycle.isStopping }) {
            notifier.send(.status("starting \(count) module\(count == 1 ? "" : "s")"))
        }
        do {
            try await hive.start(rollingBack: { _ in beginRollback() })
            await state.withLock({ $0.sleepWatch })?.waitUntilSettled(within: SleepWatch.settleTimeout)
        } catch {
            logger.critical("start failed: \(error.logMessage)", metadata: error.logMetadata)
            let status = "failed: \(error)"
            notifier.send(error.errnoValue.map { .errno($0, status: status) } ?? .status(status))
            return .failed
        }
        guard state.withLock({ $0.lifecycle.startEnded() }) else { return .stopping }
        notifier.send(.ready(status: runningStatus(hive)))
        logger.info("\(Self.startedLine(hive, since: startedAt))")
        // What can wait until systemd knows the daemon is ready: threads cost start-up time.
        stopGuard.start()
        startPressureWatch(configuration, hive: hive)
        await deliver(.ready, to: hive)
        return .ready
    }

    private enum StartOutcome { case ready, stopping, failed }

    /// Running: handles the event loop's work one at a time until the stop; returns the
    /// exit status.
    private func serve(_ hive: Hive) async -> DaemonExitCode {
        var overflowed = 0
        while true {
            let work = await nextWork()
            let dropped = state.withLock { $0.lifecycle.queue.overflowCount }
            if dropped != overflowed {
                logger.warning("\(dropped - overflowed) requests dropped: \(RequestQueue.capacity) were already waiting")
                overflowed = dropped
            }
            switch work {
            case .request(let request):
                await handle(request, hive: hive)
            case .stop(let stop):
                // A stop that waited for start-up was announced when it came.
                if stop.stage == .afterEvent, let signal = stop.signal {
                    logger.info("\(SignalName.name(of: signal)) received, stopping")
                }
                return await self.stop(hive)
            }
        }
    }

    /// Waits for the event loop's next work (``DaemonLifecycle/next()``).
    func nextWork() async -> DaemonLifecycle.Work {
        if let work = state.withLock({ $0.lifecycle.next() }) { return work }
        return await withCheckedContinuation { continuation in
            let work = state.withLock { state -> DaemonLifecycle.Work? in
                if let work = state.lifecycle.next() { return work }
                state.loop = continuation
                return nil
            }
            if let work { continuation.resume(returning: work) }
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
