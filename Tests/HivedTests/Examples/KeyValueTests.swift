import Foundation
import TestSupport
import Testing

/// `Examples/KeyValue`: kvd, an HTTP key-value daemon whose Hummingbird server runs as a
/// ServiceModule, driven as systemd and an HTTP client (curl) would.
@Suite(.enabled(
    if: ExampleBinary.isAvailable(product: "kvd"),
    "Examples/KeyValue is not built (swift build --package-path Examples/KeyValue; scripts/test builds it)"))
struct KeyValueTests {
    static let executable = ExampleBinary.url(product: "kvd")

    static func configuration(snapshot: String, node: String) -> String {
        """
        signals: {SIGUSR1: "custom:snapshot"}
        modules:
          - {name: store, type: store, level: basic, settings: {snapshot: \(snapshot)}}
          - {name: responses, type: responses, level: basic, settings: {node: \(node)}}
          - {name: http, type: http, settings: {host: 127.0.0.1, port: 0}}
        """
    }

    @Test func servesReloadsSnapshotsAndStopsInOrder() async throws {
        let directory = try TestDirectory()
        let snapshot = directory.file("store.snapshot")
        let config = try directory.write("kvd.yaml", Self.configuration(snapshot: snapshot, node: "kv-1"))
        let kvd = try HivedProcess(
            ["--config", config], in: directory, environment: ["KVD_LOG_TARGET": "stderr"], executable: Self.executable)
        try await kvd.waitForReady()
        #expect(kvd.notify?.stateMessages.first { $0.hasPrefix("READY=1") } == "READY=1\nSTATUS=running 3 modules")
        // READY=1 came after the server listened; the line saying so goes out on the log's
        // own writer thread, which may come second.
        try await kvd.waitForStderr(containing: "[http] init: listening on ")
        let port = try #require(Self.port(in: kvd.stderr), "\(kvd.stderr)")
        let base = "http://127.0.0.1:\(port)"

        #expect(try await HTTP.request("PUT", "\(base)/kv/greeting", body: "hello world").status == 204)
        let got = try await HTTP.request("GET", "\(base)/kv/greeting")
        #expect(got.status == 200 && got.body == "hello world")
        #expect(got.headers["x-kv-node"] == "kv-1")
        #expect(try await HTTP.request("GET", "\(base)/kv/missing").status == 404)
        #expect(try await HTTP.request("GET", "\(base)/stats").body == "{\"keys\":1}", "the action store.count")

        // A reload changes the response header live; the server keeps its port.
        try directory.write("kvd.yaml", Self.configuration(snapshot: snapshot, node: "kv-2"))
        let before = kvd.notify?.messages.count ?? 0
        kvd.signal(SIGHUP)
        let reloading = try await kvd.notify!.waitFor(after: before, "RELOADING=1") { $0.hasPrefix("RELOADING=1") }
        try await kvd.waitForReady(after: reloading)
        #expect(try await HTTP.request("GET", "\(base)/kv/greeting").headers["x-kv-node"] == "kv-2")

        // SIGUSR1 (custom:snapshot) writes the store to its file, through the route.
        #expect(try await HTTP.request("PUT", "\(base)/kv/second", body: "2").status == 204)
        kvd.signal(SIGUSR1)
        try await ExampleCommand.waitFor(kvd, "snapshot of 2 keys (custom event)")
        #expect(try String(contentsOfFile: snapshot, encoding: .utf8) == "greeting\thello world\nsecond\t2\n")
        #expect(try await HTTP.request("DELETE", "\(base)/kv/second").status == 204)
        #expect(try await HTTP.request("POST", "\(base)/snapshot").status == 204)
        try await ExampleCommand.waitFor(kvd, "snapshot of 1 keys (http)")

        kvd.signal(SIGTERM)
        #expect(try await kvd.exitStatus() == 0, "\(kvd.stderr)")
        let log = kvd.stderr
        let serverStopped = try #require(log.range(of: "[http] teardown: service stopped"), "\(log)")
        let storeClosed = try #require(log.range(of: "[store] teardown: store closed: 1 keys in \(snapshot)"), "\(log)")
        #expect(serverStopped.lowerBound < storeClosed.lowerBound, "the server shuts down before the store closes")
        #expect(try await HTTP.request("GET", "\(base)/stats").status == 0, "nothing listens any more")
    }

