import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 9's figures: `check-config` on a hostile 1 MiB file (wall time and peak
/// resident memory, from `wait4`), and the daemon's `VmRSS` after thousands of fuzzed
/// reloads (good, bad, hostile and randomly damaged files) against the first.
struct RobustnessBenchmarks {
    let daemons: [(label: String, path: String)]
    let directory: String
    let checks: Int
    let reloads: Int

    func rows() throws -> [Row] {
        var rows: [Row] = []
        let hostile = directory + "/hostile.yaml"
        try write(hostileConfiguration(bytes: 1 << 20 - 1024, keyLength: 100), to: hostile)
        defer { unlink(hostile) }
        for daemon in daemons {
            var times: [Double] = []
            var peaks: [Double] = []
            for _ in 0..<checks {
                let (elapsed, peak) = try measureCheckConfig(daemon.path, hostile)
                times.append(elapsed)
                peaks.append(peak)
            }
            rows.append(Row("check-config: hostile 1 MiB file: \(daemon.label)", Summary(times), aim: "< 1 s"))
            rows.append(Row(
                "check-config: hostile 1 MiB file, peak RSS: \(daemon.label)", Summary(peaks), unit: .bytes,
                aim: "< 100 MiB"))
        }
        for daemon in daemons {
            let (first, last) = try fuzzedReloads(daemon.path)
            let growth = last - first
            rows.append(Row(
                "memory: VmRSS after \(reloads.formatted) fuzzed reloads: \(daemon.label)", Summary([last]), unit: .bytes,
                aim: "≤ first + 2 MiB",
                note: "after the first: \(format(first, .bytes)); growth \(growth < 0 ? "-" : "+")\(format(abs(growth), .bytes))"))
        }
        return rows
    }

    /// Runs `hived check-config PATH` once: wall time (ns) and `ru_maxrss` (bytes).
    private func measureCheckConfig(_ binary: String, _ path: String) throws -> (Double, Double) {
        let child = try ChildProcess.spawn([binary, "check-config", path], environment: ["PATH=/usr/bin:/bin"])
        var status: Int32 = 0
        var usage = rusage()
        while wait4(child.pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = Double(Monotonic.now() &- child.spawnedAt)
        guard (status & 0x7f) == 0 else { throw DaemonBenchError("check-config died of signal \(status & 0x7f)") }
        return (elapsed, Double(usage.ru_maxrss) * 1024)
    }

    /// Starts hived on a good file, reloads it `reloads` times with a file that is good,
    /// bad, hostile (every 30th) or a randomly damaged copy of the good one, and returns
    /// `VmRSS` after the first and after the last reload (each measured once the reload's
    /// memory was handed back, 200 ms after its `READY=1`).
    private func fuzzedReloads(_ binary: String) throws -> (first: Double, last: Double) {
        let socket = try NotifySocket(path: directory + "/reload-notify")
        let config = directory + "/reload.yaml"
        let good = benchmarkConfiguration(modules: 20)
        let hostile = hostileConfiguration(bytes: 1 << 20 - 1024, keyLength: 100)
        try replace(config, with: good)
        defer { unlink(config) }
        let child = try ChildProcess.spawn(
            [binary, "run", "--config", config],
            environment: ["PATH=/usr/bin:/bin", "NOTIFY_SOCKET=\(socket.path)", "HIVED_LOG_LEVEL=critical"])
        try waitForReady(socket, child)
        var random = SplitMix(seed: 9)
        var first = 0.0
        for index in 0..<reloads {
            let text: String
            switch index % 30 {
            case 0: text = good
            case 29: text = hostile
            case let n where n % 2 == 1: text = "modules:\n  - {name: x, type: nosuch}\n"
            default: text = random.damaged(good)
            }
            try replace(config, with: text)
            child.signal(SIGHUP)
            try waitForReady(socket, child)
            if index == 0 {
                usleep(200_000)
                first = Double(try child.residentBytes())
            }
            if index % 500 == 499 { log("daemon-bench: \(index + 1)/\(reloads) reloads") }
        }
        usleep(200_000)
        let last = Double(try child.residentBytes())
        child.signal(SIGTERM)
        let status = child.waitForExit()
        guard status == 0 else { throw DaemonBenchError("hived exited with \(status) after the reloads") }
        return (first, last)
    }

    private func waitForReady(_ socket: NotifySocket, _ child: ChildProcess) throws {
        let deadline = Monotonic.now() + 30_000_000_000
        while Monotonic.now() < deadline {
            if let message = socket.receive(timeoutMilliseconds: 100) {
                if fields(of: message.text)["READY"] == "1" { return }
                continue
            }
            if child.hasExited() { throw DaemonBenchError("hived exited during the reloads") }
        }
        child.signal(SIGKILL)
        throw DaemonBenchError("no READY=1 within 30 s")
    }

    /// Replaces `path` atomically (a temporary file, then rename), as the README asks.
    private func replace(_ path: String, with text: String) throws {
        try write(text, to: path + ".new")
        guard rename(path + ".new", path) == 0 else { throw DaemonBenchError("cannot rename to \(path)") }
    }
}

/// A small deterministic random generator (SplitMix64), so every run damages the same way.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `text` cut at a random byte, with a few random bytes overwritten or inserted.
    mutating func damaged(_ text: String) -> String {
        var bytes = Array(text.utf8)
        bytes = Array(bytes.prefix(Int(next() % UInt64(bytes.count + 1))))
        for _ in 0..<Int(next() % 8) where !bytes.isEmpty {
            let index = Int(next() % UInt64(bytes.count))
            let byte = UInt8(truncatingIfNeeded: next())
            if next() % 2 == 0 { bytes[index] = byte } else { bytes.insert(byte, at: index) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Int {
    /// `3,000`.
    var formatted: String {
        let digits = String(self)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }
}
