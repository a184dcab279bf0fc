import Foundation
import TestSupport

/// Real memory pressure on this machine, for a PSI trigger to see: a shell in a memory
/// cgroup of its own limited to 32 MiB (cgroup v1 `memory.limit_in_bytes`, or v2
/// `memory.max`) that writes a 256 MiB file, then reads it over and over. Every page it
/// writes or reads must be charged to the cgroup, which is full, so the kernel reclaims in
/// the cgroup's name (`psi_memstall_enter`) and soon refaults the pages it evicted: the
/// stall shows in `/proc/pressure/memory` (about 60 ms a second here, from a disk that
/// reads 250 MB/s). PSI is not namespaced: the container's hived watches the same file.
///
/// Given a cgroup v2 directory to join (a unit's cgroup in a container booted with cgroup v2,
/// whose own hierarchy has no memory controller on this machine), the loop also runs there,
/// so the stall counts in that cgroup's `memory.pressure` too (PSI charges a task's stall to
/// its cgroup v2 directory and every ancestor), while the v1 limit still causes it.
///
/// The loop ends by itself when ``stop()`` creates its stop file, or after `lifetime`; it
/// then leaves the cgroup it joined, and removes its file and its cgroup.
final class MemoryThrasher: Sendable {
    let directory: String
    private let running: Task<CommandResult, any Error>

    static let script = #"""
        set -eu
        dir=$1 cgroup=$2 limit=$3 lifetime=$4 hierarchy=$5 join=$6
        mkdir "$cgroup"
        echo 32M >"$cgroup/$limit"
        echo $$ >"$cgroup/cgroup.procs"
        home=$(sed -n 's/^0:://p' /proc/self/cgroup)
        if [ -n "$join" ]; then echo $$ >"$join/cgroup.procs"; fi
        cleanup() {
            rm -f "$dir/data"
            if [ -n "$join" ]; then echo $$ >"$hierarchy$home/cgroup.procs" || true; fi
            echo $$ >"${cgroup%/*}/cgroup.procs" || true
            rmdir "$cgroup" || true
        }
        trap cleanup EXIT
        dd if=/dev/zero of="$dir/data" bs=1M count=256 status=none
        : >"$dir/started"
        end=$(($(date +%s) + lifetime))
        while [ ! -e "$dir/stop" ] && [ "$(date +%s)" -lt "$end" ]; do
            dd if="$dir/data" iflag=nocache count=0 status=none
            cat "$dir/data" >/dev/null
        done
        """#

    /// Where a memory cgroup of this process's own can be made, and its limit file; nil if
    /// none (no memory controller, or not root).
    static func cgroup(named name: String) -> (path: String, limit: String)? {
        let v1 = "/sys/fs/cgroup/memory"
        if access(v1 + "/cgroup.procs", W_OK) == 0 {
            return (v1 + "/" + name, "memory.limit_in_bytes")
        }
        let v2 = "/sys/fs/cgroup"
        if let controllers = try? String(contentsOfFile: v2 + "/cgroup.subtree_control", encoding: .utf8),
            controllers.split(separator: " ").contains(where: { $0.hasPrefix("memory") }), access(v2, W_OK) == 0
        {
            return (v2 + "/" + name, "memory.max")
        }
        return nil
    }

    /// Starts the loop, in the cgroup v2 directory `join` too if given; returns once it
    /// reads (its file written, its cgroup limited).
    init(lifetime: Duration = .seconds(120), joining join: String? = nil) async throws {
        let name = "hived-suite-pressure-\(getpid())"
        guard let cgroup = Self.cgroup(named: name) else {
            throw TestFailure("no memory cgroup can be made here (cgroup v1 memory or a v2 memory controller, as root)")
        }
        // On cgroup v2 alone a task is in one cgroup: joining another would leave the limit.
        guard join == nil || cgroup.limit == "memory.limit_in_bytes" else {
            throw TestFailure("the thrasher can join \(join ?? "") only where its limit is a cgroup v1 one; this machine has cgroup v2 alone")
        }
        var template = Array("/var/tmp/hived-suite-pressure.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: errno \(errno)") }
        let directory = String(cString: made)
        self.directory = directory
        let seconds = lifetime.components.seconds
        running = Task {
            try await Command.run(
                ["sh", "-c", Self.script, "thrasher", directory, cgroup.path, cgroup.limit, "\(seconds)",
                 SuiteRequirements.unifiedHierarchy ?? "", join ?? ""],
                timeout: lifetime + .seconds(30))
        }
        let started = await eventually(timeout: .seconds(60), every: .systemctl) {
            FileManager.default.fileExists(atPath: directory + "/started")
        }
        guard started else {
            let result = try? await running.value
            throw TestFailure("the memory thrasher did not start: \(result.map { "\($0)" } ?? "still running")")
        }
    }

    /// Ends the loop and waits until it cleaned up; returns what it printed.
    @discardableResult
    func stop() async throws -> CommandResult {
        _ = FileManager.default.createFile(atPath: directory + "/stop", contents: nil)
        let result = try await running.value
        try? FileManager.default.removeItem(atPath: directory)
        return result
    }
}
