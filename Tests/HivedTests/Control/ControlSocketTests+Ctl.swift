import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// `hived ctl` as an operator uses it: in a pipe, with its options anywhere.
    @Suite struct CtlTests {
        /// `hived ctl ARGUMENTS` (nothing added) with its stdout on a pipe.
        static func startCtl(_ arguments: [String]) throws -> (Process, Pipe) {
            let ctl = Process()
            ctl.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            ctl.arguments = ["-n", "10", HivedProcess.executable.path, "ctl"] + arguments
            let output = Pipe()
            ctl.standardOutput = output
            ctl.standardError = FileHandle.nullDevice
            try ctl.run()
            return (ctl, output)
        }

        /// Runs `hived ctl ARGUMENTS` with `environment` (and PATH alone besides) to its end.
        static func runCtl(_ arguments: [String], environment: [String: String]) async throws
            -> (status: Int32, stdout: String, stderr: String)
        {
            try await blocking {
                let ctl = Process()
                ctl.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
                ctl.arguments = ["-n", "10", HivedProcess.executable.path, "ctl"] + arguments
                ctl.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { _, new in new }
                let (output, errors) = (Pipe(), Pipe())
                ctl.standardOutput = output
                ctl.standardError = errors
                try ctl.run()
                let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                ctl.waitUntilExit()
                return (ctl.terminationStatus, stdout, stderr)
            }
        }

        /// Whether `descriptor` has something to read within `milliseconds`.
        static func readable(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            return poll(&descriptors, 1, milliseconds) > 0
        }

        @Test func optionsWorkBeforeTheSubcommandToo() async throws {
            let fixture = try await ControlFixture.start()
            let (ctl, output) = try Self.startCtl(["--json", "--socket", fixture.socket, "status"])
            let text = try await blocking { () -> String in
                let data = output.fileHandleForReading.readDataToEndOfFile()
                ctl.waitUntilExit()
                return String(decoding: data, as: UTF8.self)
            }
            #expect(ctl.terminationStatus == 0)
            let reply = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect((reply?["parameters"] as? [String: Any])?["phase"] as? String == "running", "\(text)")
            try await fixture.stop()
        }

        @Test func routesListPatternSchemePriorityAndOwner() async throws {
            let fixture = try await ControlFixture.start()
            let routes = try await Self.runCtl(["--socket", fixture.socket, "routes"], environment: [:])
            #expect(routes.status == 0, "\(routes.stderr)")
            let rows = routes.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            #expect(rows.first == ["PATTERN", "SCHEME", "PRIORITY", "OWNER", "EXPORTED"], "\(routes.stdout)")
            #expect(rows.contains(["hive://heartbeat/reset", "hive", "0", "heartbeat", "no"]), "\(routes.stdout)")
            try await fixture.stop()
        }

        /// The unit's `ExecReload=hived ctl reload` with `control: {enabled: false}` (or a
        /// `control.socket` elsewhere): systemd's `MAINPID` lets ctl fall back to `SIGHUP`.
        @Test func reloadUnderSystemdFallsBackToSIGHUPWhenTheSocketIsOff() async throws {
            let directory = try TestDirectory()
            let events = directory.file("events")
            let path = try directory.write(
                "hived.yaml", "control: {enabled: false}\nmodules:\n  - {name: a, type: probe, settings: {path: \(events)}}\n")
            let hived = try HivedProcess(["run", "--config", path], in: directory, environment: ["RUNTIME_DIRECTORY": directory.path])
            let notify = try #require(hived.notify)
            try await hived.waitForReady()
            #expect(!FileManager.default.fileExists(atPath: directory.file("control")), "control: {enabled: false} serves no socket")

            // An operator's ctl: no socket, exit 69, naming it.
            let plain = try await Self.runCtl(["reload"], environment: ["RUNTIME_DIRECTORY": directory.path])
            #expect(plain.status == 69)
            #expect(plain.stderr == "hived is not running or the control socket is off: \(directory.file("control")): No such file or directory\n")

            // systemd's ExecReload= sets MAINPID: the daemon reloads through SIGHUP instead.
            let before = notify.messages.count
            let unit = try await Self.runCtl(["reload"], environment: ["RUNTIME_DIRECTORY": directory.path, "MAINPID": "\(hived.pid)"])
            #expect(unit.status == 0, "\(unit)")
            #expect(unit.stderr.contains("sent SIGHUP to pid \(hived.pid) instead"), "\(unit.stderr)")
            try await hived.waitForReady(after: before)
            #expect(notify.stateMessages.contains { $0.hasPrefix("RELOADING=1") })
            #expect(try ProbeFile(path: events).modules(receiving: "reload") == ["a"])
            hived.signal(SIGTERM)
            #expect(try await hived.exitStatus() == 0)
        }

        @Test func usageErrorsSayWhatIsWrongBeforeAnythingIsSent() async throws {
            let level = try await Self.runCtl(["log-level", "loud", "--socket", "/nonexistent/control"], environment: [:])
            #expect(level.status == 64)
            #expect(level.stderr.contains("'loud' is not a log level: trace, debug, info, notice, warning, error or critical"), "\(level.stderr)")
            let socket = try await Self.runCtl(["status", "--socket", ""], environment: [:])
            #expect(socket.status == 64)
            #expect(socket.stderr.contains("--socket needs a path"), "\(socket.stderr)")
        }

        @Test func eventsFollowWritesEachLineAsItHappensIntoAPipe() async throws {
            let fixture = try await ControlFixture.start()
            let (ctl, output) = try Self.startCtl(["events", "--follow", "--socket", fixture.socket])
            defer { if ctl.isRunning { ctl.terminate() } }
            // Events sent before the subscription is live are not streamed: send one at a time
            // until a line comes. Twelve events print about 1.5 KB, less than a pipe's stdio
            // buffer: only a flush after each line gets them out.
            let descriptor = output.fileHandleForReading.fileDescriptor
            var streamed = false
            for _ in 0..<12 where !streamed {
                _ = try await fixture.reply("io.hivekit.Daemon.SendEvent", ["name": "ping"])
                streamed = try await blocking { Self.readable(descriptor, within: 1000) }
            }
            #expect(streamed, "ctl events --follow wrote nothing to its pipe while events were delivered")
            if streamed {
                let text = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                #expect(text.contains("custom:ping"), "\(text)")
            }
            ctl.terminate()
            try await fixture.stop()
        }
    }
}
