import Foundation
import TestSupport
import Testing

/// Suspend/resume, custom events from signals, the watchdog, and check-config.
@Suite(.serialized) struct SignalTests {
    @Test func sigtstpAndSigcontGiveBackgroundAndForegroundWithoutStopping() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", "modules:\n  - {name: a, type: probe, settings: {path: \(events)}}\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let ready = try await hived.waitForReady()
        hived.signal(SIGTSTP)
        _ = try await ProbeFile.waitFor(events, "background") { $0.event == "background" }
        #expect(hived.state != "T", "the process keeps running")
        let notify = try #require(hived.notify)
        let suspended = try await notify.waitFor(after: ready + 1, "suspended status") { $0.hasPrefix("STATUS=suspended") }
        try await hived.deliver(SIGTSTP)  // already suspended: refused, changes nothing
        hived.signal(SIGCONT)
        _ = try await ProbeFile.waitFor(events, "foreground") { $0.event == "foreground" }
        let running = try await notify.waitFor(after: suspended + 1, "running status") { $0.hasPrefix("STATUS=running") }
        #expect(notify.messages[running] == "STATUS=running 1 module", "SIGCONT says the modules run again")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).events == [
            "a.setup", "a.init", "a.ready", "a.background", "a.foreground", "a.terminate", "a.teardown",
        ])
    }

    @Test func mappedSignalsFireCustomEvents() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", """
            signals: {SIGUSR1: "custom:rotate", SIGUSR2: "custom:stats"}
            modules:
              - {name: a, type: probe, settings: {path: \(events)}}
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "rotate") { $0.name == "rotate" }
        hived.signal(SIGUSR2)
        _ = try await ProbeFile.waitFor(events, "stats") { $0.name == "stats" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let custom = try ProbeFile(path: events).lines.filter { $0.event == "custom" }
        #expect(custom.map(\.name) == ["rotate", "stats"])
    }

    @Test func signalsMappedToMemoryWarningAndReloadSendThoseEventsOnly() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = { (modules: String) in
            "signals: {SIGUSR1: memoryWarning, SIGUSR2: reload}\nmodules:\n" + modules
        }
        let path = try directory.write("hived.yaml", config("  - {name: a, type: probe, settings: {path: \(events)}}\n"))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        // A module added to the file: a mapped `reload` is the event only and reads no file.
        try directory.write("hived.yaml", config("""
              - {name: a, type: probe, settings: {path: \(events)}}
              - {name: late, type: probe, settings: {path: \(events)}}

            """))
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "memoryWarning") { $0.event == "memoryWarning" }
        hived.signal(SIGUSR2)
        _ = try await ProbeFile.waitFor(events, "reload") { $0.event == "reload" }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).events == [
            "a.setup", "a.init", "a.ready", "a.memoryWarning", "a.reload", "a.terminate", "a.teardown",
        ])
        let states = try #require(hived.notify?.stateMessages)
        #expect(!states.contains { $0.hasPrefix("RELOADING=1") }, "no configuration reload: \(states)")
        #expect(states.filter { $0.hasPrefix("READY=1") }.count == 1, "\(states)")
    }

    @Test func unmappedSignalsAreLoggedAndIgnored() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write(
            "hived.yaml", "log: {level: debug}\nmodules:\n  - {name: a, type: probe, settings: {path: \(events)}}\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        try await hived.deliver(SIGUSR1)
        try await hived.deliver(SIGPIPE)
        try await hived.waitForStderr(containing: "ignored SIGUSR1")
        try await hived.waitForStderr(containing: "ignored SIGPIPE")
        #expect(hived.process.isRunning)
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).events == ["a.setup", "a.init", "a.ready", "a.terminate", "a.teardown"])
    }

    @Test func watchdogPingsAtHalfTheInterval() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", "modules: [{name: a, type: echo}]\n")
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["WATCHDOG_USEC": "1000000"])
        let notify = try #require(hived.notify)
        try await hived.waitForReady()
        try await notify.waitForCount(7, startingWith: "WATCHDOG=1")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        // The kernel's receive times: exact however late this process read them.
        let pings = notify.datagrams.filter { $0.text == "WATCHDOG=1" }.map(\.received)
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }.sorted()
        let median = gaps[gaps.count / 2]
        // Half of 1 s is 500 ms: never sooner (the loop sleeps that long between pings),
        // and later only by scheduling delays, far from the 1 s at which systemd would kill.
        #expect(gaps.first! >= .milliseconds(450), "pings come no sooner than half the interval: \(gaps)")
        #expect(median <= .milliseconds(750), "pings come at about half the interval: \(gaps)")
    }

    @Test func watchdogPingsOnlyWhileDeliveryIsHealthy() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let release = directory.file("release")
        let path = try directory.write("hived.yaml", """
            signals: {SIGUSR1: "custom:hang"}
            modules:
              - {name: stuck, type: probe, budget: 1s, settings: {path: \(events), stall_until: {"custom:hang": \(release)}}}
            """)
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["WATCHDOG_USEC": "400000"])
        let notify = try #require(hived.notify)
        try await hived.waitForReady()
        try await notify.waitForCount(3, startingWith: "WATCHDOG=1")
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "hang") { $0.name == "hang" }
        // Once 'stuck' is past its budget, the stall is logged by module and the pings stop.
        try await hived.waitForStderr(containing: "watchdog pings withheld: module 'stuck' stalled in custom")
        let before = notify.count(startingWith: "WATCHDOG=1")
        try await observationWindow(.milliseconds(1200))  // six ping intervals
        let during = notify.count(startingWith: "WATCHDOG=1")
        #expect(during == before, "no pings while 'stuck' stalls past its budget")
        directory.release("release")
        try await notify.waitForCount(during + 2, startingWith: "WATCHDOG=1")
        try await hived.waitForStderr(containing: "watchdog pings resumed")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func watchdogForAnotherPidIsIgnored() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", "modules: []\n")
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory,
            environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
        try await hived.waitForReady()
        try await observationWindow(.milliseconds(1000))  // ten ping intervals
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(hived.notify?.messages.contains("WATCHDOG=1") == false, "\(hived.notify?.messages ?? [])")
    }

    @Test func checkConfigExitsZeroOr78WithPathAndLine() async throws {
        let directory = try TestDirectory()
        let good = try directory.write("good.yaml", "modules:\n  - {name: a, type: probe}\n")
        let ok = try HivedProcess(["check-config", good], in: directory, notify: false)
        #expect(try await ok.exitStatus() == 0)
        let bad = try directory.write("bad.yaml", "modules:\n  - name: a\n    type: probe\n    priority: high\n")
        let failed = try HivedProcess(["check-config", bad], in: directory, notify: false)
        #expect(try await failed.exitStatus() == 78)
        #expect(failed.stderr.hasPrefix("\(bad):4:"), "stderr: \(failed.stderr)")
        let misspelt = try directory.write("misspelt.yaml", "modules:\n  - name: a\n    type: probe\n    settings: {failon: [init]}\n")
        let rejected = try HivedProcess(["check-config", misspelt], in: directory, notify: false)
        #expect(try await rejected.exitStatus() == 78)
        #expect(rejected.stderr.hasPrefix("\(misspelt):4: module 'a': unknown setting 'failon'"), "stderr: \(rejected.stderr)")
        let service = try directory.write("service.yaml", "services:\n  - {service: WallClock, implementation: Nope}\n")
        let unknown = try HivedProcess(["check-config", service], in: directory, notify: false)
        #expect(try await unknown.exitStatus() == 78)
        #expect(unknown.stderr.hasPrefix("\(service):2: services[0]: unknown implementation 'Nope'"), "stderr: \(unknown.stderr)")
        let nested = try directory.write("nested.yaml", "modules:\n  - name: a\n    type: probe\n    settings:\n      path: /tmp/x\n      stall_on:\n        teardown: soon\n")
        let deep = try HivedProcess(["check-config", nested], in: directory, notify: false)
        #expect(try await deep.exitStatus() == 78)
        #expect(deep.stderr.hasPrefix("\(nested):7: module 'a': setting 'stall_on.teardown' must be a duration"), "stderr: \(deep.stderr)")
        let disabled = try directory.write("disabled.yaml", "modules:\n  - {name: a, type: probe, enabled: false, settings: {bogus: 1}}\n")
        let off = try HivedProcess(["check-config", disabled], in: directory, notify: false)
        #expect(try await off.exitStatus() == 78, "a disabled module's settings are validated too")
        #expect(off.stderr.hasPrefix("\(disabled):2: module 'a': unknown setting 'bogus'"), "stderr: \(off.stderr)")
        let empty = try directory.write("empty.yaml", "# nothing here yet\n")
        let nothing = try HivedProcess(["check-config", empty], in: directory, notify: false)
        #expect(try await nothing.exitStatus() == 78)
        #expect(nothing.stderr.hasPrefix("\(empty):1: the file holds no configuration"), "stderr: \(nothing.stderr)")
    }

    @Test func checkConfigRefusesAFifoAtOnce() async throws {
        let directory = try TestDirectory()
        let fifo = directory.file("fifo.yaml")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO with no writer would block: check-config refuses it instead.
        let checking = try HivedProcess(["check-config", fifo], in: directory, notify: false)
        #expect(try await checking.exitStatus(timeout: .seconds(5)) == 78)
        #expect(checking.stderr.contains("\(fifo): cannot read configuration file: not a regular file (a FIFO)"))
    }

    @Test func checkConfigStopsOnSigtermAndSigintLikeAnyTool() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        for signal in [SIGTERM, SIGINT] {
            // Building the probe waits for a file nobody creates: check-config hangs there.
            let path = try directory.write("hived-\(signal).yaml", """
                modules: [{name: a\(signal), type: probe, settings: {path: \(events), build_until: \(directory.file("never"))}}]
                """)
            let checking = try HivedProcess(["check-config", path], in: directory, notify: false)
            _ = try await ProbeFile.waitFor(events, "a\(signal) waiting to be built") { $0.module == "a\(signal)" && $0.event == "build" }
            #expect(checking.process.isRunning, "\(checking.stderr)")
            checking.signal(signal)
            #expect(try await checking.exitStatus(timeout: .seconds(5)) == signal)
            #expect(checking.process.terminationReason == .uncaughtSignal)
        }
    }

    @Test func aReloadStuckReadingItsFileWithholdsTheWatchdog() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        // The event budget bounds reading the file; the module itself has time to spare.
        let text = "budgets: {event: 300ms}\nmodules: [{name: a, type: echo, budget: 30s}]\n"
        let path = try directory.write("hived.yaml", text)
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory, environment: ["WATCHDOG_USEC": "400000"])
        let notify = try #require(hived.notify)
        try await hived.waitForReady()
        try await notify.waitForCount(2, startingWith: "WATCHDOG=1")
        // Reading the new file builds probe b, which waits for the test (a hung mount would
        // hold the read the same way).
        try directory.write("hived.yaml", """
            budgets: {event: 300ms}
            modules:
              - {name: a, type: echo, budget: 30s}
              - {name: b, type: probe, budget: 30s, settings: {path: \(events), build_until: \(directory.file("release"))}}
            """)
        hived.signal(SIGHUP)
        try await hived.waitForStderr(containing: "has taken longer than the event budget of 300.0ms")
        // Once the watchdog has seen the stall (it says so), it sends nothing more.
        try await hived.waitForStderr(containing: "watchdog pings withheld: reading the configuration")
        let before = notify.count(startingWith: "WATCHDOG=1")
        try await observationWindow(.milliseconds(1000))  // five ping intervals
        let during = notify.count(startingWith: "WATCHDOG=1")
        #expect(during == before, "no pings while the reload waits for its file")
        directory.release("release")
        try await notify.waitForCount(during + 2, startingWith: "WATCHDOG=1")
        #expect(notify.stateMessages.contains { $0.hasPrefix("READY=1") && $0.contains("reloaded") })
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func sigtermWhileAnEventHangsExits75WithinTheStopBudget() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let path = try directory.write("hived.yaml", """
            budgets: {event: 1s, stop: 2s}
            signals: {SIGUSR1: "custom:hang"}
            modules:
              - {name: stuck, type: probe, settings: {path: \(events), stall_on: {"custom:hang": 60s}}}
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "hang") { $0.name == "hang" }
        let sent = ContinuousClock.now
        hived.signal(SIGTERM)
        let notify = try #require(hived.notify)
        let stopping = try await notify.waitFor("STOPPING=1") { $0.hasPrefix("STOPPING=1") }
        let announced = notify.messages[stopping]
        // Sent while the event still runs (the stall outlasts the test): the status says so.
        #expect(announced.contains("STATUS=stopping: waiting for the current event to finish"), "STOPPING=1 at once: \(announced)")
        #expect(try await hived.exitStatus(timeout: .seconds(15)) == 75)
        #expect(ContinuousClock.now - sent < .seconds(10))
        let status = try #require(hived.notify?.stateMessages.last)
        #expect(status.contains("stuck"), "the module holding the stop up is named: \(status)")
    }

    @Test func watchdogAbortEndsTheProcess() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", "modules: [{name: a, type: echo}]\n")
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGABRT)
        #expect(try await hived.exitStatus(timeout: .seconds(10)) == SIGABRT)
        #expect(hived.process.terminationReason == .uncaughtSignal)
    }
}
