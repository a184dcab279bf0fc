import Foundation
import TestSupport
import Testing

/// `SIGHUP` as `systemctl reload` sends it: the notification sequence, what a good and a
/// bad file change, and a storm of reloads.
@Suite(.serialized) struct ReloadTests {
    static func config(_ directory: TestDirectory, modules: [String], extra: String = "") -> String {
        let events = directory.file("events")
        let list = modules.map { "  - {name: \($0), type: probe, settings: {path: \(events)}}" }
        return "budgets: {event: 5s, stop: 10s}\n\(extra)\nmodules:\n" + list.joined(separator: "\n") + "\n"
    }

    @Test func reloadSendsReloadingWithMonotonicThenReady() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", Self.config(directory, modules: ["a", "b"]))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let ready = try await hived.waitForReady()
        hived.signal(SIGHUP)
        let notify = try #require(hived.notify)
        let reloading = try await notify.waitFor(after: ready + 1, "RELOADING=1") { $0.hasPrefix("RELOADING=1") }
        try await hived.waitForReady(after: reloading + 1)
        let message = notify.messages[reloading]
        let fields = message.split(separator: "\n")
        #expect(fields.first == "RELOADING=1")
        let usec = try #require(fields.first { $0.hasPrefix("MONOTONIC_USEC=") }.flatMap { UInt64($0.dropFirst(15)) })
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        #expect(usec <= nowUsec && nowUsec - usec < 10_000_000, "MONOTONIC_USEC is CLOCK_MONOTONIC in µs")
        let file = try await ProbeFile.waitFor(directory.file("events"), "reload") { $0.module == "b" && $0.event == "reload" }
        #expect(file.modules(receiving: "reload") == ["a", "b"])
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func reloadAddsRemovesAndReconfiguresModules() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", Self.config(directory, modules: ["keep", "old"]))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let ready = try await hived.waitForReady()
        try directory.write("hived.yaml", Self.config(directory, modules: ["keep", "new"]))
        hived.signal(SIGHUP)
        let notify = try #require(hived.notify)
        let second = try await hived.waitForReady(after: ready + 1)
        let status = notify.messages[second]
        #expect(status.contains("added new"), "\(status)")
        #expect(status.contains("removed old"), "\(status)")
        let file = try ProbeFile(path: directory.file("events"))
        let tail = file.events.drop { $0 != "new.setup" }
        // Prepare (the added module set up while the old ones run), then commit.
        #expect(Array(tail) == ["new.setup", "new.init", "old.terminate", "old.teardown", "old.unmount", "keep.reload", "new.ready"])
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: directory.file("events")).modules(receiving: "teardown") == ["old", "new", "keep"])
    }

    @Test func badFileChangesNothingAndALaterGoodOneWorks() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", Self.config(directory, modules: ["a"]))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let ready = try await hived.waitForReady()
        try directory.write("hived.yaml", "modules:\n  - name: a\n    type: probe\n    priority: high\n")
        hived.signal(SIGHUP)
        let notify = try #require(hived.notify)
        let afterBad = try await hived.waitForReady(after: ready + 1)
        let status = notify.messages[afterBad]
        #expect(status.contains("STATUS=reload failed"), "\(status)")
        #expect(status.contains("\(path):4"), "the error names file:line: \(status)")
        #expect(try ProbeFile(path: directory.file("events")).modules(receiving: "reload").isEmpty)
        #expect(hived.process.isRunning)

        try directory.write("hived.yaml", Self.config(directory, modules: ["a", "b"]))
        hived.signal(SIGHUP)
        let afterGood = try await hived.waitForReady(after: afterBad + 1)
        #expect(notify.messages[afterGood].contains("added b"))
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: directory.file("events")).modules(receiving: "teardown") == ["b", "a"])
    }

    @Test func aThousandSighupsCoalesceAndEndReadyWithTheLatestConfig() async throws {
        let directory = try TestDirectory()
        let marker = "signals: {SIGUSR1: \"custom:settled\"}"
        let path = try directory.write("hived.yaml", Self.config(directory, modules: ["a"], extra: marker))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        for index in 0..<1000 {
            if index == 500 { try directory.write("hived.yaml", Self.config(directory, modules: ["a", "late"], extra: marker)) }
            hived.signal(SIGHUP)
        }
        // Of pending signals the lowest-numbered is taken first, so SIGUSR1 (10) is taken
        // after every SIGHUP (1) above, and its event delivered after their reloads.
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(directory.file("events"), "custom:settled") { $0.name == "settled" }
        #expect(hived.process.isRunning)
        #expect(try ProbeFile(path: directory.file("events")).events.contains("late.init"), "the latest file is applied")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        // Every notification is in now: each reload ended in READY=1, the last one before the stop.
        let notify = try #require(hived.notify)
        let states = Array(notify.stateMessages.prefix { !$0.hasPrefix("STOPPING=1") })
        #expect(states.last?.hasPrefix("READY=1") == true, "\(states.suffix(3))")
        let reloads = states.filter { $0.hasPrefix("RELOADING=1") }.count
        #expect(states.filter { $0.hasPrefix("READY=1") }.count == reloads + 1, "\(states)")
        #expect(reloads >= 1 && reloads < 100, "coalesced into \(reloads) reloads")
    }

    @Test func sigtermDuringAReloadStopsCleanlyAfterItAndSkipsAReloadQueuedBehindIt() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", """
            modules:
              - {name: slow, type: probe, settings: {path: \(events), stall_until: {reload: \(directory.file("release"))}}}
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGHUP)
        _ = try await ProbeFile.waitFor(events, "reload") { $0.event == "reload" }
        // Both signals arrive while the reload is held open: the stop, then another reload.
        try await hived.deliver(SIGTERM)
        try await hived.deliver(SIGHUP)
        directory.release("release")
        #expect(try await hived.exitStatus() == 0)
        let states = try #require(hived.notify?.stateMessages)
        let ready = try #require(states.firstIndex { $0.hasPrefix("READY=1") })
        let tail = states[(ready + 1)...].map { String($0.prefix { $0 != "\n" }) }
        #expect(Array(tail) == ["RELOADING=1", "READY=1", "STOPPING=1"], "the reload ends in READY=1, then the stop; no second reload")
        #expect(try ProbeFile(path: events).events == [
            "slow.setup", "slow.init", "slow.ready", "slow.reload", "slow.terminate", "slow.teardown",
        ])
    }

    @Test func reloadStatusSaysWhatElseChangedAndThatModulesAreSuspended() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", Self.config(directory, modules: ["a"]))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let ready = try await hived.waitForReady()
        hived.signal(SIGTSTP)
        let notify = try #require(hived.notify)
        let suspended = try await notify.waitFor(after: ready + 1, "suspended") { $0.hasPrefix("STATUS=suspended") }
        try directory.write("hived.yaml", Self.config(
            directory, modules: ["a"], extra: "signals: {SIGUSR1: \"custom:x\"}\nlog: {level: debug}"))
        hived.signal(SIGHUP)
        let reloaded = try await hived.waitForReady(after: suspended + 1)
        let status = notify.messages[reloaded]
        #expect(status.contains("signal map"), "\(status)")
        #expect(status.contains("log level debug"), "\(status)")
        #expect(status.contains("(suspended"), "\(status)")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }
}
