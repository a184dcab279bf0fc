import BenchSupport

#if canImport(Glibc)
import Glibc
#endif

/// A daemon under test, started with `posix_spawn`, its output sent to /dev/null.
struct ChildProcess {
    let pid: pid_t
    /// The monotonic time just before `posix_spawn`.
    let spawnedAt: UInt64

    /// Starts `arguments[0]` with exactly `environment`, an empty signal mask and default
    /// signal dispositions (what systemd gives a service).
    static func spawn(_ arguments: [String], environment: [String]) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let start = Monotonic.now()
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw DaemonBenchError("posix_spawn \(arguments[0]): error \(result)") }
        return ChildProcess(pid: pid, spawnedAt: start)
    }

    /// Sends `signal`.
    func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Whether the process has exited (and is reaped); never blocks.
    func hasExited() -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    /// Waits for the process to exit and returns its exit status (128+N for signal N).
    func waitForExit() -> Int32 {
        waitForExitWithUsage().status
    }

    /// Waits for the process to exit; returns its exit status (128+N for signal N) and the
    /// CPU time (user and system) all its threads used in its whole life, from `wait4`.
    func waitForExitWithUsage() -> (status: Int32, cpuNanoseconds: Int) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let termination = status & 0x7f
        let cpu = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000_000
            + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1_000
        return (termination == 0 ? (status >> 8) & 0xff : 128 + termination, cpu)
    }

    /// `VmRSS` from `/proc/PID/status`, in bytes.
    func residentBytes() throws -> Int {
        guard let file = fopen("/proc/\(pid)/status", "r") else {
            throw DaemonBenchError("cannot read /proc/\(pid)/status")
        }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("VmRSS:") else { continue }
            let kilobytes = text.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1024
        }
        throw DaemonBenchError("no VmRSS in /proc/\(pid)/status")
    }
}

extension ChildProcess {
    /// The ids of the process's threads now (the entries of `/proc/PID/task`).
    func threads() -> [String] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var ids: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { ids.append(name) }
        }
        return ids
    }

    /// CPU time the process's threads have run so far, in nanoseconds: the first field
    /// of each `/proc/PID/task/TID/schedstat`, summed. Unlike wall time it hardly depends
    /// on what else the machine runs.
    func cpuNanoseconds() -> Int {
        threads().reduce(0) { total, id in
            guard let file = fopen("/proc/\(pid)/task/\(id)/schedstat", "r") else { return total }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 128)
            guard fgets(&line, Int32(line.count), file) != nil else { return total }
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return total + (text.split(separator: " ").first.flatMap { Int($0) } ?? 0)
        }
    }

    /// Minor page faults so far: field 10 of `/proc/PID/stat`.
    func minorFaults() throws -> Int {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { throw DaemonBenchError("cannot read /proc/\(pid)/stat") }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 1024)
        guard fgets(&line, Int32(line.count), file) != nil else { throw DaemonBenchError("empty /proc/\(pid)/stat") }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command name (field 2) is in parentheses and may hold spaces: count after it.
        guard let close = text.lastIndex(of: ")") else { throw DaemonBenchError("bad /proc/\(pid)/stat") }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 7, let faults = Int(fields[7]) else { throw DaemonBenchError("bad /proc/\(pid)/stat") }
        return faults
    }
}
