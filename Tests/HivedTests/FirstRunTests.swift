import Foundation
import HiveDaemon
@testable import hived
import Testing
import TestSupport

/// What a new user meets first: the documented example configuration runs from a fresh
/// clone, and means what the embedded default means.
@Suite struct FirstRunTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `scripts/run --config config/hived.yaml`: no `/var/lib/hived` needed, the probes
    /// write in `$STATE_DIRECTORY` as under systemd.
    @Test func theExampleConfigurationRunsWithItsFilesInTheStateDirectory() async throws {
        let directory = try TestDirectory()
        let config = Self.packageRoot.appendingPathComponent("config/hived.yaml").path
        let hived = try HivedProcess(["run", "--config", config], in: directory, environment: ["STATE_DIRECTORY": directory.path])
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0, "\(hived.stderr)")
        #expect(try ProbeFile(path: directory.file("store.events")).events.first == "store.setup")
        #expect(try ProbeFile(path: directory.file("worker.events")).events.last == "worker.teardown")
    }

    @Test func theExampleAndTheEmbeddedDefaultMapSignalsAlike() throws {
        let example = try DaemonConfiguration.load(path: Self.packageRoot.appendingPathComponent("config/hived.yaml").path)
        let embedded = try DaemonConfiguration.parse(EmbeddedConfiguration.yaml)
        #expect(example.signals == embedded.signals)
        #expect(embedded.signals[SIGUSR1] == .custom(name: "stats"))
        #expect(embedded.signals[SIGUSR2] == .custom(name: "rotate"))
    }
    /// The client `config/examples/echo-server.yaml` tells a new user to try is on this
    /// machine, and lines typed into it come back.
    @Test func theEchoExamplesClientIsHereAndEchoes() async throws {
        let example = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("config/examples/echo-server.yaml"), encoding: .utf8)
        let line = try #require(example.split(separator: "\n").first { $0.contains("type lines: each comes back") })
        let words = line.dropFirst().split(separator: "#").first?.split(separator: " ").map(String.init) ?? []
        let port = try Self.freePort()
        let directory = try TestDirectory()
        let config = try directory.write("echo.yaml", example.replacingOccurrences(of: "127.0.0.1:7070", with: "127.0.0.1:\(port)"))
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        try await hived.waitForReady()
        defer { hived.signal(SIGTERM) }
        let output = directory.file("client.out")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = words.map { $0.replacingOccurrences(of: "127.0.0.1:7070", with: "127.0.0.1:\(port)") }
        client.environment = ["PATH": "/usr/bin:/bin"]
        let input = Pipe()
        client.standardInput = input
        client.standardOutput = FileHandle(forWritingAtPath: output)
        client.standardError = FileHandle.nullDevice
        try client.run()
        defer { client.terminate() }
        input.fileHandleForWriting.write(Data("hello, hive\n".utf8))
        let deadline = ContinuousClock.now + .seconds(10)
        while (try? String(contentsOfFile: output, encoding: .utf8)) != "hello, hive\n" {
            #expect(client.isRunning, "\(words.joined(separator: " ")) ended (status \(client.terminationStatus))")
            guard client.isRunning, ContinuousClock.now < deadline else { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw TestFailure("cannot bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `config/examples/failing-init.yaml` says what each module receives, and hived's exit
    /// status: what a run of it shows.
    @Test func theFailingInitExampleSaysWhatARunShows() async throws {
        let path = Self.packageRoot.appendingPathComponent("config/examples/failing-init.yaml").path
        let comment = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .prefix { $0.hasPrefix("#") }.map { $0.dropFirst() }.joined(separator: " ")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(comment.contains("`last` receives setup and teardown only"), "\(comment)")
        #expect(comment.contains("hived exits 70"), "\(comment)")
        #expect(!comment.contains("never starts"), "\(comment)")
        let directory = try TestDirectory()
        let hived = try HivedProcess(["run", "--config", path], in: directory, environment: ["STATE_DIRECTORY": directory.path])
        #expect(try await hived.exitStatus() == 70, "\(hived.stderr)")
        func events(_ module: String) throws -> [String] { try ProbeFile(path: directory.file("\(module).events")).events }
        #expect(try events("last") == ["last.setup", "last.teardown"])
        #expect(try events("first") == ["first.setup", "first.init", "first.teardown"])
        #expect(try events("gate") == ["gate.setup", "gate.init"])
    }
}
