import Foundation
import TestSupport

/// hived running with its control socket in a test's own directory.
struct ControlFixture: Sendable {
    let directory: TestDirectory
    let hived: HivedProcess
    let socket: String
    let configPath: String

    /// The probe modules' event file.
    var events: String { directory.file("events") }

    /// A configuration with probe modules `modules` (recording to ``events``), the
    /// heartbeat and reporter demo modules, the WallClock service and `extra` keys.
    static func configuration(_ directory: TestDirectory, modules: [String], control: String = "", extra: String = "") -> String {
        let events = directory.file("events")
        var text = "budgets: {event: 5s, stop: 10s}\ncontrol: {socket: \(directory.file("control"))\(control)}\n\(extra)\nmodules:\n"
        for module in modules { text += "  - {name: \(module), type: probe, settings: {path: \(events)}}\n" }
        text += "  - {name: heartbeat, type: heartbeat, async: true, settings: {interval: 1h}}\n"
        text += "  - {name: reporter, type: reporter}\n"
        text += "services:\n  - {service: WallClock, implementation: SystemClock}\n"
        return text
    }

    /// Starts hived and waits for `READY=1`.
    static func start(modules: [String] = ["a", "b"], control: String = "", extra: String = "") async throws -> ControlFixture {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", configuration(directory, modules: modules, control: control, extra: extra))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        // Below the other tests' priority: they time hooks against budgets of 100 ms.
        lowerPriority(of: hived.pid)
        try await hived.waitForReady()
        return ControlFixture(directory: directory, hived: hived, socket: directory.file("control"), configPath: path)
    }

    /// A call through PyPI's varlink client: `["reply": …]` or `["error": …, "parameters": …]`.
    func call(_ method: String, _ parameters: [String: Any] = [:], as user: PeerIdentity? = nil) async throws -> [String: Any] {
        try await VarlinkPython.call(socket, method, parameters, as: user)
    }

    /// The reply's parameters; fails on an error reply.
    func reply(_ method: String, _ parameters: [String: Any] = [:]) async throws -> [String: Any] {
        let result = try await call(method, parameters)
        guard let reply = result["reply"] as? [String: Any] else { throw TestFailure("\(method): \(result)") }
        return reply
    }

    /// A subscriber (``VarlinkPython/subscribe(_:until:output:)``) writing to the returned
    /// file until `event`, once it is live: events sent before that are not streamed, so
    /// custom `ping` events are sent until one reaches it (perhaps more than one).
    func liveSubscriber(until event: String) async throws -> (Process, output: String) {
        let output = directory.file("subscriber")
        let subscriber = try VarlinkPython.subscribe(socket, until: event, output: output)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            _ = try await reply("io.hivekit.Daemon.SendEvent", ["name": "ping"])
            if ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("\"ping\"") {
                return (subscriber, output)
            }
        }
        subscriber.terminate()
        throw TestFailure("the subscriber received no event in 20 s")
    }

    /// Runs `hived ctl ARGUMENTS --socket SOCKET`; returns its exit status, stdout and stderr.
    func ctl(_ arguments: String...) async throws -> (status: Int32, stdout: String, stderr: String) {
        let socket = socket
        return try await blocking {
            let ctl = Process()
            ctl.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            ctl.arguments = ["-n", "10", HivedProcess.executable.path, "ctl"] + arguments + ["--socket", socket]
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

    /// The control connections hived holds: the entries of `/proc/net/unix` at ``socket``
    /// besides the listening one (accepted connections, and those waiting to be). Once
    /// clients hung up, this falls to 0 when hived has seen every hang-up and closed its end.
    var openConnections: Int {
        // Read to its end: `String(contentsOfFile:)` takes one read of a /proc file, its first
        // page, and the machine's other sockets may fill that.
        let data = FileHandle(forReadingAtPath: "/proc/net/unix")?.readDataToEndOfFile() ?? Data()
        let table = String(decoding: data, as: UTF8.self)
        return table.split(separator: "\n").count { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // Num RefCount Protocol Flags Type St Inode Path; the listener's flags are __SO_ACCEPTCON.
            return fields.count == 8 && fields[7] == socket && fields[3] != "00010000"
        }
    }

    /// Waits until hived closed every control connection whose client left (``openConnections`` is 0).
    func waitUntilConnectionsClosed() async throws {
        try await waitUntil("hived to close its control connections", detail: { "\(openConnections) open" }) {
            openConnections == 0
        }
    }

    /// Stops hived and expects a clean exit and the socket file gone.
    func stop() async throws {
        hived.signal(SIGTERM)
        let status = try await hived.exitStatus()
        guard status == 0 else { throw TestFailure("hived exited \(status): \(hived.stderr)") }
        guard !FileManager.default.fileExists(atPath: socket) else { throw TestFailure("the socket file is still there") }
    }
}
