import Foundation
import TestSupport

extension SystemdContainer {
    /// Runs `arguments` inside the container (its mount, UTS, IPC, network and PID
    /// namespaces, through `nsenter`), with a clean environment.
    func exec(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> CommandResult {
        try await Command.run(
            ["nsenter", "-t", "\(leader)", "-m", "-u", "-i", "-n", "-p", "--",
             "env", "-i", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
             "LC_ALL=C.UTF-8", "SYSTEMD_PAGER=", "SYSTEMD_COLORS=0", "TERM=dumb"] + arguments,
            timeout: timeout)
    }

    /// Runs `arguments` inside the container, throwing unless it exits 0.
    @discardableResult
    func check(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> CommandResult {
        let result = try await exec(arguments, timeout: timeout)
        guard result.status == 0 else { throw TestFailure(result.description) }
        return result
    }

    /// `systemctl ARGS` inside the container (not checked: callers look at the status).
    @discardableResult
    func systemctl(_ arguments: String..., timeout: Duration = .seconds(120)) async throws -> CommandResult {
        try await exec(["systemctl", "--no-pager"] + arguments, timeout: timeout)
    }

    /// The unit's properties (`systemctl show`), e.g. `ActiveState`, `StatusText`.
    func properties(_ unit: String, _ names: [String]) async throws -> [String: String] {
        let result = try await check(["systemctl", "show", unit, "-p", names.joined(separator: ",")])
        var properties: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return properties
    }

    /// One property of `unit`.
    func property(_ unit: String, _ name: String) async throws -> String {
        try await properties(unit, [name])[name] ?? ""
    }

    /// The journal entries of one run of a unit (`_SYSTEMD_INVOCATION_ID`), as field maps;
    /// with `pid`, also those of that process (`_PID`). journald reads a sender's unit
    /// fields from `/proc`: entries a process sends just before it exits (a failed start's
    /// exit 70) may reach it without them, but always with `_PID`.
    func journal(invocation: String, pid: String? = nil) async throws -> [[String: String]] {
        let matches = ["_SYSTEMD_INVOCATION_ID=\(invocation)"] + (pid.map { ["+", "_PID=\($0)"] } ?? [])
        let result = try await check(["journalctl", "--no-pager", "-o", "json"] + matches)
        return result.stdout.split(separator: "\n").compactMap { line in
            guard let data = line.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return nil }
            return object.compactMapValues { $0 as? String }
        }
    }

    /// The cgroup v2 directory of `unit` as a path on this machine (its `ControlGroup=`
    /// below the container's own cgroup, the parent of PID 1's `init.scope`), or `nil`
    /// where this machine has no cgroup v2 hierarchy.
    func hostCgroup(of unit: String) async throws -> String? {
        guard let hierarchy = SuiteRequirements.unifiedHierarchy else { return nil }
        let own = (try? String(contentsOfFile: "/proc/\(leader)/cgroup", encoding: .utf8)) ?? ""
        guard let line = own.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let initScope = URL(fileURLWithPath: String(line.dropFirst(3)))
        let group = try await property(unit, "ControlGroup")
        guard initScope.lastPathComponent == "init.scope", !group.isEmpty else {
            throw TestFailure("no cgroup for \(unit): PID 1 is in \(initScope.path), the unit's ControlGroup is '\(group)'")
        }
        return hierarchy + initScope.deletingLastPathComponent().path + group
    }

    /// Writes `text` to `path` inside the container (creating directories).
    func write(_ text: String, to path: String, mode: Int = 0o644) throws {
        let url = URL(fileURLWithPath: hostPath(path))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    /// The contents of `path` inside the container, or `nil` if it does not exist.
    func read(_ path: String) -> String? {
        try? String(contentsOfFile: hostPath(path), encoding: .utf8)
    }
}
