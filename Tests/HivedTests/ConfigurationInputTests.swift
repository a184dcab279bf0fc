import Foundation
import TestSupport
import Testing

/// Configuration input that cannot hang or hurt the daemon: FIFOs, half-written files, an
/// alias bomb, values that would forge log lines.
@Suite(.serialized) struct ConfigurationInputTests {
    @Test func aFifoAsTheConfigurationAtStartIsRefusedAtOnce() async throws {
        let directory = try TestDirectory()
        let fifo = directory.file("hived.yaml")
        #expect(mkfifo(fifo, 0o600) == 0)
        let hived = try HivedProcess(["run", "--config", fifo], in: directory)
        // Were the FIFO opened for reading, hived would wait for a writer, ignoring SIGTERM.
        #expect(try await hived.exitStatus(timeout: .seconds(10)) == 78)
        #expect(hived.stderr.contains("\(fifo): cannot read configuration file: not a regular file (a FIFO)"), "\(hived.stderr)")
    }

    @Test func aFifoAsTheConfigurationAtReloadIsRejectedWithReady() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", "modules: [{name: a, type: probe, settings: {path: \(events)}}]\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let ready = try await hived.waitForReady()
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        hived.signal(SIGHUP)
        let again = try await hived.waitForReady(after: ready + 1, timeout: .seconds(10))
        let status = try #require(hived.notify?.messages[again])
        #expect(status.contains("STATUS=reload failed, previous configuration still running: \(path): cannot read configuration file: not a regular file (a FIFO)"), "\(status)")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).events == ["a.setup", "a.init", "a.ready", "a.terminate", "a.teardown"])
    }

    @Test func truncatedFilesNeverRemoveEveryModule() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let full = """
            budgets: {event: 5s, stop: 10s}
            modules:
              - name: a
                type: probe
                settings: {path: \(events)}
              - name: b
                type: probe
                settings: {path: \(events)}
            signals: {SIGUSR1: "custom:x"}

            """
        let path = try directory.write("hived.yaml", full)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        var seen = try await hived.waitForReady()
        var applied = 0
        var refusedAsEmpty = 0
        // Every cut of the file, as a reload that caught it half-written would read it.
        for cut in stride(from: 1, to: full.utf8.count, by: 2) {
            try directory.write("hived.yaml", String(decoding: Array(full.utf8.prefix(cut)), as: UTF8.self))
            hived.signal(SIGHUP)
            seen = try await hived.waitForReady(after: seen + 1, timeout: .seconds(10))
            let status = try #require(hived.notify?.messages[seen])
            if status.contains("STATUS=reloaded") { applied += 1 }
            if status.contains("which would remove every running module") { refusedAsEmpty += 1 }
        }
        try directory.write("hived.yaml", full)
        hived.signal(SIGHUP)
        try await hived.waitForReady(after: seen + 1)
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(refusedAsEmpty > 0, "cuts right after 'modules:' are refused")
        // Replay the probe file up to the final stop: some module was always running.
        let lines = try ProbeFile(path: events).lines
        let stop = lines.firstIndex { $0.event == "terminate" } ?? lines.endIndex
        var running: Set<String> = []
        var emptied = false
        for line in lines[..<stop] {
            if line.event == "init" { running.insert(line.module) }
            if line.event == "teardown" { running.remove(line.module) }
            if running.isEmpty, line.event == "teardown" { emptied = true }
        }
        #expect(!emptied, "no applied reload removed every module (\(applied) cuts applied)")
    }

    @Test func modulesEmptyOnPurposeRemovesEveryModule() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", "modules: [{name: a, type: probe, settings: {path: \(events)}}]\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let ready = try await hived.waitForReady()
        try directory.write("hived.yaml", "modules:\n")
        hived.signal(SIGHUP)
        let refused = try await hived.waitForReady(after: ready + 1)
        #expect(hived.notify?.messages[refused].contains("write `modules: []` if that is meant") == true)
        try directory.write("hived.yaml", "modules: []\n")
        hived.signal(SIGHUP)
        let emptied = try await hived.waitForReady(after: refused + 1)
        #expect(hived.notify?.messages[emptied].contains("removed a") == true, "\(hived.notify?.messages ?? [])")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).events.suffix(2) == ["a.teardown", "a.unmount"])
    }

    /// The binary the contract's figures are for: the packaged (static release) build that
    /// `scripts/test` names in `HIVED_PACKAGED_BINARY`, else this build's debug binary,
    /// about three times slower.
    static var measuredBinary: (path: String, timeLimit: Duration) {
        if let packaged = ProcessInfo.processInfo.environment["HIVED_PACKAGED_BINARY"], !packaged.isEmpty {
            return (packaged, .seconds(1))
        }
        return (HivedProcess.executable.path, .seconds(3))
    }

    @Test func checkConfigOfAHostileMebibyteTakesUnderASecondAndUnder100MiB() async throws {
        let directory = try TestDirectory()
        let (binary, timeLimit) = Self.measuredBinary
        for shape in HostileConfiguration.shapes(bytes: 1 << 20 - 1024) {
            let path = try directory.write("hostile.yaml", shape.text)
            let run = try await MeasuredRun([binary, "check-config", path])
            #expect(run.status == shape.status, "\(shape.name): \(run.status)")
            // CPU time, not wall time: on a shared, loaded machine others' work stretches the
            // latter (the benchmark reports wall time on a quieter run).
            #expect(run.cpu < timeLimit, "\(shape.name): \(run.cpu) CPU, \(run.elapsed) wall (\(binary))")
            #expect(run.maximumResidentKiB < 100 * 1024, "\(shape.name): \(run.maximumResidentKiB) KiB")
        }
    }

    @Test func aWatchdogOfOneMicrosecondIsRaisedToTenMilliseconds() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", "modules: [{name: a, type: echo}]\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory, environment: ["WATCHDOG_USEC": "1"])
        let notify = try #require(hived.notify)
        try await hived.waitForReady()
        let before = notify.count(startingWith: "WATCHDOG=1")
        try await observationWindow(.seconds(1))
        let pings = notify.count(startingWith: "WATCHDOG=1") - before
        #expect(pings > 0 && pings <= 250, "a ping every 5 ms at most: \(pings) in a second")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(hived.stderr.contains("below the floor of 10.0ms"), "\(hived.stderr)")
    }

    @Test func valuesCannotForgeLogLines() async throws {
        let directory = try TestDirectory()
        // As YAML escapes: the double-quoted values below hold a real newline.
        let forged = #"\n2026-01-01T00:00:00.000Z critical [fake] forged"#
        let path = try directory.write("hived.yaml", """
            log: {level: debug}
            signals: {SIGUSR1: "custom:x\(forged)"}
            modules:
              - {name: "a\(forged)", type: echo}
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGUSR1)
        // The event's name reaches the log (escaped) before the stop.
        try await hived.waitForStderr(containing: #"SIGUSR1 fires custom:x\n2026-01-01T00:00:00.000Z critical [fake] forged"#)
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let other = try TestDirectory()
        let badPath = other.file("bad\ndir.yaml")
        let failing = try HivedProcess(["run", "--config", badPath], in: other)
        #expect(try await failing.exitStatus() == 78)
        // A real newline in an HIVED_* value (an environment variable is not YAML).
        let third = try TestDirectory()
        let goodPath = try third.write("good.yaml", "{}\n")
        let overridden = try HivedProcess(
            ["run", "--config", goodPath], in: third,
            environment: ["HIVED_LOG_LEVEL": "loud\n2026-01-01T00:00:00.000Z critical [fake] forged"])
        #expect(try await overridden.exitStatus() == 78)
        for output in [hived.stderr, failing.stderr, overridden.stderr] {
            let lines = output.split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("2026-01-01T00:00:00.000Z critical [fake]") }, "\(output)")
        }
        #expect(hived.stderr.contains(#"[a\n2026-01-01T00:00:00.000Z critical [fake] forged]"#), "\(hived.stderr)")
        #expect(failing.stderr.contains(#"bad\ndir.yaml"#), "\(failing.stderr)")
        #expect(overridden.stderr.contains(#"HIVED_LOG_LEVEL: "#), "\(overridden.stderr)")
        #expect(overridden.stderr.contains(#"got 'loud\n2026-01-01T00:00:00.000Z critical [fake] forged'"#), "\(overridden.stderr)")
    }
}
