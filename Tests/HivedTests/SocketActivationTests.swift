import Foundation
import TestSupport
import Testing

/// hived given sockets the way systemd gives them (`LISTEN_FDS`, `LISTEN_PID`,
/// `LISTEN_FDNAMES`) and a `NOTIFY_SOCKET` that keeps a descriptor store like systemd's:
/// the echo-server takes its socket by name, unclaimed sockets are closed, sockets meant
/// for another process are left alone, and a restart goes on echoing on the same
/// connection.
@Suite struct SocketActivationTests {
    static func echoConfig(_ settings: String) -> String {
        """
        environment: testing
        log: {level: debug}
        budgets: {event: 5s, stop: 10s}
        modules:
          - name: echo
            type: echo-server
            settings: \(settings)
        """
    }

    @Test("a passed socket reaches the echo-server by name; one nobody takes is logged and closed")
    func activatedSocketIsTakenByName() async throws {
        let directory = try TestDirectory()
        let web = try LineSocket.listen(at: directory.file("web.sock"))
        let extra = try LineSocket.listen(at: directory.file("extra.sock"))
        defer { close(web); close(extra) }
        let config = try directory.write("hived.yaml", Self.echoConfig("{socket: web}"))
        let hived = try SpawnedHived(
            ["run", "--config", config], in: directory, passing: [("web", web), ("extra", extra)])

        try await hived.waitForLog("closed socket 'extra' (fd 4): no module took it")
        #expect(hived.stderr.contains("received 2 descriptors from systemd: 'web' (fd 3), 'extra' (fd 4)"))
        #expect(!hived.holdsSocket(inode: LineSocket.inode(of: extra)), "hived closed its copy of 'extra'")
        #expect(hived.holdsSocket(inode: LineSocket.inode(of: web)))

        let client = try LineSocket.connect(to: directory.file("web.sock"))
        defer { close(client) }
        #expect(LineSocket.echo("hello over socket activation", on: client) == "hello over socket activation")
        #expect(LineSocket.echo("and again", on: client) == "and again")

        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test("LISTEN_PID of another process: the sockets are ignored, left open, and the log says so")
    func otherProcessSocketsAreIgnored() async throws {
        let directory = try TestDirectory()
        let web = try LineSocket.listen(at: directory.file("web.sock"))
        defer { close(web) }
        let config = try directory.write("hived.yaml", """
            environment: testing
            modules:
              - {name: probe, type: probe, settings: {path: \(directory.file("events"))}}
            """)
        let hived = try SpawnedHived(
            ["run", "--config", config], in: directory, passing: [("web", web)], listenPID: .other(1))
        try await hived.waitForLog("ignored LISTEN_FDS=1: meant for process 1, not this one (\(hived.pid))")
        _ = try await ProbeFile.waitFor(directory.file("events"), "ready") { $0.event == "ready" }
        #expect(hived.holdsSocket(inode: LineSocket.inode(of: web)), "not hived's to close")
        #expect(!hived.stderr.contains("closed socket"))
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test("a module asking for a socket that was not passed fails start-up, naming module and socket")
    func missingSocketFailsStart() async throws {
        let directory = try TestDirectory()
        let web = try LineSocket.listen(at: directory.file("web.sock"))
        defer { close(web) }
        let config = try directory.write("hived.yaml", Self.echoConfig("{socket: web}"))
        let hived = try SpawnedHived(
            ["run", "--config", config], in: directory, passing: [("web", web)], listenPID: .other(1))
        #expect(try await hived.exitStatus() == 70)
        #expect(hived.stderr.contains(
            "start failed, rolling back: module 'echo' (setup): no socket named 'web' was passed (none was passed)"),
            "\(hived.stderr)")
        #expect(!hived.stderr.contains("module 'echo': no socket"), "the module is named once: \(hived.stderr)")
    }

