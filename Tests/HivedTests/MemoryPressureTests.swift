import Foundation
import TestSupport
import Testing

/// systemd's memory pressure protocol (systemd.io/MEMORY_PRESSURE) as the built hived
/// follows it: `MEMORY_PRESSURE_WATCH` naming a FIFO or a socket the test writes to,
/// `MEMORY_PRESSURE_WRITE`, `/dev/null`, a bad path, and the rate limit.
@Suite(.serialized) struct MemoryPressureTests {
    static func config(_ events: String, interval: String = "1h") -> String {
        """
        log: {level: debug}
        memory_pressure: {interval: \(interval)}
        signals: {SIGUSR1: "custom:mark"}
        modules:
          - {name: a, type: probe, settings: {path: \(events)}}
          - {name: b, type: probe, async: true, settings: {path: \(events)}}
        """
    }

    @Test func aFifoWriteDeliversMemoryWarningToEveryModuleAtMostOncePerInterval() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let fifo = directory.file("pressure")
        #expect(mkfifo(fifo, 0o600) == 0)
        let path = try directory.write("hived.yaml", Self.config(events))
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["MEMORY_PRESSURE_WATCH": fifo])
        try await hived.waitForReady()
        // The watch starts once READY=1 is out; it logs this line once the FIFO is open.
        try await waitUntil("the watch on \(fifo)") { hived.stderr.contains("watching memory pressure: \(fifo)") }

        let writer = try FifoWriter(fifo)
        writer.write("pressure\n")
        let file = try await ProbeFile.waitFor(events, "memoryWarning for both modules", until: { file in
            file.modules(receiving: "memoryWarning").count == 2
        })
        let warnings = file.lines.filter { $0.event == "memoryWarning" }
        #expect(Set(warnings.map(\.module)) == ["a", "b"])
        #expect(warnings.allSatisfy { $0.params == ["source": "psi"] }, "\(warnings)")

        // Within the interval (1h) more pressure is dropped, not queued: each write is
        // seen (a debug line says so) and no further memoryWarning follows.
        for round in 1...3 {
            writer.write("more pressure\n")
            try await waitUntil("dropped warning \(round)") {
                hived.stderr.components(separatedBy: "within the interval: no memoryWarning").count - 1 >= round
            }
        }
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "mark") { $0.name == "mark" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).modules(receiving: "memoryWarning").count == 2)
    }

    /// `MEMORY_PRESSURE_WATCH` is input too: a device (always readable) is refused with a
    /// warning naming it, and no thread spins reading it.
    @Test func aDeviceIsRefusedNamingItAndNothingSpins() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", Self.config(directory.file("events")))
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["MEMORY_PRESSURE_WATCH": "/dev/zero"])
        try await hived.waitForReady()
        try await hived.waitForStderr(
            containing: "memory pressure not watched: /dev/zero: neither a PSI file, a FIFO nor a socket (a character device) (MEMORY_PRESSURE_WATCH)")
        #expect(hived.stderr.contains("warning"), "\(hived.stderr)")
        let cpu = try await ProcessUsage(pid: hived.pid).cpuTime(over: .seconds(2))
        #expect(cpu < .milliseconds(400), "hived used \(cpu) of CPU in 2 s")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func aReloadShortensTheIntervalAtOnce() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let fifo = directory.file("pressure")
        #expect(mkfifo(fifo, 0o600) == 0)
        let path = try directory.write("hived.yaml", Self.config(events))
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["MEMORY_PRESSURE_WATCH": fifo])
        let ready = try await hived.waitForReady()
        try await waitUntil("the watch on \(fifo)") { hived.stderr.contains("watching memory pressure: \(fifo)") }
        let writer = try FifoWriter(fifo)
        writer.write("1")
        _ = try await ProbeFile.waitFor(events, "first warning") { $0.event == "memoryWarning" }

        try directory.write("hived.yaml", Self.config(events, interval: "10ms"))
        hived.signal(SIGHUP)
        let reloaded = try await hived.waitForReady(after: ready + 1)
        let status = try #require(hived.notify).messages[reloaded]
        #expect(status.contains("new memory pressure interval"), "\(status)")
        // The new 10 ms interval runs from the first warning, which may be less than 10 ms
        // ago on a fast machine: write until a write lands after it (with the old hour,
        // none would within the timeout).
        try await waitUntil("a second warning to both modules") {
            writer.write("2")
            return try ProbeFile(path: events).modules(receiving: "memoryWarning").count >= 4
        }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func aSocketReceivesMemoryPressureWriteThenItsInputDeliversMemoryWarning() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let listener = try UnixListener(directory.file("pressure.sock"))
        let path = try directory.write("hived.yaml", Self.config(events))
        // "some 150000 2000000" in base64, as systemd would hand it.
        let trigger = "some 150000 2000000"
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory,
            environment: [
                "MEMORY_PRESSURE_WATCH": listener.path,
                "MEMORY_PRESSURE_WRITE": Data(trigger.utf8).base64EncodedString(),
            ])
        try await hived.waitForReady()
        let connection = try await listener.accept()
        #expect(try await connection.read(count: trigger.utf8.count) == trigger)
        connection.write("x")
        let file = try await ProbeFile.waitFor(events, "memoryWarning") { $0.event == "memoryWarning" }
        #expect(file.lines.first { $0.event == "memoryWarning" }?.params == ["source": "psi"])
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func devNullTurnsTheWatchOff() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", Self.config(events))
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["MEMORY_PRESSURE_WATCH": "/dev/null"])
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(hived.stderr.contains("memory pressure not watched: MEMORY_PRESSURE_WATCH turns it off"))
        #expect(!hived.stderr.contains("watching memory pressure"), "\(hived.stderr)")
    }

    @Test func aBadPathLogsOnceAndTheDaemonRunsOn() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let missing = directory.file("no-such-pressure-file")
        let path = try directory.write("hived.yaml", Self.config(events))
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["MEMORY_PRESSURE_WATCH": missing])
        try await hived.waitForReady()
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "mark") { $0.name == "mark" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let lines = hived.stderr.split(separator: "\n").filter { $0.contains(missing) }
        #expect(lines.count == 1, "\(hived.stderr)")
        #expect(lines.first?.contains("warning memory pressure not watched") == true, "\(lines)")
        #expect(lines.first?.contains("No such file or directory") == true, "\(lines)")
    }

    @Test func aRegularFileThatIsNotPsiIsRefused() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let plain = try directory.write("plain-file", "not pressure\n")
        let path = try directory.write("hived.yaml", Self.config(events))
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["MEMORY_PRESSURE_WATCH": plain])
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(hived.stderr.contains("\(plain): not a PSI file"), "\(hived.stderr)")
    }
}
