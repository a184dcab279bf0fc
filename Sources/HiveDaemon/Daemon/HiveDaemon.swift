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
/// | `SIGTSTP` / `SIGCONT` | `background` / `foreground` | `STATUS=` |
/// | mapped signals | `custom(name)` | |
/// | `SIGTERM`, `SIGINT` | `terminate`, then `teardown` in reverse | `STOPPING=1` first |
///
/// Call ``DaemonSignals/blockInCallingThread()`` first thing in `main`, then
/// ``main(_:)``.
public final class HiveDaemon: Sendable {
    let options: DaemonOptions
    let inbox = DaemonInbox()
    let notifier: SystemdNotifier
    /// `CLOCK_MONOTONIC` nanoseconds when the daemon began reading a configuration for a
    /// reload, 0 when it is not: the watchdog treats that work like a hook.
    let readingSince = Atomic<UInt64>(0)
    /// What changes while the daemon runs: the settings a reload replaces, and whether
    /// start-up is still under way.
    let current: Mutex<Current>

    struct Current {
        var signals: [Int32: HiveEvent] = [:]
        var stopBudget: Duration = .seconds(30)
        var logTarget: LogTarget = .auto
        var services: [ServiceSpec] = []
        /// Until `setup` and `init` have finished (or failed).
        var isStarting = true
        /// A stop signal arrived while starting.
        var stopRequestedWhileStarting = false
        /// When the stop budget runs out; set by the first stop signal.
        var stopDeadline: ContinuousClock.Instant?
        /// `STOPPING=1` was sent already.
        var sentStopping = false
        /// A reload is under way (`RELOADING=1` sent, `READY=1` not yet): a stop signal
        /// then waits for its `READY=1` before sending `STOPPING=1`.
        var isReloading = false
        /// The stop sequence (terminate, teardown) has begun.
        var isStopping = false
        var logger: Logger
    }

    /// A daemon for `options`; nothing runs before ``run()``.
    public init(_ options: DaemonOptions) {
        self.options = options
        let identifier = options.identity.logLabel
        let stderrLogger = Logger(label: identifier) { _ in
            HiveLogging.makeHandler(target: .stderr, identifier: identifier)
        }
        self.notifier = SystemdNotifier(environment: options.systemd, logger: stderrLogger)
        self.current = Mutex(Current(logger: stderrLogger))
    }

    var logger: Logger { current.withLock { $0.logger } }

    /// Runs the daemon on a task while the calling thread, which must be the main thread
    /// with the signals blocked, reads signals; exits the process with the daemon's status.
    public static func main(_ options: DaemonOptions) -> Never {
        Task.detached {
            let status = await HiveDaemon(options).run()
            exit(status.rawValue)
        }
        SignalReader.readForever()
    }

    /// Runs the daemon until it is stopped; returns the exit status. Signals reach it only
    /// while ``SignalReader`` runs (``main(_:)`` does that).
    public func run() async -> DaemonExitCode {
        let configuration: DaemonConfiguration
        do {
            configuration = try options.loadConfiguration()
        } catch {
            writeStandardError("\(options.identity.name): \(error)\n")
            notifier.send(.status("invalid configuration: \(error)"))
            return .invalidConfiguration
        }
        let setup = HiveLogging.setUp(
            identity: options.identity, target: configuration.log.target, level: configuration.log.level,
            environment: options.systemd, policy: options.logging)
        let logger = setup.logger(label: options.identity.logLabel, identifier: options.identity.logLabel)
        if configuration.log.target == .journal && setup.target == .stderr {
            logger.warning("log.target is journal but journald is not reachable: logging to stderr")
        }
        current.withLock { current in
            current.signals = configuration.signals
            current.stopBudget = configuration.budgets.stop
            current.logTarget = configuration.log.target
            current.services = configuration.services
            current.logger = logger
        }
        let hive = Hive(configuration.hiveConfiguration(logger: logger))
        do {
            try hive.services.register(configuration.services, catalog: options.serviceCatalog)
            for spec in configuration.modules { try await hive.register(spec, catalog: options.catalog) }
        } catch {
            logger.critical("\(error)", metadata: error.logMetadata)
            notifier.send(.status("invalid configuration: \(error)"))
            return .invalidConfiguration
        }
        SignalReader.setHandler { [self] signal in self.receive(signal, hive: hive) }
        switch await start(hive) {
        case .failed: return .moduleFailed
        case .stopRequested: return await stop(hive)
        case .ready: break
        }
        let watchdog = startWatchdog(hive)
        defer { watchdog?.cancel() }
        return await serve(hive)
    }

    private enum StartOutcome { case ready, stopRequested, failed }

    /// Runs setup and init, then tells systemd and the modules the hive is ready, unless a
    /// stop arrived meanwhile: then the daemon stops without ever reporting ready.
    private func start(_ hive: Hive) async -> StartOutcome {
        let count = hive.moduleNames.count
        if !current.withLock({ $0.sentStopping }) {
            notifier.send(.status("starting \(count) module\(count == 1 ? "" : "s")"))
        }
        let result: Result<Void, HiveError>
        do {
            try await hive.start()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        let stopRequested = current.withLock { current in
            current.isStarting = false
            return current.stopRequestedWhileStarting
        }
        if case .failure(let error) = result {
            logger.critical("start failed: \(error)", metadata: error.logMetadata)
            let status = "failed: \(error)"
            notifier.send(error.errnoValue.map { .errno($0, status: status) } ?? .status(status))
            return .failed
        }
        if stopRequested { return .stopRequested }
        notifier.send(.ready(status: runningStatus(hive)))
        await deliver(.ready, to: hive)
        return .ready
    }

    /// Handles requests one at a time until a stop; returns the exit status.
    private func serve(_ hive: Hive) async -> DaemonExitCode {
        while true {
            switch await inbox.next() {
            case .reload:
                await reload(hive)
            case .suspend:
                if await deliver(.background, to: hive) {
                    notifier.send(.status("suspended: modules in background (SIGCONT resumes)"))
                }
            case .resume:
                if await deliver(.foreground, to: hive) { notifier.send(.status(runningStatus(hive))) }
            case .event(let event, let signal):
                logger.debug("\(SignalName.name(of: signal)) fires \(event)")
                await deliver(event, to: hive)
            case .stop(let signal):
                logger.info("\(SignalName.name(of: signal)) received, stopping")
                return await stop(hive)
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

    func runningStatus(_ hive: Hive) -> String {
        let count = hive.activeModuleNames.count
        return "running \(count) module\(count == 1 ? "" : "s")"
    }

    /// Turns a signal into a request for the event loop; runs on the signal thread.
    private func receive(_ signal: Int32, hive: Hive) {
        let (signals, logger) = current.withLock { ($0.signals, $0.logger) }
        if let request = Self.request(for: signal, signals: signals) {
            if case .stop = request { armStopDeadline(hive) }
            inbox.post(request)
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
}

/// Writes text to stderr without buffering (before logging is set up).
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