    @Test func theSnapshotIsReadAtTheNextStart() async throws {
        let directory = try TestDirectory()
        let snapshot = try directory.write("store.snapshot", "kept\tacross restarts\n")
        let config = try directory.write("kvd.yaml", Self.configuration(snapshot: snapshot, node: "kv-1"))
        let kvd = try HivedProcess(
            ["--config", config], in: directory, environment: ["KVD_LOG_TARGET": "stderr"], executable: Self.executable)
        try await kvd.waitForReady()
        try await kvd.waitForStderr(containing: "[http] init: listening on ")
        let port = try #require(Self.port(in: kvd.stderr))
        #expect(try await HTTP.request("GET", "http://127.0.0.1:\(port)/kv/kept").body == "across restarts")
        kvd.signal(SIGTERM)
        #expect(try await kvd.exitStatus() == 0)
    }

    @Test func aPortInUseFailsTheStartNamingTheModule() async throws {
        let directory = try TestDirectory()
        let first = try HivedProcess(
            ["--config", try directory.write("a.yaml", Self.configuration(snapshot: directory.file("a"), node: "a"))],
            in: directory, environment: ["KVD_LOG_TARGET": "stderr"], executable: Self.executable)
        try await first.waitForReady()
        // The log line goes out on its own writer thread: READY=1 may come first.
        try await first.waitForStderr(containing: "[http] init: listening on ")
        let port = try #require(Self.port(in: first.stderr))
        let other = try TestDirectory()
        let busy = Self.configuration(snapshot: other.file("b"), node: "b").replacingOccurrences(of: "port: 0", with: "port: \(port)")
        let second = try HivedProcess(
            ["--config", try other.write("b.yaml", busy)], in: other,
            environment: ["KVD_LOG_TARGET": "stderr"], executable: Self.executable)
        #expect(try await second.exitStatus() == 70)
        #expect(second.stderr.contains("module 'http' (init)"), "\(second.stderr)")
        #expect(second.notify?.messages.contains { $0.hasPrefix("READY=1") } == false)
        first.signal(SIGTERM)
        #expect(try await first.exitStatus() == 0)
    }

    /// The port of `listening on HOST:PORT`.
    static func port(in log: String) -> Int? {
        // `[http] init: listening on …`: the module's line carries the event it is logged in.
        guard let line = log.split(separator: "\n").first(where: { $0.contains("[http] init: listening on ") }),
            let colon = line.lastIndex(of: ":")
        else { return nil }
        return Int(line[line.index(after: colon)...])
    }
}

/// kvd's own unit, hardened like hived's.
@Suite struct KeyValueUnitTests {
    static let unit = ExampleBinary.root.appendingPathComponent("Examples/KeyValue/kvd.service")

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "no systemd-analyze"))
    func theUnitVerifiesAndScoresAtMostTwo() async throws {
        let directory = try TestDirectory()
        // verify checks that ExecStart= exists: point it at a file that does.
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/kvd", with: "/bin/true")
        let unit = try directory.write("kvd.service", text)
        let verify = try await ExampleCommand.run(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", unit])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
        let security = try await ExampleCommand.run(
            URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["security", "--offline=yes", "--threshold=20", unit])
        #expect(security.status == 0, "\(security.stdout)")
        #expect(security.stdout.contains("Overall exposure level for kvd.service: 1."), "\(security.stdout)")
    }

    /// The directives of `unit` that sandbox the service, as `Key=Value` lines.
    static func sandboxing(_ unit: URL) throws -> Set<String> {
        let prefixes = [
            "Protect", "Private", "Restrict", "ProcSubset", "NoNewPrivileges", "CapabilityBoundingSet",
            "AmbientCapabilities", "LockPersonality", "MemoryDenyWriteExecute", "RemoveIPC", "SystemCall", "UMask",
        ]
        return Set(try String(contentsOf: unit, encoding: .utf8).split(separator: "\n").map(String.init).filter { line in
            prefixes.contains { line.hasPrefix($0) }
        })
    }

    /// hived's unit leaves `ProcSubset=pid` out so that the daemon can read
    /// `/proc/pressure/memory` (memory pressure under systemd 252); kvd runs the same daemon
    /// layer and needs the same.
    @Test func theUnitIsSandboxedExactlyAsHivedsIs() throws {
        let hived = try Self.sandboxing(ExampleBinary.root.appendingPathComponent("packaging/hived.service"))
        let kvd = try Self.sandboxing(Self.unit)
        #expect(!hived.isEmpty)
        #expect(kvd == hived, "only in kvd's: \(kvd.subtracting(hived)); only in hived's: \(hived.subtracting(kvd))")
    }
}
