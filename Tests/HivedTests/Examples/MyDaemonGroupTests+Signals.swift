import Foundation
import TestSupport
import Testing

/// The rest of what HiveDaemon gives, inside mydaemon-group's ServiceGroup: the watchdog,
/// SIGTSTP/SIGCONT (read by the daemon), SIGINT (read by the group).
extension MyDaemonGroupTests {
    @Test func theWatchdogIsFedInsideAServiceGroup() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", Self.configuration(greeting: "hi"))
        // WATCHDOG_PID names the process itself: the shell's pid, which exec keeps.
        let daemon = try HivedProcess(
            ["--config", config], in: directory, environment: ["WATCHDOG_USEC": "1000000"], executable: Self.executable,
            launcher: ["/bin/sh", "-c", "export WATCHDOG_PID=$$; exec \"$0\" \"$@\""])
        let notify = try #require(daemon.notify)
        try await daemon.waitForReady()
        try await notify.waitForCount(4, startingWith: "WATCHDOG=1")
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
        // Half of the second, as hived's own watchdog test checks: the pings are paced, not
        // sent at will (a ping the notify writer sends late makes the next gap a little
        // shorter, hence 450 ms), and not much slower either.
        let pings = notify.datagrams.filter { $0.text == "WATCHDOG=1" }.map(\.received)
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }.sorted()
        #expect(gaps.first! >= .milliseconds(450), "pings come no sooner than half the interval: \(gaps)")
        #expect(gaps[gaps.count / 2] <= .milliseconds(750), "pings come at about half the interval: \(gaps)")
        let ready = try #require(notify.messages.firstIndex { $0.hasPrefix("READY=1") })
        #expect(notify.messages.firstIndex(of: "WATCHDOG=1").map { $0 > ready } == true, "pings follow READY=1")
    }

    @Test func sigtstpAndSigcontSuspendAndResumeTheModulesInsideAServiceGroup() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", Self.configuration(greeting: "hi"))
        let daemon = try HivedProcess(["--config", config], in: directory, executable: Self.executable)
        let notify = try #require(daemon.notify)
        let ready = try await daemon.waitForReady()
        daemon.signal(SIGTSTP)
        let suspended = try await notify.waitFor(after: ready + 1, "suspended status") { $0.hasPrefix("STATUS=suspended") }
        #expect(notify.messages[suspended] == "STATUS=suspended: modules in background (SIGCONT resumes)")
        #expect(daemon.state != "T", "SIGTSTP does not stop the process")
        daemon.signal(SIGCONT)
        let running = try await notify.waitFor(after: suspended + 1, "running status") { $0.hasPrefix("STATUS=running") }
        #expect(notify.messages[running] == "STATUS=running 3 modules", "SIGCONT says the modules run again")
        daemon.signal(SIGUSR1)
        try await ExampleCommand.waitFor(daemon, "store holds 1 key; greeting 'hi' event=custom module=report")
        daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
    }

    @Test func sigintStopsTheDaemonInOrderThroughTheGroup() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("my.yaml", Self.configuration(greeting: "hi"))
        let daemon = try HivedProcess(["--config", config], in: directory, executable: Self.executable)
        try await daemon.waitForReady()
        try await ExampleCommand.waitFor(daemon, "APP module-ticker info: ticker running")
        daemon.signal(SIGINT)
        #expect(try await daemon.exitStatus() == 0, "\(daemon.stderr)")
        let log = daemon.stderr
        #expect(daemon.notify?.stateMessages.contains { $0.hasPrefix("STOPPING=1") } == true)
        #expect(log.contains("APP mydaemon info: graceful shutdown of the service group, stopping"), "\(log)")
        let moduleTicker = try #require(log.range(of: "APP module-ticker info: ticker stopped"), "\(log)")
        let store = try #require(log.range(of: "APP mydaemon info: store closed event=teardown module=store"), "\(log)")
        let group = try #require(log.range(of: "APP app info: group stopped"), "\(log)")
        #expect(moduleTicker.lowerBound < store.lowerBound && store.lowerBound < group.lowerBound, "\(log)")
    }
}
