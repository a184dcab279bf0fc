import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SystemdEnvironment {
    /// `base` without ``processOnlyVariables``: the environment to give a child process,
    /// so it neither notifies systemd nor claims our watchdog or sockets as its own.
    public static func childEnvironment(from base: [String: String]) -> [String: String] {
        base.filter { !processOnlyVariables.contains($0.key) }
    }

    /// This process's environment (`environ`) as `NAME=value` strings, less
    /// ``processOnlyVariables``: ready for `execve(2)` or `posix_spawn(3)`.
    ///
    /// Reads `environ`, so do not call it while another thread calls `setenv`.
    public static func childEnvironment() -> [String] {
        var entries = [String]()
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            if !processOnlyVariables.contains(String(name)) { entries.append(text) }
            cursor += 1
        }
        return entries
    }
}
