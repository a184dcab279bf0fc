import Foundation
import TestSupport

/// A D-Bus daemon of the test's own, on a Unix socket in the test directory, that a hived
/// can be given as its system bus (`DBUS_SYSTEM_BUS_ADDRESS`): nothing owns
/// `org.freedesktop.login1` on it unless a ``FakeLogind`` joins.
final class PrivateBus: @unchecked Sendable {
    // @unchecked: `process` is only touched through Foundation's thread-safe Process API.
    private let process = Process()
    /// The bus's address (`unix:path=…`).
    let address: String

    init(in directory: TestDirectory) async throws {
        let socket = directory.file("bus")
        let config = try directory.write("bus.conf", """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>custom</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """)
        address = "unix:path=\(socket)"
        let printed = directory.file("bus.address")
        _ = FileManager.default.createFile(atPath: printed, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"]
        process.standardOutput = FileHandle(forWritingAtPath: printed)
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try SystemdSignalMask.spawning { try process.run() }
        // dbus-daemon prints its address once it listens.
        try await waitUntil("dbus-daemon to listen on \(socket)") {
            (try? String(contentsOfFile: printed, encoding: .utf8))?.contains("unix:") == true
        }
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}
