import Foundation
import TestSupport
import Testing

extension ControlSocketTests {
    /// The socket file at start-up: a stale one left by a crash is replaced; a socket
    /// another process serves, or a file of another kind, is refused (exit 78) and left alone.
    @Suite struct SocketFileTests {
        /// Leaves a socket file at `path` as a crashed daemon does: bound and listened on,
        /// then closed without being unlinked, so nothing accepts connections on it.
        static func leaveStaleSocket(at path: String) throws {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
            defer { close(descriptor) }
            guard UnixAddress.with(path, { bind(descriptor, $0, $1) }) == 0, listen(descriptor, 1) == 0 else {
                throw TestFailure("bind \(path): errno \(errno)")
            }
        }

        /// The file at `path`: its kind and permission bits, and its inode.
        static func file(_ path: String) -> (type: mode_t, permissions: mode_t, inode: UInt)? {
            var status = stat()
            guard lstat(path, &status) == 0 else { return nil }
            return (status.st_mode & S_IFMT, status.st_mode & 0o7777, UInt(status.st_ino))
        }

        @Test func aStaleSocketFromACrashIsReplacedWithMode0660() async throws {
            let directory = try TestDirectory()
            let socket = directory.file("control")
            try Self.leaveStaleSocket(at: socket)
            chmod(socket, 0o777)
            #expect(Self.file(socket)?.type == S_IFSOCK)
            #expect(Self.file(socket)?.permissions == 0o777)
            let path = try directory.write("hived.yaml", ControlFixture.configuration(directory, modules: ["a"]))
            let hived = try HivedProcess(["run", "--config", path], in: directory)
            try await hived.waitForReady()
            let fixture = ControlFixture(directory: directory, hived: hived, socket: socket, configPath: path)
            let replaced = try #require(Self.file(socket))
            #expect(replaced.type == S_IFSOCK)
            #expect(replaced.permissions == 0o660, "mode \(String(replaced.permissions, radix: 8))")
            #expect(try await fixture.reply("io.hivekit.Daemon.GetStatus")["phase"] as? String == "running")
            try await fixture.stop()
        }

        @Test func aSocketAnotherDaemonServesIsRefusedAndLeftAlone() async throws {
            let fixture = try await ControlFixture.start(modules: ["a"])
            let served = try #require(Self.file(fixture.socket))
            // A second daemon configured with the same socket: it must not take it over.
            let other = try TestDirectory()
            let path = try other.write("hived.yaml", """
                control: {socket: \(fixture.socket)}
                modules:
                  - {name: b, type: probe, settings: {path: \(other.file("events"))}}
                """)
            let second = try HivedProcess(["run", "--config", path], in: other)
            #expect(try await second.exitStatus() == 78)
            #expect(
                second.stderr.contains("control socket: \(fixture.socket): another process serves this socket: Address already in use"),
                "\(second.stderr)")
            #expect(((try? ProbeFile(path: other.file("events")).events) ?? []).isEmpty, "the refused daemon started no module")
            // The first daemon's socket is still its own, and still answers.
            #expect(Self.file(fixture.socket)?.inode == served.inode)
            #expect(try await fixture.reply("io.hivekit.Daemon.GetStatus")["pid"] as? Int == Int(fixture.hived.pid))
            try await fixture.stop()
        }

        @Test func aFileThatIsNotASocketIsRefusedAndLeftAlone() async throws {
            let directory = try TestDirectory()
            let socket = try directory.write("control", "not a socket\n")
            let path = try directory.write("hived.yaml", ControlFixture.configuration(directory, modules: ["a"]))
            let hived = try HivedProcess(["run", "--config", path], in: directory)
            #expect(try await hived.exitStatus() == 78)
            #expect(
                hived.stderr.contains(
                    "control socket: \(socket): exists and is not a socket; remove it or choose another control.socket"),
                "\(hived.stderr)")
            #expect(try String(contentsOfFile: socket, encoding: .utf8) == "not a socket\n")
        }
    }
}
