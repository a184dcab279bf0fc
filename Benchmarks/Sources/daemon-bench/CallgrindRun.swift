import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

/// One run of a program under valgrind's callgrind, for instruction counts and for the
/// order of functions at start-up: dumps the counts when `READY=1` arrives
/// (`PREFIX.PID.1`: start-up alone), then, for a daemon, reloads it once and stops it
/// (`PREFIX.PID`: the whole run). Names stay mangled (`--demangle=no`), as a linker's
/// symbol ordering file needs them.
struct CallgrindRun {
    let program: [String]
    let isDaemon: Bool
    let prefix: String
    let socket: NotifySocket
    let environment: [String]

    /// Runs it; returns the two dump files.
    func run() throws -> (ready: String, whole: String) {
        socket.drain()
        let child = try ChildProcess.spawn(
            ["/usr/bin/env", "valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=\(prefix).%p"]
                + program,
            environment: environment)
        try waitForReady(child)
        let ready = "\(prefix).\(child.pid).1"
        _ = try output(of: ["/usr/bin/env", "callgrind_control", "--dump", "\(child.pid)"])
        let deadline = Monotonic.now() + 60_000_000_000
        while access(ready, R_OK) != 0 {
            guard Monotonic.now() < deadline else { throw DaemonBenchError("callgrind wrote no \(ready)") }
            usleep(10_000)
        }
        if isDaemon {
            usleep(100_000)
            socket.drain()
            child.signal(SIGHUP)
            try waitForReady(child)
        }
        child.signal(SIGTERM)
        let status = child.waitForExit()
        guard status == 0 || !isDaemon else { throw DaemonBenchError("\(program[0]) exited with \(status) under callgrind") }
        return (ready, "\(prefix).\(child.pid)")
    }

    private func waitForReady(_ child: ChildProcess) throws {
        let deadline = Monotonic.now() + 120_000_000_000
        while Monotonic.now() < deadline {
            if let message = socket.receive(timeoutMilliseconds: 100) {
                if message.text.split(separator: "\n").contains("READY=1") { return }
                continue
            }
            if child.hasExited() { throw DaemonBenchError("\(program[0]) exited before READY=1 under callgrind") }
        }
        child.signal(SIGKILL)
        _ = child.waitForExit()
        throw DaemonBenchError("\(program[0]) sent no READY=1 within 120 s under callgrind")
    }
}
