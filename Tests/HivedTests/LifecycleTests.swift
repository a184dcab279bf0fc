import Foundation
import TestSupport
import Testing

/// Issue 10's rules as hived shows them: levels as barriers (probe timestamps), modules
/// that join in step, all-or-nothing reloads, stalls seen at once.
@Suite(.serialized) struct LifecycleTests {
    static func probe(_ name: String, _ events: String, _ extra: String = "", settings: String = "") -> String {
        "  - {name: \(name), type: probe\(extra), settings: {path: \(events)\(settings)}}"
    }

    /// Reloads onto `text` and returns the reload's `READY=1` datagram.
    static func reload(_ hived: HivedProcess, _ directory: TestDirectory, to text: String) async throws -> String {
        try await ReloadEffectTests.reload(hived, directory, to: text)
    }

    /// A basic async module slow in `setup` holds back every normal module's `setup`;
    /// at `teardown`, a slow normal module holds back every basic one.
    @Test func levelsAreBarriersAtStartAndTheirMirrorAtTeardown() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", """
            modules:
            \(Self.probe("store", events, ", level: basic, async: true", settings: ", stall_on: {setup: 300ms}"))
            \(Self.probe("cache", events, ", level: basic, priority: -1"))
            \(Self.probe("api", events, ", async: true", settings: ", stall_on: {teardown: 300ms}"))
            \(Self.probe("worker", events))
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0, "\(hived.stderr)")
        let lines = try ProbeFile(path: events).lines
        func time(_ module: String, _ event: String) throws -> Duration {
            try #require(lines.first { $0.module == module && $0.event == event }).time
        }
        let storeSetup = try time("store", "setup")
        for normal in ["api", "worker"] {
            #expect(try time(normal, "setup") - storeSetup >= .milliseconds(300), "\(normal) set up before store returned")
        }
        let apiTeardown = try time("api", "teardown")
        for basic in ["store", "cache"] {
            #expect(try time(basic, "teardown") - apiTeardown >= .milliseconds(300), "\(basic) torn down before api returned")
        }
        #expect(try ProbeFile(path: events).modules(receiving: "teardown") == ["worker", "api", "cache", "store"])
    }

    /// A module added by `SIGHUP` while the daemon is suspended is brought to its phase.
    @Test func aModuleAddedByAReloadReceivesReadyAndBackgroundWhenSuspended() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", "modules:\n\(Self.probe("a", events))\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        try await hived.deliver(SIGTSTP)
        _ = try await ProbeFile.waitFor(events, "a.background") { $0.event == "background" }
        let status = try await Self.reload(hived, directory, to: "modules:\n\(Self.probe("a", events))\n\(Self.probe("b", events))\n")
        #expect(status.contains("added b"), "\(status)")
        let joined = try ProbeFile(path: events).lines.filter { $0.module == "b" }
        #expect(joined.map(\.event) == ["setup", "init", "ready", "background"])
        #expect(joined.last?.params == ["reason": "signal"], "the background that suspended the daemon, with its reason")
        try await hived.deliver(SIGCONT)
        _ = try await ProbeFile.waitFor(events, "b.foreground") { $0.module == "b" && $0.event == "foreground" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    /// An added module whose `init` fails aborts the reload: every old module keeps
    /// running untouched (no teardown, no reload), the added ones that were set up are
    /// taken down again, and `STATUS=` names file:line, module, hook and cause.
    @Test func aReloadWhoseAddedModuleFailsChangesNothing() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let old = "modules:\n\(Self.probe("a", events))\n\(Self.probe("b", events))\n"
        let path = try directory.write("hived.yaml", old)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        // `ready` follows READY=1: count the probes' lines once both recorded it.
        _ = try await ProbeFile.waitFor(events, "a.ready and b.ready", until: { $0.modules(receiving: "ready").count == 2 })
        let before = try ProbeFile(path: events).lines.count
        let status = try await Self.reload(hived, directory, to: """
            modules:
            \(Self.probe("a", events, settings: ", stall_on: {custom: 1ms}"))
            \(Self.probe("fresh", events, ", priority: 5"))
            \(Self.probe("sad", events, settings: ", fail_on: [init]"))
            """)
        #expect(status.contains(
            "STATUS=reload failed, previous configuration still running: \(path):4: module 'sad' (init): told to fail (fail_on)"),
            "\(status)")
        let since = try ProbeFile(path: events).events.dropFirst(before)
        #expect(Array(since) == [
            "a.validateReload", "fresh.setup", "sad.setup", "fresh.init", "sad.init", "fresh.terminate", "fresh.teardown", "fresh.unmount",
        ])
        // The old configuration still runs, with its old settings and b still there.
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).modules(receiving: "teardown").suffix(2) == ["b", "a"])
    }

    /// A kept module that refuses its new settings (`validateReload`) aborts the reload the
    /// same way.
    @Test func aKeptModuleRefusingItsNewSettingsAbortsTheReload() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", "modules:\n\(Self.probe("a", events))\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        // `ready` follows READY=1: count the probe's lines once it was recorded.
        _ = try await ProbeFile.waitFor(events, "a.ready") { $0.event == "ready" }
        let before = try ProbeFile(path: events).lines.count
        let status = try await Self.reload(hived, directory, to: """
            modules:
            \(Self.probe("a", events, settings: ", fail_on: [validateReload]"))
            \(Self.probe("b", events))
            """)
        #expect(status.contains(
            "previous configuration still running: \(path):2: module 'a' (reload): validateReload refused the new settings"),
            "\(status)")
        #expect(Array(try ProbeFile(path: events).events.dropFirst(before)) == ["a.validateReload"])
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).lines.filter { $0.module == "b" }.isEmpty)
    }

    /// A module whose type changes is removed before its replacement is set up; when the
    /// replacement fails, STATUS says so plainly.
    @Test func aReplacementThatFailsIsSaidToBeLost() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", "modules:\n\(Self.probe("a", events))\n  - {name: x, type: echo}\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        let status = try await Self.reload(hived, directory, to: """
            modules:
            \(Self.probe("a", events))
            \(Self.probe("x", events, settings: ", fail_on: [init]"))
            """)
        #expect(status.contains(
            "STATUS=reload failed: module 'x' was replaced and its new type failed: \(path):3: module 'x' (init): told to fail (fail_on); "
                + "the rest of the previous configuration is still running"), "\(status)")
        #expect(try ProbeFile(path: events).lines.filter { $0.module == "x" }.map(\.event) == ["setup", "init"])
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).modules(receiving: "teardown") == ["a"])
    }

    /// Six hooks 100 ms past a 500 ms budget: six warnings, each within 60 ms of its
    /// budget running out; and, with the watchdog on, no `WATCHDOG=1` after that instant.
    @Test func stallsAreLoggedAtTheirBudgetAndStopTheWatchdogAtOnce() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let modules = (1...6).map { Self.probe("s\($0)", events, ", async: true, budget: 500ms", settings: ", stall_on: {custom: 600ms}") }
        let path = try directory.write("hived.yaml", """
            signals: {SIGUSR1: "custom:slow"}
            modules:
            \(modules.joined(separator: "\n"))
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory, environment: ["WATCHDOG_USEC": "200000"])
        let notify = try #require(hived.notify)
        try await hived.waitForReady()
        try await notify.waitForCount(2, startingWith: "WATCHDOG=1")
        let signalled = NotifySocket.realtimeNow()
        try await hived.deliver(SIGUSR1)
        try await waitUntil("six stall warnings", detail: { hived.stderr }) {
            hived.stderr.components(separatedBy: "past its budget of 500.0ms").count == 7
        }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        try await notify.drain()
        let starts = try ProbeFile(path: events).lines.filter { $0.event == "custom" }
        #expect(starts.count == 6)
        let firstStart = try #require(starts.map(\.time).min())
        let lastStart = try #require(starts.map(\.time).max())
        let warnings = hived.stderr.split(separator: "\n").filter { $0.contains("past its budget of 500.0ms") }
        #expect(warnings.count == 6, "once per call: \(warnings)")
        for warning in warnings {
            let module = try #require(warning.firstMatch(of: /\[(s[1-6])\] custom: still running after/)?.1, "\(warning)")
            let start = try #require(starts.first { $0.module == String(module) }).time
            let logged = try #require(Self.timestamp(of: warning))
            // The budget runs from the call, which comes after the signal and before the
            // hook body records its start (an async module's child task is scheduled in
            // between): not before the budget from the signal, soon after it from the body's
            // start. The log's clock has millisecond resolution.
            #expect(logged - (signalled + .milliseconds(500)) >= .milliseconds(-1), "logged early: \(warning)")
            #expect(logged - (start + .milliseconds(500)) < .milliseconds(60), "logged late: \(warning)")
        }
        let pings = notify.datagrams.filter { $0.text.hasPrefix("WATCHDOG=1") }.map(\.received)
        let firstBudgetOut = firstStart + .milliseconds(500)
        #expect(!pings.contains { $0 > firstBudgetOut + .milliseconds(60) && $0 < lastStart + .milliseconds(600) },
                "a ping while hooks were stalled")
    }

    /// `2026-11-23T09:40:44.123Z …` as `CLOCK_REALTIME`.
    static func timestamp(of line: Substring) -> Duration? {
        guard let match = line.firstMatch(of: /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})Z/) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(match.1)! - 1900
        parts.tm_mon = Int32(match.2)! - 1
        parts.tm_mday = Int32(match.3)!
        parts.tm_hour = Int32(match.4)!
        parts.tm_min = Int32(match.5)!
        parts.tm_sec = Int32(match.6)!
        return .seconds(Int64(timegm(&parts))) + .milliseconds(Int64(match.7)!)
    }
}
