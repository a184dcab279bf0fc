import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 3: hived against a minimal C `sd_notify` program, each started, reloaded and
/// stopped many times, round robin so both see the same machine load.
///
/// Per run and target: spawn with `NOTIFY_SOCKET` set → `READY=1` (start); 100 ms idle,
/// then `VmRSS` (idle resident memory); `reloads` × (`SIGHUP` → the next `READY=1`);
/// `SIGTERM` → exit (stop, which must be status 0).
struct DaemonBenchmarks {
    var baseline: Target
    var daemons: [Target]
    let runs: Int
    let reloads: Int
    let socket: NotifySocket
    let environment: [String]

    init(baseline: Target, daemons: [Target], runs: Int, reloads: Int, directory: String) throws {
        self.baseline = baseline
        self.daemons = daemons
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
        _ = try cycle(&baseline, record: false)
        for index in daemons.indices { _ = try cycle(&daemons[index], record: false) }
        for run in 0..<runs {
            log("daemon-bench: run \(run + 1)/\(runs)")
            try cycle(&baseline, record: true)
            for index in daemons.indices { try cycle(&daemons[index], record: true) }
        }
    }

    /// Starts, measures, reloads and stops `target` once.
    private func cycle(_ target: inout Target, record: Bool) throws {
        socket.drain()
        let child = try ChildProcess.spawn(target.arguments, environment: environment)
        let ready = try waitForReady(child, target)
        let start = Double(ready.at &- child.spawnedAt)
        if !record { log("daemon-bench: \(target.label): \(ready.status ?? "READY=1")") }
        usleep(100_000)
        let resident = Double(try child.residentBytes())
        var reloadTimes: [Double] = []
        for _ in 0..<reloads {
            socket.drain()
            let sent = Monotonic.now()
            child.signal(SIGHUP)
            reloadTimes.append(Double(try waitForReady(child, target).at &- sent))
            usleep(5_000)
        }
        let sent = Monotonic.now()
        child.signal(SIGTERM)
        let status = child.waitForExit()
        let stop = Double(Monotonic.now() &- sent)
        guard status == 0 else { throw DaemonBenchError("\(target.label) exited with status \(status) after SIGTERM") }
        guard record else { return }
        target.start.append(start)
        target.resident.append(resident)
        target.reload += reloadTimes
        target.stop.append(stop)
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

    /// The table rows: each figure absolute and as a ratio to the C program's median.
    func rows(modules: Int) -> [Row] {
        var rows: [Row] = []
        func add(_ metric: String, _ aim: String, _ unit: Row.Unit, _ samples: (Target) -> [Double]) {
            let base = Summary(samples(baseline))
            rows.append(Row("\(metric): \(baseline.label)", base, unit: unit, note: "baseline"))
            for daemon in daemons {
                let summary = Summary(samples(daemon))
                rows.append(Row(
                    "\(metric): \(daemon.label), \(modules) modules", summary, unit: unit, aim: aim,
                    note: "\(ratio(summary.median, to: base.median)) C"))
            }
        }
        add("start: exec → READY=1", "≤ 3× C", .nanoseconds) { $0.start }
        add("reload: SIGHUP → READY=1 (config unchanged)", "< 2 ms", .nanoseconds) { $0.reload }
        add("stop: SIGTERM → exit", "", .nanoseconds) { $0.stop }
        add("memory: idle VmRSS after READY=1", "< 12 MB", .bytes) { $0.resident }
        return rows
    }
}
