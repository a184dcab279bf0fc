import Foundation
import TestSupport
import Testing

/// hived's lines say each thing once: no word twice in a row, no message that repeats the
/// module or event its line already names, no metadata that repeats the message.
@Suite struct LogWordingTests {
    @Test func linesDoNotRepeatThemselves() async throws {
        let directory = try TestDirectory()
        let events = directory.file("events")
        let config = { (extra: String) in
            """
            log: {level: debug}
            signals: {SIGUSR1: "custom:boom"}
            modules:
              - {name: store, type: probe, level: basic, budget: 300ms, settings: {path: \(events), stall_on: {custom: 400ms, teardown: 1s}}}
              - {name: api, type: probe, settings: {path: \(events), fail_on: [custom]\(extra)}}
            """
        }
        let path = try directory.write("hived.yaml", config(""))
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        try await hived.deliver(SIGUSR1)
        _ = try await ProbeFile.waitFor(events, "api.custom") { $0.module == "api" && $0.event == "custom" }
        _ = try await ReloadEffectTests.reload(hived, directory, to: config(", stall_on: {reload: 1ms}"))
        _ = try await ReloadEffectTests.reload(hived, directory, to: config(", fail_on: [validateReload]"))
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let lines = hived.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("[store] custom: still running after") })
        #expect(lines.contains { $0.contains("[api] custom: 'boom' failed: told to fail (fail_on)") })
        #expect(lines.contains { $0.contains("[store] teardown: abandoned after its budget of 300.0ms") })
        #expect(lines.contains { $0.contains("reload failed, previous configuration still running") })
        for line in lines {
            guard let parsed = line.firstMatch(of: /^\S+ [a-z]+ (?:\[([^\]]+)\] )?(?:([A-Za-z]+): )?(.*)$/) else {
                Issue.record("unparsed line: \(line)")
                continue
            }
            let message = String(parsed.3)
            let words = message.lowercased().split(separator: " ").map { $0.trimmingCharacters(in: .punctuationCharacters) }
            #expect(!zip(words, words.dropFirst()).contains { $0 == $1 }, "a word twice in a row: \(line)")
            if let module = parsed.1 {
                #expect(!message.contains("module '\(module)'"), "repeats its module: \(line)")
            }
            if let event = parsed.2 {
                #expect(!message.hasPrefix("\(event) ") && !message.hasPrefix("\(event):"), "repeats its event: \(line)")
            }
            for pair in message.matches(of: /\s([a-z_]+)=(\S+)/) {
                #expect(!message.replacing(pair.0, with: "").contains(pair.2), "metadata repeats the message: \(line)")
            }
        }
    }

    /// At info level a start says one thing when ready, in issue 10's words:
    /// `started 7 modules in 12.3 ms; slowest: store init 8.1 ms`.
    @Test func startSaysOneLineInMilliseconds() async throws {
        let directory = try TestDirectory()
        let path = try directory.write("hived.yaml", """
            modules:
              - {name: store, type: probe, level: basic, settings: {stall_on: {init: 20ms}}}
              - {name: api, type: probe}
            """)
        let hived = try HivedProcess(["run", "--config", path], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        let started = hived.stderr.split(separator: "\n").filter { $0.contains(" started ") }
        #expect(started.count == 1, "\(hived.stderr)")
        let line = try #require(started.first)
        let match = line.firstMatch(of: /started 2 modules in ([0-9]+\.[0-9]+) ms; slowest: store init ([0-9]+\.[0-9]+) ms$/)
        #expect(match != nil, "\(line)")
        if let match { #expect(Double(match.2)! >= 20, "the stalled init is the slowest: \(line)") }
    }
}
