import Foundation
import TestSupport

/// What a running process uses, read from `/proc`: CPU time, descriptors, resident memory.
struct ProcessUsage {
    let pid: Int32

    /// User and system CPU time so far (`utime` + `stime` in `/proc/PID/stat`), or nil once
    /// the process is gone.
    var cpuTime: Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After "comm)": state is field 3, utime field 14, stime field 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
        let ticks = Int64(sysconf(Int32(_SC_CLK_TCK)))
        return .milliseconds((user + system) * 1000 / ticks)
    }

    /// The CPU time the process uses over `window` (slept through, not busy-waited).
    func cpuTime(over window: Duration) async throws -> Duration {
        guard let before = cpuTime else { throw TestFailure("process \(pid) is gone") }
        try await observationWindow(window)
        guard let after = cpuTime else { throw TestFailure("process \(pid) is gone") }
        return after - before
    }

    /// Open descriptors (entries of `/proc/PID/fd`), or -1.
    var descriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// `VmRSS` in KiB, or -1.
    var residentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
