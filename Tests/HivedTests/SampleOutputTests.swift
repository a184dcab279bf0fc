import Foundation
import TestSupport
import Testing
@testable import hived

/// The documentation's sample output is a real run's: each block marked
/// `<!-- sample: NAME -->` (in the README or a DocC article) is checked, line by line,
/// against hived's stderr in the same scenario. What differs from run to run is matched
/// loosely: the time, durations and other numbers, and the module and event named as the
/// slowest at start-up.
@Suite(.serialized) struct SampleOutputTests {
    /// The documents that may hold samples: the README and every DocC article.
    static var documents: [URL] {
        let root = FirstRunTests.packageRoot
        var urls = [root.appendingPathComponent("README.md")]
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
        for source in sources.sorted() {
            let catalog = root.appendingPathComponent("Sources/\(source)/\(source).docc")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: catalog.path)) ?? []
            urls += files.sorted().filter { $0.hasSuffix(".md") }.map { catalog.appendingPathComponent($0) }
        }
        return urls
    }

    /// The text after the marker of the sample block `name`, in whichever document has it.
    static func afterMarker(_ name: String) throws -> Substring {
        var found: Substring?
        for url in documents where found == nil {
            let text = try String(contentsOf: url, encoding: .utf8)
            if let marker = text.range(of: "<!-- sample: \(name) -->") { found = text[marker.upperBound...] }
        }
        return try #require(found, "no sample '\(name)' in the README or the DocC articles")
    }

    /// The lines of hived's output in the sample block `name` (those that start with a time).
    static func sample(_ name: String) throws -> [String] {
        let rest = try afterMarker(name)
        let open = try #require(rest.range(of: "```console\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.firstMatch(of: /^\d{4}-\d\d-\d\dT/) != nil }
    }

    /// A pattern for a sample line: literal, except the time, numbers (with their unit
    /// when they are durations) and the slowest module and event.
    static func pattern(_ line: String) throws -> Regex<AnyRegexOutput> {
        var pattern = ""
        var rest = Substring(line)
        let timestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/
        if let match = rest.prefixMatch(of: timestamp) {
            pattern += #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"#
            rest = rest[match.range.upperBound...]
        }
        while !rest.isEmpty {
            if let match = rest.prefixMatch(of: #/slowest: \S+ \S+ /#) {
                pattern += #"slowest: \S+ \S+ "#
                rest = rest[match.range.upperBound...]
            } else if let match = rest.prefixMatch(of: /[0-9]+(\.[0-9]+)?(ns|µs|ms|s)?/) {
                pattern += match.2 == nil ? #"[0-9]+(\.[0-9]+)?"# : #"[0-9]+(\.[0-9]+)?(ns|µs|ms|s)"#
                rest = rest[match.range.upperBound...]
            } else {
                let character = rest.removeFirst()
                pattern += character.isLetter || character.isWhitespace ? String(character) : "\\" + String(character)
            }
        }
        return try Regex("^" + pattern + "$")
    }

    /// Every sample line matches a line of `output`, in the sample's order.
    static func check(_ name: String, against output: String) throws {
        let lines = output.split(separator: "\n").map(String.init)
        var next = 0
        let sample = try sample(name)
        #expect(!sample.isEmpty)
        for line in sample {
            let regex = try pattern(line)
            guard let found = lines[next...].firstIndex(where: { $0.wholeMatch(of: regex) != nil }) else {
                Issue.record("sample '\(name)': no line like\n  \(line)\nafter line \(next) of hived's output:\n\(output)")
                return
            }
            next = found + 1
        }
    }

    @Test func theQuickStartRun() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("embedded.yaml", EmbeddedConfiguration.yaml)
        let hived = try HivedProcess(["run", "--config", config], in: directory, environment: ["STATE_DIRECTORY": directory.path])
        let notify = try #require(hived.notify)
        let ready = try await hived.waitForReady()
        try await hived.waitForStderr(containing: "[api] ready: received")
        hived.signal(SIGHUP)
        try await hived.waitForReady(after: ready + 1)
        let steps: [(Int32, String)] = [
            (SIGUSR1, "heartbeat has beaten"), (SIGUSR2, "heartbeat reset"),
            (SIGTSTP, "[api] background: received"), (SIGCONT, "[api] foreground: received"),
        ]
        for (signal, logged) in steps {
            try await hived.deliver(signal)
            try await hived.waitForStderr(containing: logged)
        }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        try await notify.drain()
        try Self.check("quick-start", against: hived.stderr)
    }

    /// The `hived ctl` commands of the sample block `name`, each with the lines it prints
    /// (stdout, then stderr) and the exit status its comment names (`# exit 67`; else 0).
    static func commands(_ name: String) throws -> [(arguments: [String], output: [String], status: Int32)] {
        let rest = try afterMarker(name)
        let open = try #require(rest.range(of: "```console\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        var commands: [(arguments: [String], output: [String], status: Int32)] = []
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n") {
            guard line.hasPrefix("$ ") else {
                if !commands.isEmpty { commands[commands.count - 1].output.append(String(line)) }
                continue
            }
            let (command, comment) = line.dropFirst(2).firstRange(of: "#").map {
                (line.dropFirst(2)[..<$0.lowerBound], line.dropFirst(2)[$0.upperBound...])
            } ?? (line.dropFirst(2), "")
            let words = command.split(separator: " ").map(String.init)
            guard words.first == ".build/debug/hived", words.dropFirst().first == "ctl" else { continue }
            let status = comment.firstMatch(of: /exit ([0-9]+)/).flatMap { Int32($0.1) } ?? 0
            commands.append((Array(words.dropFirst(2)), [], status))
        }
        return commands
    }

    @Test func theQuickStartCalls() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("embedded.yaml", EmbeddedConfiguration.yaml)
        let hived = try HivedProcess(
            ["run", "--config", config], in: directory,
            environment: ["STATE_DIRECTORY": directory.path, "RUNTIME_DIRECTORY": directory.path])
        try await hived.waitForReady()
        let commands = try Self.commands("quick-start-calls")
        #expect(commands.count == 4)
        for (arguments, expected, status) in commands {
            let run = try await ControlSocketTests.CtlTests.runCtl(arguments, environment: ["RUNTIME_DIRECTORY": directory.path])
            #expect(run.status == status, "ctl \(arguments): \(run)")
            let lines = (run.stdout + run.stderr).split(separator: "\n").map(String.init)
            #expect(lines.count == expected.count, "ctl \(arguments) printed \(lines), the sample \(expected)")
            for (line, sample) in zip(lines, expected) {
                #expect(line.wholeMatch(of: try Self.pattern(sample)) != nil, "ctl \(arguments): \(line) is not like \(sample)")
            }
        }
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
    }

    @Test func theStallLine() async throws {
        let directory = try TestDirectory()
        let config = try directory.write("hived.yaml", """
            modules: [{name: store, type: probe, budget: 200ms, settings: {stall_on: {init: 300ms}}}]
            """)
        let hived = try HivedProcess(["run", "--config", config], in: directory)
        try await hived.waitForReady()
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        try Self.check("stall", against: hived.stderr)
    }
}
