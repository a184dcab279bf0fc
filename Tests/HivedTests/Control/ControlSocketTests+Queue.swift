import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// `Reload` and `SendEvent` go through the daemon's bounded queue: a `Reload` joins the
    /// reload already waiting, and a stop answers the calls it drops.
    @Suite struct QueueTests {
        /// hived with probe `a`, which stalls in `hook` until the test creates `release`,
        /// logging at debug level (control calls are logged as queued or joining).
        static func start(stallingIn hook: String) async throws -> ControlFixture {
            let directory = try TestDirectory()
            let text = """
                log: {level: debug}
                budgets: {event: 60s, stop: 30s}
                control: {socket: \(directory.file("control"))}
                modules:
                  - {name: a, type: probe, settings: {path: \(directory.file("events")), stall_until: {\(hook): \(directory.file("release"))}}}

                """
            let path = try directory.write("hived.yaml", text)
            let hived = try HivedProcess(["run", "--config", path], in: directory)
            lowerPriority(of: hived.pid)
            try await hived.waitForReady()
            return ControlFixture(directory: directory, hived: hived, socket: directory.file("control"), configPath: path)
        }

        @Test func reloadCallsJoinTheReloadWaitingAndGetItsAnswer() async throws {
            let fixture = try await Self.start(stallingIn: "reload")
            let notify = try #require(fixture.hived.notify)
            // A reload runs, held in a's reload hook.
            fixture.hived.signal(SIGHUP)
            _ = try await ProbeFile.waitFor(fixture.events, "a.reload") { $0.event == "reload" }
            // Two calls meanwhile: the first queues a reload, the second joins it.
            async let first = fixture.call("io.hivekit.Daemon.Reload")
            async let second = fixture.call("io.hivekit.Daemon.Reload")
            try await fixture.hived.waitForStderr(containing: "control Reload queued")
            try await fixture.hived.waitForStderr(containing: "control Reload joins the reload already waiting")
            fixture.directory.release("release")
            let (one, two) = try await (first, second)
            for reply in [one, two] {
                let result = try #require(reply["reply"] as? [String: Any], "\(reply)")
                #expect(result["reloaded"] as? Int == 1)
            }
            // The SIGHUP's reload and the one both calls waited for: two in all.
            try await notify.waitForCount(3, startingWith: "READY=1")
            #expect(notify.count(startingWith: "RELOADING=1") == 2, "\(notify.stateMessages)")
            #expect(try ProbeFile(path: fixture.events).modules(receiving: "reload") == ["a", "a"])
            try await fixture.stop()
        }

        @Test func aStopAnswersTheCallsItDropsAndTheOneRunningFinishes() async throws {
            let fixture = try await Self.start(stallingIn: "custom:held")
            // A SendEvent runs, held in a's hook; a Reload and another SendEvent wait.
            async let held = fixture.call("io.hivekit.Daemon.SendEvent", ["name": "held"])
            _ = try await ProbeFile.waitFor(fixture.events, "a.custom:held") { $0.name == "held" }
            async let reload = fixture.call("io.hivekit.Daemon.Reload")
            async let waiting = fixture.call("io.hivekit.Daemon.SendEvent", ["name": "later"])
            try await fixture.hived.waitForStderr(containing: "control Reload queued")
            try await fixture.hived.waitForStderr(containing: "control SendEvent custom:later queued")
            fixture.hived.signal(SIGTERM)
            try await fixture.hived.waitForStderr(containing: "stopping: dropped 2 queued requests that had not started (")
            let dropped = try #require(fixture.hived.stderr.split(separator: "\n").first { $0.contains("stopping: dropped") })
            #expect(dropped.contains("control Reload") && dropped.contains("control SendEvent custom:later"), "\(dropped)")
            let (reloadResult, waitingResult) = try await (reload, waiting)
            #expect(reloadResult["error"] as? String == "io.hivekit.Daemon.ReloadFailed", "\(reloadResult)")
            #expect((reloadResult["parameters"] as? [String: Any])?["message"] as? String == "the daemon is stopping")
            #expect(waitingResult["error"] as? String == "io.hivekit.Daemon.EventRefused", "\(waitingResult)")
            #expect((waitingResult["parameters"] as? [String: Any])?["message"] as? String == "the daemon is stopping")
            // The event that had started is delivered, then the stop runs.
            fixture.directory.release("release")
            let delivered = try await held
            #expect((delivered["reply"] as? [String: Any])?["delivered"] as? Int == 1, "\(delivered)")
            #expect(try await fixture.hived.exitStatus() == 0)
            let events = try ProbeFile(path: fixture.events).events
            #expect(events.suffix(3) == ["a.custom:held", "a.terminate", "a.teardown"], "\(events)")
        }
    }
}
