import Foundation
import TestSupport
import Testing

extension HivedUnderSystemdTests {
    @Test(
        "journalctl -u hived, default output: every module line names its module and event, as on stderr",
        arguments: SystemdRelease.selected)
    func journalLinesNameModuleAndEvent(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.orderedModules)
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        #expect(try await hived.systemctl("stop").status == 0)

        var entries: [[String: String]] = []
        let stopped = try await eventually(timeout: .seconds(15), every: .systemctl) {
            entries = try await hived.container.journal(invocation: invocation)
            return Self.firstOccurrences(of: "teardown", in: entries).count == 3
        }
        #expect(stopped, "every teardown is in the journal: \(entries.compactMap { $0["MESSAGE"] })")
        let moduleEntries = entries.filter { $0["HIVE_MODULE"] != nil }
        #expect(moduleEntries.count >= 12, "setup, init, terminate and teardown of three modules at least")
        // What an operator reads first: the default (short) output, MESSAGE alone.
        let shown = try await hived.container.check(["journalctl", "--no-pager", "-u", HivedFixture.unit]).stdout
            .split(separator: "\n")
        for entry in moduleEntries {
            let (module, event, message) = (entry["HIVE_MODULE"] ?? "", entry["HIVE_EVENT"], entry["MESSAGE"] ?? "")
            let named = "[\(module)] " + (event.map { "\($0): " } ?? "")
            #expect(message.hasPrefix(named), "MESSAGE names its module and event: \(entry)")
            let line = "hived[\(entry["_PID"] ?? "?")]: \(message.prefix { $0 != "\n" })"
            #expect(shown.contains { $0.hasSuffix(line) }, "journalctl -u shows '\(line)'")
        }
        #expect(shown.contains { $0.contains("]: [second] terminate: ") }, "\(shown.suffix(40).joined(separator: "\n"))")
    }

    @Test(
        "the system-call filter refuses thread priorities: one line says so, libdispatch's line per worker is off",
        arguments: SystemdRelease.selected)
    func threadPriorityRefusalIsOneLine(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.orderedModules)
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        // Workers come and go: a reload and a few seconds give libdispatch room to start more.
        #expect(try await hived.systemctl("reload").status == 0)
        try await Task.sleep(for: .seconds(2))
        #expect(try await hived.systemctl("stop").status == 0)

        let messages = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
        let notices = messages.filter { $0.hasPrefix("thread priorities cannot be set (setpriority: Operation not permitted)") }
        #expect(notices.count == 1, "hived says it once: \(messages)")
        #expect(!messages.contains { $0.contains("Failed to set thread priority") }, "and libdispatch never: \(messages)")
    }
}
