import Foundation
import TestSupport
import Testing

/// The echo-server across a restart through the descriptor store (``ServiceManagerSocket``
/// standing in for systemd's): what one process had read but not finished, and what it had
/// echoed but not yet written, reaches the client through the next process, byte for byte.
@Suite struct EchoRestartTests {
    /// hived with an echo-server on `path`, storing in `manager`'s store.
    static func start(
        _ directory: TestDirectory, _ manager: ServiceManagerSocket, path: String,
        passing passed: [(name: String, descriptor: Int32)] = []
    ) throws -> SpawnedHived {
        let config = try directory.write("hived.yaml", SocketActivationTests.echoConfig("{listen: \(path)}"))
        let hived = try SpawnedHived(
            ["run", "--config", config], in: directory, passing: passed,
            environment: ["NOTIFY_SOCKET": manager.path, "FDSTORE": "16"])
        passed.forEach { close($0.descriptor) }
        return hived
    }

    /// ``start(_:_:path:passing:)``, then a client that is echoed once, and returns when
    /// the connection is in the store (beside the listener).
    static func startEchoing(
        _ directory: TestDirectory, _ manager: ServiceManagerSocket, path: String
    ) async throws -> (SpawnedHived, client: Int32) {
        let hived = try start(directory, manager, path: path)
        try await manager.waitForReady()
        let client = try LineSocket.connect(to: path)
        #expect(LineSocket.echo("hello", on: client) == "hello")
        try await manager.waitForStore("the connection stored") { $0.count == 2 }
        return (hived, client)
    }

    /// Stops `hived` and starts the next one with what it stored, as systemd does at a
    /// restart; returns once the next one resumed its connections.
    static func restart(
        _ hived: SpawnedHived, _ directory: TestDirectory, _ manager: ServiceManagerSocket, path: String
    ) async throws -> SpawnedHived {
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let next = try start(directory, manager, path: path, passing: manager.storedDescriptors())
        try await next.waitForLog("resumed 1 connection")
        return next
    }

    /// Whether bytes wait unread in the server's end of the stored connection (a copy of it
    /// is in `manager`'s store).
    static func serverHasUnread(_ manager: ServiceManagerSocket) -> Bool {
        let stored = manager.storedDescriptors()
        defer { stored.forEach { close($0.descriptor) } }
        guard let server = stored.first(where: { $0.name.hasPrefix("echo/connection.") }) else { return true }
        var byte: UInt8 = 0
        return recv(server.descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    @Test("a line begun before a restart is finished after it: 'partial-', restart, 'rest' gives 'partial-rest'")
    func aPartialLineSurvivesARestart() async throws {
        let directory = try TestDirectory()
        let manager = try ServiceManagerSocket(directory: directory.path)
        let path = directory.file("echo.sock")
        let (first, client) = try await Self.startEchoing(directory, manager, path: path)
        defer { close(client) }

        #expect(send(client, "partial-", 8, Int32(MSG_NOSIGNAL)) == 8)
        try await waitUntil("hived to read 'partial-'") { !Self.serverHasUnread(manager) }
        let second = try await Self.restart(first, directory, manager, path: path)
        #expect(manager.messages.contains { $0.hasPrefix("FDSTORE=1\nFDNAME=echo/unfinished.") && $0.hasSuffix("\nFDPOLL=0") },
                "the first process carried the line's start: \(manager.messages)")
        #expect(LineSocket.echo("rest", on: client) == "partial-rest")
        try await manager.waitForStore("the carried bytes removed once taken") {
            !$0.contains { $0.hasPrefix("echo/unfinished.") }
        }
        #expect(LineSocket.echo("and on", on: client) == "and on")
        second.signal(SIGTERM)
        #expect(try await second.exitStatus() == 0)
    }

    @Test("output a client had not read when hived stopped reaches it from the next process, in order")
    func unsentOutputSurvivesARestart() async throws {
        let directory = try TestDirectory()
        let manager = try ServiceManagerSocket(directory: directory.path)
        let path = directory.file("echo.sock")
        let (first, client) = try await Self.startEchoing(directory, manager, path: path)
        defer { close(client) }

        // Lines, and no reading, until hived's output backs up (the socket takes no more of
        // it), hived stops reading (over 256 KiB unsent) and the client's writes block.
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        let lines = (0..<200_000).map { "line \($0)\n" }.joined()
        let bytes = Array(lines.utf8)
        var sent = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while sent < bytes.count, ContinuousClock.now < deadline {
            let count = bytes.withUnsafeBytes { send(client, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
                continue
            }
            guard errno == EAGAIN else { throw TestFailure("send: errno \(errno)") }
            // Blocked: hived may still be catching up. Once more than it may leave unsent
            // went out (256 KiB) and no write goes through for half a second, it has
            // stopped reading.
            var writable = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
            if poll(&writable, 1, 500) == 0, sent > 300 * 1024 { break }
        }
        #expect(sent > 300 * 1024 && sent < bytes.count, "sent \(sent) bytes before the writes blocked")
        // End the last line (sent may stop within one), as the client will once it can write.
        let end = bytes[sent...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? sent
        let expected = Array(bytes[..<end])

        let second = try await Self.restart(first, directory, manager, path: path)
        var received: [UInt8] = []
        var rest = Array(bytes[sent..<end])
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        try await waitUntil("every byte sent echoed", timeout: .seconds(30), detail: {
            "received \(received.count) of \(expected.count)"
        }) {
            if !rest.isEmpty {
                let count = rest.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count > 0 { rest.removeFirst(count) }
            }
            while true {
                let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                guard count > 0 else { break }
                received += buffer[..<count]
            }
            return received.count >= expected.count
        }
        #expect(received.count == expected.count)
        #expect(received == expected, "the echo differs from what was sent (first difference at byte \(zip(received, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1))")
        second.signal(SIGTERM)
        #expect(try await second.exitStatus() == 0)
    }
}
