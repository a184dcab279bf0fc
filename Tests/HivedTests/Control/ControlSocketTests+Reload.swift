import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// `Reload` through the socket: the same reload as `SIGHUP`, answered when done.
    @Suite struct ReloadTests {
        @Test func reloadAnswersWhatChangedWithTheSameNotifications() async throws {
            let fixture = try await ControlFixture.start(modules: ["keep", "old"])
            let notify = try #require(fixture.hived.notify)
            let before = notify.messages.count
            try fixture.directory.write("hived.yaml", ControlFixture.configuration(fixture.directory, modules: ["keep", "new"]))
            let reply = try await fixture.reply("io.hivekit.Daemon.Reload")
            #expect(reply["added"] as? [String] == ["new"])
            #expect(reply["removed"] as? [String] == ["old"])
            #expect(reply["reloaded"] as? Int == 3)
            // Answered after the reload: RELOADING=1 then READY=1 were already sent.
            try await notify.waitFor(after: before, "READY=1 after the reload") { $0.hasPrefix("READY=1") }
            let messages = notify.stateMessages.suffix(2)
            #expect(messages.first?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true, "\(messages)")
            #expect(messages.last?.contains("added new") == true, "\(messages)")
            let names = try #require(try await fixture.reply("io.hivekit.Daemon.GetStatus")["modules"] as? [[String: Any]])
            #expect(names.compactMap { $0["name"] as? String } == ["keep", "heartbeat", "reporter", "new"], "new modules join in registration order within their level and priority")
            try await fixture.stop()
        }

        @Test func reloadOfABadFileIsConfigurationInvalidAndChangesNothing() async throws {
            let fixture = try await ControlFixture.start(modules: ["a"])
            let good = try String(contentsOfFile: fixture.configPath, encoding: .utf8)
            let bad = good.replacingOccurrences(of: "  - {name: a, type: probe", with: "  - {name: a, priority: high, type: probe")
            try fixture.directory.write("hived.yaml", bad)
            let line = bad.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("priority: high") }! + 1
            let result = try await fixture.call("io.hivekit.Daemon.Reload")
            #expect(result["error"] as? String == "io.hivekit.Daemon.ConfigurationInvalid")
            let parameters = try #require(result["parameters"] as? [String: Any])
            #expect(parameters["file"] as? String == fixture.configPath)
            #expect(parameters["line"] as? Int == line)
            #expect((parameters["message"] as? String)?.contains("expected an integer") == true, "\(parameters)")
            // Nothing changed: no module received reload, and the status line says why.
            #expect(try ProbeFile(path: fixture.events).modules(receiving: "reload").isEmpty)
            let notify = try #require(fixture.hived.notify)
            try await notify.waitFor(after: 0, "the failed reload's READY=1") { $0.contains("reload failed") }
            #expect(try await fixture.reply("io.hivekit.Daemon.GetStatus")["phase"] as? String == "running")

            // hived ctl prints FILE:LINE: message and exits 78.
            let ctl = try await fixture.ctl("reload")
            #expect(ctl.status == 78)
            #expect(ctl.stderr.hasPrefix("\(fixture.configPath):\(line): "), "\(ctl.stderr)")
            try await fixture.stop()
        }

        @Test func reloadOfAMissingFileNamesItOnceWithNoLine() async throws {
            let fixture = try await ControlFixture.start(modules: ["a"])
            try FileManager.default.removeItem(atPath: fixture.configPath)
            let result = try await fixture.call("io.hivekit.Daemon.Reload")
            #expect(result["error"] as? String == "io.hivekit.Daemon.ConfigurationInvalid")
            let parameters = try #require(result["parameters"] as? [String: Any])
            #expect(parameters["file"] as? String == fixture.configPath)
            #expect(parameters["line"] == nil, "\(parameters)")
            #expect(parameters["message"] as? String == "cannot read configuration file: No such file or directory", "\(parameters)")
            let ctl = try await fixture.ctl("reload")
            #expect(ctl.status == 78)
            #expect(ctl.stderr == "\(fixture.configPath): cannot read configuration file: No such file or directory\n", "\(ctl.stderr)")
            try await fixture.stop()
        }

        @Test func anAddedModuleFailingInitIsReloadFailedAndChangesNothing() async throws {
            let fixture = try await ControlFixture.start(modules: ["a"])
            let good = try String(contentsOfFile: fixture.configPath, encoding: .utf8)
            let failing = "  - {name: late, type: probe, settings: {path: \(fixture.events), fail_on: [init]}}\n"
            try fixture.directory.write("hived.yaml", good.replacingOccurrences(of: "  - {name: heartbeat", with: failing + "  - {name: heartbeat"))
            let result = try await fixture.call("io.hivekit.Daemon.Reload")
            #expect(result["error"] as? String == "io.hivekit.Daemon.ReloadFailed", "\(result)")
            let parameters = try #require(result["parameters"] as? [String: Any])
            #expect(parameters["module"] as? String == "late")
            #expect(parameters["event"] as? String == "init")
            #expect(parameters["message"] as? String == "told to fail (fail_on)", "\(parameters)")
            // Aborted: the added module got setup and init, nothing more; nothing else changed.
            let events = try ProbeFile(path: fixture.events).events
            #expect(events.filter { $0.hasPrefix("late.") } == ["late.setup", "late.init"], "\(events)")
            #expect(try ProbeFile(path: fixture.events).modules(receiving: "reload").isEmpty)
            let status = try await fixture.reply("io.hivekit.Daemon.GetStatus")
            let modules = try #require(status["modules"] as? [[String: Any]])
            #expect(modules.compactMap { $0["name"] as? String } == ["a", "heartbeat", "reporter"])
            #expect(status["phase"] as? String == "running")

            // hived ctl prints the module, hook and cause, and exits 1.
            let ctl = try await fixture.ctl("reload")
            #expect(ctl.status == 1)
            #expect(ctl.stderr == "reload failed: module 'late' (init): told to fail (fail_on)\n", "\(ctl.stderr)")
            #expect(ctl.stdout.isEmpty, "\(ctl.stdout)")
            try await fixture.stop()
        }

        @Test func aSubscriberSeesTheStopToItsLastEvent() async throws {
            let fixture = try await ControlFixture.start(modules: ["a"])
            let (subscriber, output) = try await fixture.liveSubscriber(until: "teardown")
            defer { if subscriber.isRunning { subscriber.terminate() } }
            let deadline = ContinuousClock.now + .seconds(20)
            try await fixture.stop()
            while subscriber.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            let notices = try VarlinkPython.lines(String(contentsOfFile: output, encoding: .utf8)).compactMap { $0["notice"] as? [String: Any] }
            let delivered = notices.filter { $0["module"] == nil }.compactMap { $0["event"] as? String }
            #expect(delivered.suffix(2) == ["terminate", "teardown"], "the stop's events reach the subscriber before the socket closes: \(delivered)")
        }

        @Test func subscribeStreamsEveryHandlerAndEventDuringAReload() async throws {
            let fixture = try await ControlFixture.start(modules: ["a", "b"])
            let (subscriber, output) = try await fixture.liveSubscriber(until: "reload")
            defer { if subscriber.isRunning { subscriber.terminate() } }
            let deadline = ContinuousClock.now + .seconds(20)
            _ = try await fixture.reply("io.hivekit.Daemon.Reload")
            while subscriber.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            let notices = try VarlinkPython.lines(String(contentsOfFile: output, encoding: .utf8)).compactMap { $0["notice"] as? [String: Any] }
            let reload = notices.filter { $0["event"] as? String == "reload" }
            #expect(Set(reload.compactMap { $0["module"] as? String }) == ["a", "b", "heartbeat", "reporter"])
            #expect(reload.allSatisfy { $0["phase"] as? String == "running" && $0["failed"] as? Bool == false })
            let delivered = try #require(reload.last)
            #expect(delivered["module"] == nil, "the last notice is the event itself")
            #expect(delivered["duration_usec"] is Int)
            let ping = try #require(notices.first { $0["name"] as? String == "ping" })
            #expect(ping["event"] as? String == "custom")
            try await fixture.stop()
        }

        @Test func aSubscriberSeesModulesJoiningAndLeavingEventByEventAndTheReloadLast() async throws {
            let fixture = try await ControlFixture.start(modules: ["a", "b"])
            let (subscriber, output) = try await fixture.liveSubscriber(until: "reload")
            defer { if subscriber.isRunning { subscriber.terminate() } }
            try fixture.directory.write("hived.yaml", ControlFixture.configuration(fixture.directory, modules: ["a", "c"]))
            let reply = try await fixture.reply("io.hivekit.Daemon.Reload")
            #expect(reply["added"] as? [String] == ["c"] && reply["removed"] as? [String] == ["b"], "\(reply)")
            try await waitUntil("the subscriber to stop at the reload event") { !subscriber.isRunning }
            // What came after the last ping's own reply (the loop above may send more than one
            // before it sees the first arrive; a soak saw a second one).
            let all = try VarlinkPython.lines(String(contentsOfFile: output, encoding: .utf8))
                .compactMap { $0["notice"] as? [String: Any] }
            let lastPing = all.lastIndex { $0["name"] as? String == "ping" && $0["module"] == nil }
            let notices = all[((lastPing ?? -1) + 1)...]
            // Each event once its modules handled it: the handler replies of a run come
            // before the reply of their event, and the reload's own reply comes last.
            var runs: [String] = []
            var handlers: [String] = []
            for notice in notices {
                let event = notice["event"] as? String ?? "?"
                if let module = notice["module"] as? String {
                    handlers.append("\(module).\(event)")
                } else {
                    runs.append((handlers.sorted() + ["->", event]).joined(separator: " "))
                    handlers = []
                }
            }
            #expect(runs == [
                "c.setup -> setup", "c.init -> init",
                "b.terminate -> terminate", "b.teardown -> teardown", "b.unmount -> unmount",
                "a.reload c.ready heartbeat.reload reporter.reload -> ready", "-> reload",
            ], "\(runs)")
            #expect(notices.allSatisfy { $0["phase"] as? String == "running" })
            try await fixture.stop()
        }
    }
}