    @Test("malformed LISTEN_* variables for this process: no descriptor is used, and each is closed and named")
    func malformedVariablesCloseThePassedDescriptors() async throws {
        let directory = try TestDirectory()
        let web = try LineSocket.listen(at: directory.file("web.sock"))
        let extra = try LineSocket.listen(at: directory.file("extra.sock"))
        defer { close(web); close(extra) }
        let events = directory.file("events")
        let config = try directory.write("hived.yaml", """
            environment: testing
            modules:
              - {name: probe, type: probe, settings: {path: \(events)}}
            """)
        // Two descriptors, one name: sd_listen_fds_with_names refuses (EINVAL).
        let hived = try SpawnedHived(
            ["run", "--config", config], in: directory, passing: [("web", web), ("extra", extra)],
            environment: ["LISTEN_FDNAMES": "web"])
        _ = try await ProbeFile.waitFor(events, "ready") { $0.event == "ready" }
        // The log goes out on its own writer thread, which the probe's file may precede.
        try await hived.waitForLog("; none is used; closed fd 3, fd 4\n")
        #expect(hived.stderr.contains(
            "error cannot read the passed sockets (LISTEN_FDS=2, LISTEN_FDNAMES=web): sd_listen_fds_with_names: "),
            "\(hived.stderr)")
        #expect(hived.stderr.contains("; none is used; closed fd 3, fd 4\n"), "\(hived.stderr)")
        #expect(!hived.holdsSocket(inode: LineSocket.inode(of: web)), "hived closed its copy of fd 3")
        #expect(!hived.holdsSocket(inode: LineSocket.inode(of: extra)), "hived closed its copy of fd 4")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test("the listener and an open connection go to the store; the next hived goes on echoing on them")
    func restartKeepsTheConnection() async throws {
        let directory = try TestDirectory()
        let manager = try ServiceManagerSocket(directory: directory.path)
        let path = directory.file("echo.sock")
        let config = try directory.write("hived.yaml", Self.echoConfig("{listen: \(path)}"))
        let environment = ["NOTIFY_SOCKET": manager.path, "FDSTORE": "16"]
        let first = try SpawnedHived(["run", "--config", config], in: directory, passing: [], environment: environment)
        try await manager.waitForReady()
        #expect(manager.storedNames == ["echo/listener"])

        let client = try LineSocket.connect(to: path)
        defer { close(client) }
        #expect(LineSocket.echo("before the restart", on: client) == "before the restart")
        try await manager.waitForStore("the connection stored") { $0.count == 2 && $0[1].hasPrefix("echo/connection.") }
        let stored = manager.storedNames

        first.signal(SIGTERM)
        #expect(try await first.exitStatus() == 0)
        #expect(manager.storedNames == stored, "a stop removes nothing from the store")

        // What systemd does at a restart: the stored descriptors, with their names.
        let passed = manager.storedDescriptors()
        let second = try SpawnedHived(["run", "--config", config], in: directory, passing: passed, environment: environment)
        passed.forEach { close($0.descriptor) }
        try await second.waitForLog("listener restored from the descriptor store; resumed 1 connection")
        #expect(LineSocket.echo("after the restart, same connection", on: client) == "after the restart, same connection")

        let newcomer = try LineSocket.connect(to: path)
        #expect(LineSocket.echo("a new client", on: newcomer) == "a new client")
        close(newcomer)
        close(client)
        try await manager.waitForStore("both clients removed from the store") { $0 == ["echo/listener"] }

        second.signal(SIGTERM)
        #expect(try await second.exitStatus() == 0)
    }

    @Test("echo-server settings are checked at their line; the shipped example is valid")
    func settingsAreChecked() async throws {
        let directory = try TestDirectory()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let example = root.appendingPathComponent("config/examples/echo-server.yaml").path
        let good = try HivedProcess(["check-config", example], in: directory, notify: false)
        #expect(try await good.exitStatus() == 0, "\(good.stderr)")

        for (settings, message) in [
            ("{listen: 'localhost:80'}", "setting 'listen' must be HOST:PORT"),
            ("{socket: web, listen: /run/x.sock}", "setting 'listen' cannot be given together with 'socket'"),
            ("{}", "setting 'socket' or 'listen' is required"),
            ("{sockets: web}", "unknown setting 'sockets'"),
        ] {
            let config = try directory.write("bad.yaml", Self.echoConfig(settings))
            let bad = try HivedProcess(["check-config", config], in: directory, notify: false)
            #expect(try await bad.exitStatus() == 78)
            #expect(bad.stderr.contains("bad.yaml:7: module 'echo': \(message)"), "\(bad.stderr)")
        }
    }

    @Test("a reload that changes 'listen' moves the listener, replacing it in the store")
    func reloadMovesTheListener() async throws {
        let directory = try TestDirectory()
        let manager = try ServiceManagerSocket(directory: directory.path)
        let config = directory.file("hived.yaml")
        try directory.write("hived.yaml", Self.echoConfig("{listen: \(directory.file("a.sock"))}"))
        let hived = try SpawnedHived(
            ["run", "--config", config], in: directory, passing: [],
            environment: ["NOTIFY_SOCKET": manager.path, "FDSTORE": "16"])
        try await manager.waitForReady()
        let before = try LineSocket.connect(to: directory.file("a.sock"))
        defer { close(before) }
        #expect(LineSocket.echo("on a", on: before) == "on a")

        try directory.write("hived.yaml", Self.echoConfig("{listen: \(directory.file("b.sock"))}"))
        hived.signal(SIGHUP)
        try await hived.waitForLog("echoing lines on \(directory.file("b.sock")) (listener opened and stored)")
        let after = try LineSocket.connect(to: directory.file("b.sock"))
        defer { close(after) }
        #expect(LineSocket.echo("on b", on: after) == "on b")
        #expect(LineSocket.echo("still on a", on: before) == "still on a", "open connections stay")
        try await manager.waitForStore("one listener, two connections") { names in
            names.filter { $0 == "echo/listener" }.count == 1 && names.count == 3
        }
        #expect(manager.messages.contains("FDSTOREREMOVE=1\nFDNAME=echo/listener"))
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test("without a descriptor store the echo-server says why and still echoes")
    func noStoreStillEchoes() async throws {
        let directory = try TestDirectory()
        let path = directory.file("echo.sock")
        let config = try directory.write("hived.yaml", Self.echoConfig("{listen: \(path)}"))
        let hived = try SpawnedHived(["run", "--config", config], in: directory, passing: [])
        try await hived.waitForLog("echoing lines on \(path) (listener opened)")
        #expect(hived.stderr.contains("will not survive a restart"), "\(hived.stderr)")
        #expect(hived.stderr.contains("no NOTIFY_SOCKET"), "\(hived.stderr)")
        let client = try LineSocket.connect(to: path)
        defer { close(client) }
        #expect(LineSocket.echo("no store", on: client) == "no store")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }
}
