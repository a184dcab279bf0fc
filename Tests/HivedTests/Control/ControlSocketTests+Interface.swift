import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// Every method of `io.hivekit.Daemon` and `org.varlink.service`, called through the
    /// independent Varlink client from PyPI.
    @Suite struct InterfaceTests {
        @Test func introspectionDescribesBothInterfacesAndTheyParse() async throws {
            let fixture = try await ControlFixture.start()
            let output = try await VarlinkPython.runInBackground([fixture.socket, "describe"])
            let described = try #require(output.first)
            let info = try #require(described["info"] as? [String: Any])
            #expect(info["product"] as? String == "hived")
            #expect(info["url"] as? String == "file:///usr/share/doc/hived/README.md", "the manual the package installs")
            #expect(info["interfaces"] as? [String] == ["org.varlink.service", "io.hivekit.Daemon"])
            let interfaces = try #require(described["interfaces"] as? [String: [String]])
            let daemon = try #require(interfaces["io.hivekit.Daemon"])
            for member in [
                "GetStatus", "GetProfile", "SendEvent", "Reload", "SetLogLevel", "ListRoutes", "ListActions",
                "ListServices", "Subscribe", "ConfigurationInvalid", "ReloadFailed", "PermissionDenied", "Module", "Stall",
                "Timing", "Failure",
            ] {
                #expect(daemon.contains(member), "io.hivekit.Daemon lacks \(member)")
            }
            #expect(interfaces["org.varlink.service"]?.contains("GetInterfaceDescription") == true)
            try await fixture.stop()
        }

        @Test func statusListsModulesInOrderWithTheirState() async throws {
            let fixture = try await ControlFixture.start()
            let status = try await fixture.reply("io.hivekit.Daemon.GetStatus")
            #expect(status["name"] as? String == "hived")
            #expect(status["version"] as? String == "0.1.0")
            #expect(status["pid"] as? Int == Int(fixture.hived.pid))
            #expect(status["phase"] as? String == "running")
            #expect((status["uptime_usec"] as? Int ?? 0) > 0)
            let modules = try #require(status["modules"] as? [[String: Any]])
            #expect(modules.map { $0["name"] as? String } == ["a", "b", "heartbeat", "reporter"])
            #expect(modules.map { $0["state"] as? String } == ["active", "active", "active", "active"])
            #expect(modules[0]["type"] as? String == "probe")
            #expect(modules[2]["async"] as? Bool == true)
            #expect(modules[0]["level"] as? String == "normal")
            #expect((status["stalled"] as? [Any])?.isEmpty == true)
            try await fixture.stop()
        }

        @Test func profileHasStartupBlameAndCriticalPath() async throws {
            let fixture = try await ControlFixture.start()
            let profile = try await fixture.reply("io.hivekit.Daemon.GetProfile")
            let startup = try #require(profile["startup"] as? [[String: Any]])
            #expect(startup.count == 8, "setup and init of four modules: \(startup)")
            #expect(Set(startup.compactMap { $0["event"] as? String }) == ["setup", "init"])
            let blame = try #require(profile["blame"] as? [[String: Any]])
            let totals = blame.compactMap { $0["total_usec"] as? Int }
            #expect(totals == totals.sorted(by: >), "blame is slowest first")
            #expect(blame.contains { $0["module"] as? String == "a" && $0["event"] as? String == "ready" && $0["calls"] as? Int == 1 })
            let path = try #require(profile["critical_path"] as? [[String: Any]])
            #expect(!path.isEmpty)
            try await fixture.stop()
        }

        @Test func sendEventReachesProbeModulesWithItsParameters() async throws {
            let fixture = try await ControlFixture.start()
            let reply = try await fixture.reply(
                "io.hivekit.Daemon.SendEvent", ["name": "rotate", "parameters": ["reason": "size", "max": "10"]])
            #expect(reply["delivered"] as? Int == 4)
            #expect((reply["failures"] as? [Any])?.isEmpty == true)
            // Answered once every module handled it: the probes' lines are already written.
            let lines = try ProbeFile(path: fixture.events).lines.filter { $0.name == "rotate" }
            #expect(lines.map(\.module) == ["a", "b"])
            #expect(lines.allSatisfy { $0.params == ["reason": "size", "max": "10"] })
            try await fixture.stop()
        }

        @Test func sendEventReportsAFailingModule() async throws {
            let directory = try TestDirectory()
            let events = directory.file("events")
            let path = try directory.write("hived.yaml", """
                control: {socket: \(directory.file("control"))}
                modules:
                  - {name: ok, type: probe, settings: {path: \(events)}}
                  - {name: bad, type: probe, settings: {path: \(events), fail_on: ["custom:boom"]}}
                """)
            let hived = try HivedProcess(["run", "--config", path], in: directory)
            try await hived.waitForReady()
            let result = try await VarlinkPython.call(directory.file("control"), "io.hivekit.Daemon.SendEvent", ["name": "boom"])
            let reply = try #require(result["reply"] as? [String: Any])
            #expect(reply["delivered"] as? Int == 2)
            let failures = try #require(reply["failures"] as? [[String: Any]])
            #expect(failures.count == 1)
            #expect(failures.first?["module"] as? String == "bad")
            #expect(failures.first?["event"] as? String == "custom:boom")
            hived.signal(SIGTERM)
            #expect(try await hived.exitStatus() == 0)
        }

        @Test func listingsNameTheOwnerModule() async throws {
            let fixture = try await ControlFixture.start()
            let routes = try #require(try await fixture.reply("io.hivekit.Daemon.ListRoutes")["routes"] as? [[String: Any]])
            #expect(routes.contains {
                $0["pattern"] as? String == "hive://heartbeat/reset" && $0["owner"] as? String == "heartbeat"
                    && $0["scheme"] as? String == "hive"
            })
            let actions = try #require(try await fixture.reply("io.hivekit.Daemon.ListActions")["actions"] as? [[String: Any]])
            #expect(actions.contains {
                $0["target"] as? String == "heartbeat" && $0["action"] as? String == "beats" && $0["urls"] as? Bool == false
            })
            let services = try #require(try await fixture.reply("io.hivekit.Daemon.ListServices")["services"] as? [[String: Any]])
            #expect(services.contains {
                $0["service"] as? String == "WallClock" && $0["lifetime"] as? String == "singleton"
                    && $0["implementation"] as? String == "SystemClock" && $0["owner"] == nil
            })
            try await fixture.stop()
        }

        @Test func setLogLevelAppliesAtOnceAndRejectsUnknownLevels() async throws {
            let fixture = try await ControlFixture.start()
            _ = try await fixture.reply("io.hivekit.Daemon.SetLogLevel", ["level": "debug"])
            _ = try await fixture.reply("io.hivekit.Daemon.SendEvent", ["name": "noisy"])
            let bad = try await fixture.call("io.hivekit.Daemon.SetLogLevel", ["level": "loud"])
            #expect(bad["error"] as? String == "org.varlink.service.InvalidParameter")
            #expect((bad["parameters"] as? [String: Any])?["parameter"] as? String == "level")
            try await fixture.stop()  // the log is complete once hived exited
            let log = fixture.hived.stderr
            #expect(!log.contains("ready: received"), "at info, the probes' debug lines are not written")
            #expect(log.contains("custom: received"), "once the level is debug, they are")
        }

        @Test func unknownMethodsInterfacesAndBadParametersGetStandardErrors() async throws {
            let fixture = try await ControlFixture.start()
            let socket = fixture.socket
            let errors = try await blocking { () -> [String] in
                let client = try RawControlClient(socket)
                func error(_ method: String, _ parameters: String = "{}") throws -> String {
                    client.call(method, parameters)
                    let reply = try client.reply()
                    let name = reply["error"] as? String ?? "none"
                    let parameter = (reply["parameters"] as? [String: Any])?["parameter"] as? String
                    return parameter.map { "\(name) \($0)" } ?? name
                }
                return [
                    try error("io.hivekit.Daemon.Explode"),
                    try error("com.example.Nothing.Call"),
                    try error("io.hivekit.Daemon.SendEvent", #"{"name":5}"#),
                    try error("io.hivekit.Daemon.SendEvent", #"{"name":"x","parameters":{"a":1}}"#),
                    try error("io.hivekit.Daemon.Subscribe"),
                    try error("org.varlink.service.GetInterfaceDescription", #"{"interface":"com.example.Nothing"}"#),
                    // A field the method does not take, or parameters that are not an object.
                    try error("io.hivekit.Daemon.GetStatus", #"{"verbose":true}"#),
                    try error("io.hivekit.Daemon.SendEvent", #"{"name":"x","params":{}}"#),
                    try error("io.hivekit.Daemon.Reload", #"{"file":"/etc/passwd"}"#),
                    try error("io.hivekit.Daemon.GetStatus", "[1]"),
                    try error("io.hivekit.Daemon.SetLogLevel", #""debug""#),
                    // The same connection still works.
                    try client.call("io.hivekit.Daemon.GetStatus") ? (client.reply()["phase"] as? String ?? "?") : "closed",
                ]
            }
            #expect(errors == [
                "org.varlink.service.MethodNotFound",
                "org.varlink.service.InterfaceNotFound",
                "org.varlink.service.InvalidParameter name",
                "org.varlink.service.InvalidParameter parameters",
                "org.varlink.service.ExpectedMore",
                "org.varlink.service.InterfaceNotFound",
                "org.varlink.service.InvalidParameter verbose",
                "org.varlink.service.InvalidParameter params",
                "org.varlink.service.InvalidParameter file",
                "org.varlink.service.InvalidParameter parameters",
                "org.varlink.service.InvalidParameter parameters",
                "running",
            ])
            try await fixture.stop()
        }

        @Test func metricsArePrometheusTextFedByTheProfiler() async throws {
            let fixture = try await ControlFixture.start()
            // Every series a scraper or alert rule names is there from the start, at 0.
            let fresh = Set(try await fixture.ctl("metrics").stdout.split(separator: "\n").map(String.init))
            let missing = ["applied", "invalid", "failed", "skipped"].filter { !fresh.contains(#"hive_reloads_total{result="\#($0)"} 0"#) }
            #expect(missing.isEmpty, "hive_reloads_total at 0 before any reload, for every result: missing \(missing)")
            for _ in 0..<3 { _ = try await fixture.reply("io.hivekit.Daemon.SendEvent", ["name": "tick"]) }
            try fixture.directory.write("hived.yaml", "modules: [{name: a, type: probe, priority: high}]\n")
            _ = try await fixture.call("io.hivekit.Daemon.Reload")
            let ctl = try await fixture.ctl("metrics")
            #expect(ctl.status == 0)
            let text = ctl.stdout
            let lines = Set(text.split(separator: "\n").map(String.init))
            for expected in [
                #"hive_handler_duration_seconds_count{module="a",event="custom"} 3"#,
                #"hive_handler_failures_total{module="b",event="custom"} 0"#,
                #"hive_events_total{event="custom"} 3"#,
                #"hive_events_total{event="ready"} 1"#,
                #"hive_reloads_total{result="invalid"} 1"#,
                #"hive_control_refused_total{reason="permission"} 0"#,
            ] {
                #expect(lines.contains(expected), "missing \(expected) in:\n\(text)")
            }
            #expect(text.contains("# TYPE hive_handler_duration_seconds histogram"))
            try await fixture.stop()
        }
    }
}
