import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// `OpenURL` and `PerformAction`: exported routes and actions called from outside the
    /// process, with `hived ctl open` / `perform`, raw calls and PyPI's varlink client.
    @Suite struct CallTests {
        /// hived with probe `a` exporting its route and action, probe `b` exporting nothing
        /// (and stalling on `custom:slow`, and with `stallingStop` on `terminate`, until
        /// `release` exists), and the heartbeat exporting `hive://heartbeat/status` and
        /// `beats`; an event budget of 1 s.
        static func start(control: String = "", stallingStop: Bool = false) async throws -> ControlFixture {
            let directory = try TestDirectory()
            let (events, release) = (directory.file("events"), directory.file("release"))
            let path = try directory.write("hived.yaml", """
                budgets: {event: 1s, stop: 10s}
                control: {socket: \(directory.file("control"))\(control)}
                modules:
                  - name: a
                    type: probe
                    settings: {path: \(events)}
                    export: {routes: ["hive://a/rehearse"], actions: [rehearse]}
                  - name: b
                    type: probe
                    budget: 10s
                    settings: {path: \(events), stall_until: {"custom:slow": \(release)\(stallingStop ? ", terminate: \(release)" : "")}}
                  - name: heartbeat
                    type: heartbeat
                    async: true
                    settings: {interval: 1h}
                    export: {routes: ["hive://heartbeat/status"], actions: [beats]}
                """)
            let hived = try HivedProcess(["run", "--config", path], in: directory)
            try await hived.waitForReady()
            return ControlFixture(directory: directory, hived: hived, socket: directory.file("control"), configPath: path)
        }

        /// The `call` lines the probes recorded.
        static func calls(_ fixture: ControlFixture) throws -> [ProbeFile.Line] {
            try ProbeFile(path: fixture.events).lines.filter { $0.event == "call" }
        }

        @Test func ctlOpensAndPerformsWhatIsExportedAndSaysWhyNot() async throws {
            let fixture = try await Self.start()
            var run = try await fixture.ctl("open", "hive://a/rehearse?x=1", "y=2")
            #expect(run.status == 0 && run.stdout == "{\"x\":\"1\",\"y\":\"2\"}\n", "\(run)")
            run = try await fixture.ctl("perform", "a", "rehearse", "k=v", "n=3")
            #expect(run.status == 0 && run.stdout == "{\"k\":\"v\",\"n\":\"3\"}\n", "\(run)")
            run = try await fixture.ctl("--json", "perform", "a", "rehearse", "k=v")
            #expect(run.status == 0 && run.stdout == "{\"parameters\":{\"result\":{\"k\":\"v\"}}}\n", "\(run)")
            run = try await fixture.ctl("open", "hive://heartbeat/status")
            #expect(run.status == 0 && run.stdout == "{\"beating\":true,\"beats\":0,\"interval\":\"3600s\"}\n", "\(run)")
            run = try await fixture.ctl("perform", "heartbeat", "beats")
            #expect(run.status == 0 && run.stdout == "0\n", "\(run)")
            #expect(try Self.calls(fixture).map(\.params) == [["x": "1", "y": "2"], ["k": "v", "n": "3"], ["k": "v"]])

            // Not exported (67), not found (66): nothing is called.
            run = try await fixture.ctl("open", "hive://b/rehearse")
            #expect(run.status == 67, "\(run)")
            #expect(run.stderr == "not exported: route 'hive://b/rehearse' of module 'b' is not exported: only the daemon's own modules may open it\n")
            run = try await fixture.ctl("perform", "b", "rehearse")
            #expect(run.status == 67 && run.stderr.hasPrefix("not exported: action 'rehearse' of target 'b'"), "\(run)")
            run = try await fixture.ctl("perform", "heartbeat", "reset")
            #expect(run.status == 67, "\(run)")
            run = try await fixture.ctl("open", "hive://nowhere/at/all")
            #expect(run.status == 66 && run.stderr == "not found: no route matches 'hive://nowhere/at/all'\n", "\(run)")
            run = try await fixture.ctl("perform", "a", "nope")
            #expect(run.status == 66 && run.stderr.hasPrefix("not found: target 'a' has no action 'nope'"), "\(run)")
            run = try await fixture.ctl("open", "hive://a b")
            #expect(run.status == 66 && run.stderr.contains("malformed URL"), "\(run)")
            #expect(try Self.calls(fixture).count == 3)

            // Failed (70): the handler's message, or a result JSON cannot carry.
            run = try await fixture.ctl("open", "hive://a/rehearse", "fail=disk full")
            #expect(run.status == 70, "\(run)")
            #expect(run.stderr == "failed: module 'a': route 'hive://a/rehearse' failed for 'hive://a/rehearse': disk full\n")
            run = try await fixture.ctl("perform", "a", "rehearse", "opaque=true")
            #expect(run.status == 70 && run.stderr.contains("the result cannot be sent as JSON"), "\(run)")
            #expect(run.stderr.contains("a Opaque is not a string, number, boolean, array, map or Encodable value"), "\(run)")
            try await fixture.stop()
        }

        @Test func listingsSayWhatIsExported() async throws {
            let fixture = try await Self.start()
            let routes = try await fixture.ctl("routes")
            let rows = routes.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            #expect(rows.first == ["PATTERN", "SCHEME", "PRIORITY", "OWNER", "EXPORTED"], "\(routes)")
            #expect(rows.contains(["hive://a/rehearse", "hive", "0", "a", "yes"]), "\(routes)")
            #expect(rows.contains(["hive://b/rehearse", "hive", "0", "b", "no"]), "\(routes)")
            #expect(rows.contains(["hive://heartbeat/reset", "hive", "0", "heartbeat", "no"]), "\(routes)")
            let actions = try await fixture.reply("io.hivekit.Daemon.ListActions")["actions"] as? [[String: Any]] ?? []
            let exported = actions.map { "\($0["target"] ?? "").\($0["action"] ?? ""):\($0["exported"] as? Bool == true)" }
            #expect(Set(exported) == [
                "a.rehearse:true", "b.rehearse:false", "heartbeat.beats:true", "heartbeat.reset:false",
            ])
            try await fixture.stop()
        }

        @Test func anIndependentClientCallsThem() async throws {
            let fixture = try await Self.start()
            let opened = try await fixture.reply("io.hivekit.Daemon.OpenURL", ["url": "hive://a/rehearse", "parameters": ["x": "1"]])
            #expect(opened["handled"] as? Bool == true)
            #expect(opened["result"] as? [String: String] == ["x": "1"])
            let performed = try await fixture.reply("io.hivekit.Daemon.PerformAction", ["target": "heartbeat", "action": "beats"])
            #expect(performed["result"] as? Int == 0)
            let refused = try await fixture.call("io.hivekit.Daemon.PerformAction", ["target": "b", "action": "rehearse"])
            #expect(refused["error"] as? String == "io.hivekit.Daemon.NotExported", "\(refused)")
            let missing = try await fixture.call("io.hivekit.Daemon.OpenURL", ["url": "hive://nowhere"])
            #expect(missing["error"] as? String == "io.hivekit.Daemon.NotFound", "\(missing)")
            #expect((missing["parameters"] as? [String: Any])?["message"] as? String == "no route matches 'hive://nowhere'")
            let failed = try await fixture.call(
                "io.hivekit.Daemon.PerformAction", ["target": "a", "action": "rehearse", "parameters": ["fail": "disk full"]])
            #expect(failed["error"] as? String == "io.hivekit.Daemon.CallFailed", "\(failed)")
            let parameters = failed["parameters"] as? [String: Any]
            #expect(parameters?["module"] as? String == "a")
            #expect(parameters?["message"] as? String == "action 'rehearse' failed: disk full")
            try await fixture.stop()
        }

        @Test func aHandlerPastTheEventBudgetFailsInTimeAndIsCancelled() async throws {
            let fixture = try await Self.start()
            let socket = fixture.socket
            let (reply, elapsed) = try await blocking { () -> (String, Duration) in
                let client = try RawControlClient(socket)
                let start = ContinuousClock.now
                client.call("io.hivekit.Daemon.OpenURL", #"{"url":"hive://a/rehearse","parameters":{"stall":"30s"}}"#)
                let reply = try client.reply(timeout: .seconds(20))
                let elapsed = ContinuousClock.now - start
                let message = (reply["parameters"] as? [String: Any])?["message"] as? String ?? ""
                return ("\(reply["error"] ?? "no error"): \(message)", elapsed)
            }
            #expect(reply == "io.hivekit.Daemon.CallFailed: OpenURL 'hive://a/rehearse' did not return within the event budget of 1.0s; its task was cancelled")
            #expect(elapsed >= .seconds(1), "not before the budget: \(elapsed)")
            #expect(elapsed < .milliseconds(1100), "within the budget + 100 ms: \(elapsed)")
            // The handler's task was cancelled: its sleep ended early, and it said so.
            let file = try await ProbeFile.waitFor(fixture.events, timeout: .seconds(10), "the call's cancellation") {
                $0.event == "call-cancelled"
            }
            let call = try #require(file.lines.first { $0.event == "call" })
            let cancelled = try #require(file.lines.first { $0.event == "call-cancelled" })
            #expect(cancelled.time - call.time < .seconds(5), "cancelled, not slept out: \(cancelled.time - call.time)")
            // The daemon still answers, and a quick call succeeds.
            let quick = try await fixture.ctl("perform", "a", "rehearse", "ok=yes")
            #expect(quick.status == 0, "\(quick)")
            try await fixture.stop()
            #expect(fixture.hived.stderr.contains(
                "warning OpenURL 'hive://a/rehearse' from the control socket ran past the event budget of 1.0s; cancelled"),
                "\(fixture.hived.stderr)")
        }

        @Test func aCallWaitsBehindNoEvent() async throws {
            let fixture = try await Self.start()
            // b holds custom:slow (an event, delivered in turn) until `release` exists.
            let sender = Task { try await fixture.ctl("send", "slow") }
            _ = try await ProbeFile.waitFor(fixture.events, "b to hold custom:slow") { $0.module == "b" && $0.name == "slow" }
            let start = ContinuousClock.now
            let run = try await fixture.ctl("perform", "a", "rehearse", "during=slow")
            #expect(run.status == 0 && run.stdout == "{\"during\":\"slow\"}\n", "\(run)")
            #expect(ContinuousClock.now - start < .seconds(5), "answered while the event still runs")
            _ = FileManager.default.createFile(atPath: fixture.directory.file("release"), contents: nil)
            let sent = try await sender.value
            #expect(sent.status == 0, "\(sent)")
            try await fixture.stop()
        }

        @Test func aCallDuringAStopIsRefusedAsOtherCallsAre() async throws {
            let fixture = try await Self.start(stallingStop: true)
            fixture.hived.signal(SIGTERM)
            _ = try await ProbeFile.waitFor(fixture.events, "b to hold terminate") { $0.module == "b" && $0.event == "terminate" }
            let opened = try await fixture.call("io.hivekit.Daemon.OpenURL", ["url": "hive://a/rehearse"])
            #expect(opened["error"] as? String == "io.hivekit.Daemon.EventRefused", "\(opened)")
            #expect((opened["parameters"] as? [String: Any])?["message"] as? String == "the daemon is stopping")
            #expect((opened["parameters"] as? [String: Any])?["event"] as? String == "OpenURL")
            let sent = try await fixture.call("io.hivekit.Daemon.SendEvent", ["name": "late"])
            #expect((sent["parameters"] as? [String: Any])?["message"] as? String == "the daemon is stopping", "the same")
            let run = try await fixture.ctl("perform", "a", "rehearse")
            #expect(run.status == 1 && run.stderr.contains("the daemon is stopping"), "\(run)")
            #expect(try Self.calls(fixture).isEmpty, "nothing was called")
            _ = FileManager.default.createFile(atPath: fixture.directory.file("release"), contents: nil)
            #expect(try await fixture.hived.exitStatus() == 0)
        }

        @Test(.enabled(if: getuid() == 0, "needs root to run a client as another user"))
        func membersOfTheControlGroupMayCallAndOthersAreRefused() async throws {
            let fixture = try await Self.start(control: ", group: daemon")
            PeerTests.openUp(fixture, socketMode: 0o660)
            let member = try await fixture.call(
                "io.hivekit.Daemon.PerformAction", ["target": "a", "action": "rehearse", "parameters": ["by": "member"]],
                as: .nobody(withGroup: "daemon"))
            #expect((member["reply"] as? [String: Any])?["result"] as? [String: String] == ["by": "member"], "\(member)")
            let opened = try await fixture.call(
                "io.hivekit.Daemon.OpenURL", ["url": "hive://heartbeat/status"], as: .nobody(withGroup: "daemon"))
            #expect((opened["reply"] as? [String: Any])?["handled"] as? Bool == true, "\(opened)")

            PeerTests.openUp(fixture, socketMode: 0o666)
            let permission = #"hive_control_refused_total{reason="permission"}"#
            let before = try await RefusalTests.value(of: permission, in: fixture) ?? -1
            for method in ["OpenURL", "PerformAction"] {
                let parameters: [String: Any] = method == "OpenURL"
                    ? ["url": "hive://a/rehearse?by=nobody"] : ["target": "a", "action": "rehearse", "parameters": ["by": "nobody"]]
                let refused = try await fixture.call("io.hivekit.Daemon.\(method)", parameters, as: .nobody)
                #expect(refused["error"] as? String == "io.hivekit.Daemon.PermissionDenied", "\(refused)")
            }
            #expect(try await RefusalTests.value(of: permission, in: fixture) == before + 2)
            // Refusals are logged once per interval with a count: the first one now.
            try await waitUntil("the refusal to be logged", detail: { fixture.hived.stderr }) {
                fixture.hived.stderr.components(separatedBy: "refused uid 65534, pid ").count == 2
            }
            #expect(try Self.calls(fixture).map(\.params) == [["by": "member"]], "the refused calls ran nothing")
            try await fixture.stop()
        }
    }
}
