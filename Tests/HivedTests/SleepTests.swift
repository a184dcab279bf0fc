import Foundation
import TestSupport
import Testing

/// System sleep as the built hived follows it, with no real logind: no system bus at all,
/// a private bus where nobody owns `org.freedesktop.login1`, and a stand-in logind on a
/// private bus (``FakeLogind``) that grants or refuses the delay lock and emits
/// `PrepareForSleep` when a test asks. The real logind is driven by the container suite
/// (HivedUnderSystemdTests+Sleep).
@Suite(.serialized) struct SleepTests {
    static func config(_ events: String, sleep: String = "{}", stall: String = "1ms") -> String {
        """
        log: {level: debug}
        sleep: \(sleep)
        signals: {SIGUSR1: "custom:mark"}
        modules:
          - {name: a, type: probe, settings: {path: \(events), stall_on: {background: \(stall)}}}
          - {name: b, type: probe, async: true, settings: {path: \(events), stall_on: {background: \(stall)}}}
        """
    }

    /// hived with `config`, `bus` as its system bus (`DBUS_SYSTEM_BUS_ADDRESS`), ready.
    static func start(_ config: String, bus: String, in directory: TestDirectory) async throws -> HivedProcess {
        let path = try directory.write("hived.yaml", config)
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus])
        try await hived.waitForReady()
        return hived
    }

    /// Sends SIGUSR1 and waits for its `mark` in the probe file: everything hived was asked
    /// before has been handled.
    static func mark(_ hived: HivedProcess, _ events: String, count: Int) async throws {
        try await hived.deliver(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "mark \(count)", until: { file in
            file.lines.filter { $0.name == "mark" && $0.module == "a" }.count == count
        })
    }

    /// The lines of hived's log about system sleep.
    static func sleepLines(_ hived: HivedProcess) -> [Substring] {
        hived.stderr.split(separator: "\n").filter { $0.contains("system sleep") || $0.contains("delay lock") }
    }

    /// `event:reason` for module a's events.
    static func steps(_ events: String) throws -> [String] {
        try ProbeFile(path: events).lines.filter { $0.module == "a" }.map { line in
            line.name.map { "custom:\($0)" } ?? "\(line.event)\(line.params["reason"].map { ":\($0)" } ?? "")"
        }
    }

    @Test func noSystemBusLogsOneInfoLineAndTheDaemonRunsOn() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let hived = try await Self.start(
            Self.config(events), bus: "unix:path=\(directory.file("no-bus"))", in: directory)
        try await Self.mark(hived, events, count: 1)
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let lines = Self.sleepLines(hived)
        #expect(lines.count == 1, "\(hived.stderr)")
        #expect(lines.first?.contains("info system sleep not followed: no system bus (") == true, "\(lines)")
        #expect(try Set(ProbeFile(path: events).modules(receiving: "ready")) == ["a", "b"])
    }

    @Test func aBusWithoutLogindLogsOneInfoLineAndTheDaemonRunsOn() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let bus = try await PrivateBus(in: directory)
        let hived = try await Self.start(Self.config(events), bus: bus.address, in: directory)
        try await Self.mark(hived, events, count: 1)
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let lines = Self.sleepLines(hived)
        #expect(lines.count == 1, "\(hived.stderr)")
        #expect(lines.first?.contains("info system sleep not followed: logind gave no delay lock (org.freedesktop.DBus.Error.ServiceUnknown") == true,
                "\(lines)")
    }

    @Test func aRefusedInhibitLogsOneInfoLineAndSleepIsNotFollowed() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let bus = try await PrivateBus(in: directory)
        let logind = try await FakeLogind(on: bus, in: directory, answer: .refuse)
        let hived = try await Self.start(Self.config(events), bus: bus.address, in: directory)
        #expect(logind.inhibitCalls == ["sleep|hived|modules finish background work|delay"])
        try await logind.emitSleep()
        try await Self.mark(hived, events, count: 1)
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let lines = Self.sleepLines(hived)
        #expect(lines.count == 1, "\(hived.stderr)")
        #expect(lines.first?.contains(
            "info system sleep not followed: logind gave no delay lock (org.freedesktop.DBus.Error.AccessDenied: Access denied by the test)") == true,
            "\(lines)")
        #expect(try Self.steps(events) == ["setup", "init", "ready", "custom:mark", "terminate", "teardown"])
    }

    @Test func followFalseAsksLogindForNothingAndIgnoresItsSignal() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let bus = try await PrivateBus(in: directory)
        let logind = try await FakeLogind(on: bus, in: directory)
        let hived = try await Self.start(Self.config(events, sleep: "{follow: false}"), bus: bus.address, in: directory)
        try await Self.mark(hived, events, count: 1)
        try await logind.emitSleep()
        try await Self.mark(hived, events, count: 2)
        #expect(logind.inhibitCalls.isEmpty, "no Inhibit with follow: false")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(Self.sleepLines(hived).isEmpty, "\(hived.stderr)")
        #expect(try Self.steps(events) == ["setup", "init", "ready", "custom:mark", "custom:mark", "terminate", "teardown"])
    }

    @Test func backgroundBeforeTheLockGoesThenForegroundAndANewLock() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let bus = try await PrivateBus(in: directory)
        let logind = try await FakeLogind(on: bus, in: directory)
        let hived = try await Self.start(Self.config(events, stall: "300ms"), bus: bus.address, in: directory)
        // The lock was asked for (and granted) before READY=1.
        #expect(logind.inhibitCalls == ["sleep|hived|modules finish background work|delay"])

        try await logind.emitSleep()
        try await waitUntil("the delay lock released", detail: { "\(logind.lines.map(\.text))" }) { logind.released(1) != nil }
        let released = logind.released(1) ?? 0
        let backgrounds = try ProbeFile(path: events).lines.filter { $0.event == "background" }
        #expect(Set(backgrounds.map(\.module)) == ["a", "b"])
        #expect(backgrounds.allSatisfy { $0.params == ["reason": "sleep"] }, "\(backgrounds)")
        // Each hook stalled 300 ms from its start; the lock went only after both returned.
        let lastStart = backgrounds.map { Double($0.time.components.seconds) + Double($0.time.components.attoseconds) / 1e18 }.max() ?? .infinity
        #expect(released >= lastStart + 0.3, "released at \(released), background started at \(lastStart)")

        try await logind.emitWake()
        _ = try await ProbeFile.waitFor(events, "foreground for both", until: { $0.modules(receiving: "foreground").count == 2 })
        try await waitUntil("a new delay lock") { logind.inhibitCalls.count == 2 }
        #expect(try ProbeFile(path: events).lines.filter { $0.event == "foreground" }.allSatisfy { $0.params == ["reason": "sleep"] })
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try Self.steps(events) == ["setup", "init", "ready", "background:sleep", "foreground:sleep", "terminate", "teardown"])
        try await waitUntil("the new lock released at the stop") { logind.released(2) != nil }
    }

    @Test func theSleepBudgetReleasesTheLockNamingEveryLateModule() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let bus = try await PrivateBus(in: directory)
        let logind = try await FakeLogind(on: bus, in: directory)
        let hived = try await Self.start(
            Self.config(events, sleep: "{budget: 500ms}", stall: "3s"), bus: bus.address, in: directory)
        let slept = try await logind.emitSleep()
        try await waitUntil("the delay lock released") { logind.released(1) != nil }
        let held = (logind.released(1) ?? 0) - slept
        #expect(held >= 0.4 && held < 1.5, "the lock was held \(held) s for a budget of 0.5 s")
        try await hived.waitForStderr(containing: "warning sleep budget of 500.0ms ran out; delay lock released: ")
        let warning = hived.stderr.split(separator: "\n").first { $0.contains("sleep budget of 500.0ms ran out") } ?? ""
        #expect(warning.contains("module 'a' still in background") && warning.contains("module 'b' still in background"),
                "\(warning)")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func sleepThenSigtstpResumeKeepsTheBackgroundUntilSigcont() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let bus = try await PrivateBus(in: directory)
        let logind = try await FakeLogind(on: bus, in: directory)
        let hived = try await Self.start(Self.config(events), bus: bus.address, in: directory)

        try await logind.emitSleep()
        _ = try await ProbeFile.waitFor(events, "background for both", until: { $0.modules(receiving: "background").count == 2 })
        try await waitUntil("the delay lock released") { logind.released(1) != nil }
        // SIGTSTP while asleep: already in the background, nothing more.
        try await hived.deliver(SIGTSTP)
        try await Self.mark(hived, events, count: 1)
        // Resume: SIGTSTP still asks for the background, so no foreground; a new lock.
        try await logind.emitWake()
        try await hived.waitForStderr(containing: "system resumed from sleep")
        try await Self.mark(hived, events, count: 2)
        try await waitUntil("a new delay lock") { logind.inhibitCalls.count == 2 }
        #expect(try Self.steps(events) == ["setup", "init", "ready", "background:sleep", "custom:mark", "custom:mark"])
        // SIGCONT: neither asks any more.
        try await hived.deliver(SIGCONT)
        _ = try await ProbeFile.waitFor(events, "foreground for both", until: { $0.modules(receiving: "foreground").count == 2 })
        #expect(try Self.steps(events) == ["setup", "init", "ready", "background:sleep", "custom:mark", "custom:mark", "foreground:signal"])
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }
}
