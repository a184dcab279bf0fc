import Foundation
import TestSupport
import Testing

/// Every text hived writes about a value it was given stays short and clean, however long
/// the value: an error quotes at most 80 characters of it, `STATUS=` is at most 1 KiB
/// (`STATUS=` included) without control characters, and a reload still ends in `READY=1`.
@Suite(.serialized) struct BoundedTextTests {
    /// The longest value a configuration file can hold: the file is read only up to 1 MiB.
    static let huge = String(repeating: "x", count: 1_000_000)

    @Test func checkConfigErrorsStayShortWhateverTheyQuote() async throws {
        let directory = try TestDirectory()
        let key = String(repeating: "k", count: 1_000)
        let cases: [(text: String, message: String)] = [
            ("modules: [{name: a, type: \(Self.huge)}]\n", "module 'a': modules[0].type: unknown module type 'xxx"),
            ("modules: [{name: \(Self.huge), type: probe, settings: {bogus: 1}}]\n", "module 'xxx"),
            ("services: [{service: \(Self.huge), implementation: SystemClock}]\n", "services[0]: unknown service 'xxx"),
            ("modules: [{name: a, type: probe, settings: {fail_on: [\(Self.huge)]}}]\n",
             "module 'a': setting 'fail_on' names an unknown event 'xxx"),
            ("modules: [{name: a, type: probe, settings: {\(key): 1}}]\n", "module 'a': unknown setting 'kkk"),
        ]
        for (index, testCase) in cases.enumerated() {
            let path = try directory.write("huge\(index).yaml", testCase.text)
            let check = try HivedProcess(["check-config", path], in: directory, notify: false)
            #expect(try await check.exitStatus() == 78)
            let stderr = check.stderr
            #expect(stderr.hasPrefix("\(path):1: \(testCase.message)"), "\(stderr.prefix(300))")
            #expect(stderr.contains("…'"), "the value is cut: \(stderr.prefix(300))")
            #expect(stderr.utf8.count < 400, "one short line, not \(stderr.utf8.count) bytes")
            #expect(stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func aBadReloadQuotingAHugeValueEndsInReadyWithAShortCleanStatus() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let good = "modules: [{name: a, type: probe, settings: {path: \(events)}}]\n"
        let path = try directory.write("hived.yaml", good)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        var seen = try await hived.waitForReady()
        // A value of a megabyte that starts with a newline and an escape sequence.
        try directory.write("hived.yaml", good + "log: {level: \"\\n\\e[31m\(Self.huge)\"}\n")
        // A file of 5 MB: refused for its size before anything quotes it.
        let fiveMegabytes = String(repeating: "#", count: 5 << 20)
        for text in [nil, good + fiveMegabytes + "\n"] {
            if let text { try directory.write("hived.yaml", text) }
            hived.signal(SIGHUP)
            seen = try await hived.waitForReady(after: seen + 1, timeout: .seconds(10))
            let status = try Self.status(in: try #require(hived.notify?.messages[seen]))
            #expect(status.hasPrefix("STATUS=reload failed, previous configuration still running: \(path):"), "\(status.prefix(300))")
            #expect(status.utf8.count <= 1024, "\(status.utf8.count) bytes")
            #expect(!Self.hasControlCharacters(status), "\(status.prefix(300))")
        }
        let quoted = try Self.status(in: try #require(hived.notify?.messages.first { $0.contains("log.level") }))
        #expect(quoted.hasSuffix("…'"), "the value is quoted cut short: \(quoted.prefix(300))")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).events == ["a.setup", "a.init", "a.ready", "a.terminate", "a.teardown"])
    }

    @Test func aReloadAddingAModuleWithAHugeNameEndsInReadyWithABoundedStatus() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let good = "modules:\n  - {name: a, type: probe, settings: {path: \(events)}}\n"
        let path = try directory.write("hived.yaml", good)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        let ready = try await hived.waitForReady()
        try directory.write("hived.yaml", good + "  - {name: \(Self.huge), type: echo}\n")
        hived.signal(SIGHUP)
        let again = try await hived.waitForReady(after: ready + 1, timeout: .seconds(10))
        let status = try Self.status(in: try #require(hived.notify?.messages[again]))
        #expect(status.hasPrefix("STATUS=reloaded"), "\(status.prefix(300))")
        #expect(status.utf8.count <= 1024, "\(status.utf8.count) bytes")
        #expect(status.hasSuffix("…"), "cut with …: \(status.suffix(40))")
        #expect(!Self.hasControlCharacters(status))
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func checkConfigRefusesATinyBudgetAndNonAsciiSignalNamesAtTheirLine() async throws {
        let directory = try TestDirectory()
        let cases = [
            ("modules: []\nbudgets: {event: 1s, stop: 1ns}\n", "2: budgets.stop: must be at least 1ms, got '1ns'"),
            ("modules: []\nsignals:\n  ſigusr1: custom:x\n", "3: signals.ſigusr1: unknown signal 'ſigusr1'"),
            ("modules: []\nsignals:\n  sıgusr1: custom:x\n", "3: signals.sıgusr1: unknown signal 'sıgusr1'"),
        ]
        for (index, (text, message)) in cases.enumerated() {
            let path = try directory.write("case\(index).yaml", text)
            let check = try HivedProcess(["check-config", path], in: directory, notify: false)
            #expect(try await check.exitStatus() == 78)
            #expect(check.stderr.hasPrefix("\(path):\(message)"), "\(check.stderr)")
        }
    }

    /// The `STATUS=` line of a notification.
    static func status(in datagram: String) throws -> String {
        guard let line = datagram.split(separator: "\n").first(where: { $0.hasPrefix("STATUS=") }) else {
            throw TestFailure("no STATUS= in \(datagram.prefix(300))")
        }
        return String(line)
    }

    static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) }
    }
}
