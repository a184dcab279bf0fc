import Foundation
import TestSupport

/// A child process run to its end, for its own wall and CPU time and peak resident memory
/// (`ru_maxrss` from `wait4`).
///
/// A small launcher (python3) spawns it, not this test process: Linux counts in a child's
/// `ru_maxrss` the peak of the address space it left at `exec`, and a child spawned by
/// `posix_spawn` (or `fork`) leaves its parent's. Spawned from the test runner (well over
/// 100 MiB), every child would seem that large; from the launcher, the figure includes at
/// most the launcher's own ~10 MiB.
struct MeasuredRun {
    let status: Int32
    let elapsed: Duration
    /// User and system CPU time.
    let cpu: Duration
    let maximumResidentKiB: Int

    static let launcher = """
        import json, os, sys, time
        null = [(os.POSIX_SPAWN_OPEN, fd, "/dev/null", os.O_WRONLY, 0) for fd in (1, 2)]
        start = time.monotonic()
        pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=null)
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.monotonic() - start
        code = os.waitstatus_to_exitcode(status)
        print(json.dumps({"status": code, "elapsed": elapsed,
                          "cpu": usage.ru_utime + usage.ru_stime, "maxrss": usage.ru_maxrss}))
        """

    /// Runs `arguments` (an executable's path, then its arguments) with stdout and stderr
    /// on /dev/null; waits without holding a thread of the cooperative pool.
    init(_ arguments: [String]) async throws {
        let result = try await ExampleCommand.run(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", Self.launcher] + arguments)
        guard result.status == 0,
            let reply = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let status = reply["status"] as? Int, let elapsed = reply["elapsed"] as? Double,
            let cpu = reply["cpu"] as? Double, let maxrss = reply["maxrss"] as? Int
        else { throw TestFailure("measuring \(arguments): \(result.stdout)\(result.stderr)") }
        self.status = Int32(status)
        self.elapsed = .microseconds(Int64(elapsed * 1e6))
        self.cpu = .microseconds(Int64(cpu * 1e6))
        maximumResidentKiB = maxrss
    }
}
