import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

/// hived against a minimal C `sd_notify` program and the same in static Swift, each
/// started, reloaded and stopped many times, round robin so all see the same machine load.
///
/// Per run and target: spawn with `NOTIFY_SOCKET` set → `READY=1` (start; the CPU time
/// its threads used and the threads it has then); 100 ms idle, then `VmRSS` (idle
/// resident memory) and minor page faults; `reloads` × (`SIGHUP` → the next `READY=1`);
/// `SIGTERM` → exit (stop, which must be status 0). Reload and stop also as the CPU time
/// they took (all threads), which, unlike wall time, hardly depends on the machine's load.
struct DaemonBenchmarks {
    /// The C program first, then the Swift floor if any, then the daemons.
    var targets: [Target]
    let runs: Int
    let reloads: Int
    let socket: NotifySocket
    let environment: [String]

    init(targets: [Target], runs: Int, reloads: Int, directory: String) throws {
        precondition(targets.first?.kind == .c, "the C program comes first")
        self.targets = targets
        self.runs = runs
        self.reloads = reloads
        socket = try NotifySocket(path: directory + "/notify")
        // A minimal, explicit environment (what systemd passes to the packaged unit,
        // roughly): RUNTIME_DIRECTORY turns hived's control socket on, as it is there.
        let runtime = directory + "/run"
        guard mkdir(runtime, 0o700) == 0 || errno == EEXIST else { throw DaemonBenchError("mkdir \(runtime) failed") }
        environment = [
            "PATH=/usr/local/bin:/usr/bin:/bin",
            "NOTIFY_SOCKET=\(socket.path)",
            "RUNTIME_DIRECTORY=\(runtime)",
        ]
    }

    mutating func run() throws {
        // One untimed cycle each first: page cache, dynamic loader caches.
        for index in targets.indices { try cycle(&targets[index], record: false) }
        for run in 0..<runs {
            log("daemon-bench: run \(run + 1)/\(runs)")
            for index in targets.indices { try cycle(&targets[index], record: true) }
        }
    }

    /// Starts, measures, reloads and stops `target` once.
    private func cycle(_ target: inout Target, record: Bool) throws {
        socket.drain()
        let child = try ChildProcess.spawn(target.arguments, environment: environment)
        let ready = try waitForReady(child, target)
        let start = Double(ready.at &- child.spawnedAt)
        let cpu = Double(child.cpuNanoseconds())
        let threads = Double(child.threads().count)
        if !record { log("daemon-bench: \(target.label): \(ready.status ?? "READY=1")") }
        usleep(100_000)
        let resident = Double(try child.residentBytes())
        let faults = Double(try child.minorFaults())
        var reloadTimes: [Double] = []
        var reloadCPU: [Double] = []
        for _ in 0..<reloads {
            socket.drain()
            let before = child.cpuNanoseconds()
            let sent = Monotonic.now()
            child.signal(SIGHUP)
            reloadTimes.append(Double(try waitForReady(child, target).at &- sent))
            reloadCPU.append(Double(child.cpuNanoseconds() - before))
            usleep(5_000)
        }
        let before = child.cpuNanoseconds()
        let sent = Monotonic.now()
        child.signal(SIGTERM)
        let (status, lifetimeCPU) = child.waitForExitWithUsage()
        let stop = Double(Monotonic.now() &- sent)
        guard status == 0 else { throw DaemonBenchError("\(target.label) exited with status \(status) after SIGTERM") }
        guard record else { return }
        target.start.append(start)
        target.resident.append(resident)
        target.reload += reloadTimes
        target.reloadCPU += reloadCPU
        target.stop.append(stop)
        target.stopCPU.append(Double(max(lifetimeCPU - before, 0)))
        target.cpu.append(cpu)
        target.threads.append(threads)
        target.faults.append(faults)
    }

    /// The receive time of the next `READY=1` and the `STATUS=` sent with it, skipping
    /// other messages (`RELOADING=1`, `STATUS=` alone).
    private func waitForReady(_ child: ChildProcess, _ target: Target) throws -> (at: UInt64, status: String?) {
        let deadline = Monotonic.now() + 20_000_000_000
        while Monotonic.now() < deadline {
            if let message = socket.receive(timeoutMilliseconds: 100) {
                let received = fields(of: message.text)
                if received["READY"] == "1" { return (message.at, received["STATUS"]) }
                continue
            }
            if child.hasExited() { throw DaemonBenchError("\(target.label) exited before READY=1") }
        }
        child.signal(SIGKILL)
        _ = child.waitForExit()
        throw DaemonBenchError("\(target.label) sent no READY=1 within 20 s")
    }

    /// The table rows: each figure absolute and as a ratio to the C program's median; a
    /// daemon's start also as the time above the Swift floor, with its threads at
    /// `READY=1` and its page faults.
    func rows() -> [Row] {
        var rows: [Row] = []
        func median(_ target: Target?, _ samples: (Target) -> [Double]) -> Double? {
            target.map { Summary(samples($0)).median }
        }
        func add(_ metric: String, _ unit: Row.Unit, aim: (Target.Kind) -> String, _ samples: (Target) -> [Double]) {
            let c = median(targets[0], samples)!
            let floor = median(targets.first { $0.kind == .swiftFloor }, samples)
            for target in targets {
                let summary = Summary(samples(target))
                var note = target.kind == .c ? "baseline" : "\(ratio(summary.median, to: c)) C"
                if case .daemon = target.kind, metric.hasPrefix("start"), let floor {
                    note += ", floor +\(format(summary.median - floor, .nanoseconds))"
                }
                if metric.hasPrefix("start: exec"), target.kind != .c {
                    let threads = median(target) { $0.threads }!
                    note += "; \(fixed(threads, 0)) thread\(threads == 1 ? "" : "s") at READY=1,"
                        + " \(fixed(median(target) { $0.faults }!, 0)) page faults"
                }
                rows.append(Row("\(metric): \(target.label)", summary, unit: unit, aim: aim(target.kind), note: note))
            }
        }
        add("start: exec → READY=1", .nanoseconds, aim: { kind in
            switch kind {
            case .daemon(modules: 0): "≤ floor + 1.2 ms"
            case .daemon(modules: 100): "≤ 2.5× C"
            default: ""
            }
        }) { $0.start }
        add("start: CPU time to READY=1", .nanoseconds, aim: { _ in "" }) { $0.cpu }
        add("reload: SIGHUP → READY=1 (config unchanged)", .nanoseconds, aim: { kind in
            kind == .daemon(modules: 100) ? "≤ 1 ms" : ""
        }) { $0.reload }
        add("reload: CPU time", .nanoseconds, aim: { _ in "" }) { $0.reloadCPU }
        add("stop: SIGTERM → exit", .nanoseconds, aim: { kind in
            kind == .daemon(modules: 100) ? "≤ 2 ms" : ""
        }) { $0.stop }
        add("stop: CPU time", .nanoseconds, aim: { _ in "" }) { $0.stopCPU }
        add("memory: idle VmRSS after READY=1", .bytes, aim: { kind in
            kind == .daemon(modules: 100) ? "≤ 10 MiB" : ""
        }) { $0.resident }
        return rows
    }
}
