import Foundation
import TestSupport

/// One of `Examples/MyDaemon`'s daemons running its `store` and `report` modules with the
/// control socket in a directory of its own, ready; logs on stderr.
struct ExampleWithControl {
    let directory: TestDirectory
    let socket: String
    let daemon: HivedProcess

    static func start(_ executable: URL) async throws -> ExampleWithControl {
        let directory = try TestDirectory()
        let socket = directory.file("control")
        let config = try directory.write("my.yaml", """
            control: {socket: \(socket)}
            modules:
              - {name: store, type: store, level: basic, settings: {greeting: hi}}
              - {name: report, type: report}
            """)
        let daemon = try HivedProcess(
            ["--config", config], in: directory, environment: ["MYDAEMON_LOG_TARGET": "stderr"], executable: executable)
        try await daemon.waitForReady()
        return ExampleWithControl(directory: directory, socket: socket, daemon: daemon)
    }
}
