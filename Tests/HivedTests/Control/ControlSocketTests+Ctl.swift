import Foundation
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
