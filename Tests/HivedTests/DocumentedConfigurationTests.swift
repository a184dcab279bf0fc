import Foundation
import TestSupport
import Testing

/// The configuration files the documentation shows are files the daemons accept, and the
/// errors it quotes are the errors they print.
@Suite struct DocumentedConfigurationTests {
    /// The `yaml` blocks of a DocC article of HiveDaemon's.
    static func yamlBlocks(_ article: String) throws -> [String] {
        let url = FirstRunTests.packageRoot.appendingPathComponent("Sources/HiveDaemon/HiveDaemon.docc/\(article)")
        let parts = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "```yaml\n").dropFirst()
        return parts.compactMap { $0.components(separatedBy: "```").first }
    }

    /// The reference's sample, every key of the file, is a valid hived configuration. Its
    /// `control.group` names a group this machine may lack (`operators`): the test gives it
    /// one that exists, its own.
    @Test func theReferenceSampleIsAValidConfiguration() async throws {
        let sample = try #require(try Self.yamlBlocks("ConfigurationReference.md").first)
        #expect(sample.contains("control: {socket: /run/hived/control, group: operators, enabled: true}"))
        let group = String(cString: getgrgid(getgid()).pointee.gr_name)
        let directory = try TestDirectory()
        let file = try directory.write("hived.yaml", sample.replacingOccurrences(of: "group: operators", with: "group: \(group)"))
        let result = try await ExampleCommand.run(HivedProcess.executable, ["check-config", file])
        #expect(result.status == 0 && result.stdout == "\(file): ok (1 module enabled)\n", "\(result)")
    }

    /// The reference's `check-config` example: a priority that is no integer, named by its
    /// line and key path.
    @Test func theReferenceErrorIsWhatCheckConfigPrints() async throws {
        let directory = try TestDirectory()
        let file = try directory.write("hived.yaml", """
            modules:
              - {name: a, type: echo}
              - {name: b, type: echo}
              - name: c
                type: echo
                priority: high
            """)
        let result = try await ExampleCommand.run(HivedProcess.executable, ["check-config", file])
        #expect(result.status == 78)
        #expect(result.stderr == "\(file):6: modules[2].priority: expected an integer, got 'high'\n", "\(result.stderr)")
    }

    /// "Writing your own daemon"'s file for mydaemon is one mydaemon accepts.
    @Test(.enabled(
        if: ExampleBinary.isAvailable(product: "mydaemon"),
        "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
    func theOwnDaemonsFileIsValid() async throws {
        let sample = try #require(try Self.yamlBlocks("WritingYourOwnDaemon.md").first)
        let directory = try TestDirectory()
        let file = try directory.write("mydaemon.yaml", sample)
        let result = try await ExampleCommand.run(ExampleBinary.url(product: "mydaemon"), ["check-config", file])
        #expect(result.status == 0 && result.stdout == "\(file): ok (2 modules enabled)\n", "\(result)")
    }
    /// The reference lists exactly which errors have no line (`PATH: message`): each is
    /// printed so, and named in that list; every other error has `PATH:LINE:`.
    @Test func errorsWithoutALineAreThoseTheReferenceLists() async throws {
        let directory = try TestDirectory()
        let fifo = directory.file("fifo.yaml")
        #expect(mkfifo(fifo, 0o600) == 0)
        let large = try directory.write("large.yaml", "# " + String(repeating: "x", count: 1 << 20) + "\n{}\n")
        let latin1 = directory.file("latin1.yaml")
        #expect(FileManager.default.createFile(atPath: latin1, contents: Data([0x23, 0x20, 0xE9, 0x0A, 0x7B, 0x7D, 0x0A])))
        let cut = try directory.write("cut.yaml", "log: {level: info}\nmodules:\n")
        let cases: [(path: String, phrase: String)] = [
            (directory.file("missing.yaml"), "No such file or directory"), (directory.path, "a directory"),
            (fifo, "a FIFO"), ("/dev/null", "a character device"), (large, "larger than 1 MiB"),
            ("/proc/self/status", "its size says 0 bytes but reading it gives"), (latin1, "not valid UTF-8"),
            (cut, "enables no module"),
        ]
        let url = FirstRunTests.packageRoot.appendingPathComponent("Sources/HiveDaemon/HiveDaemon.docc/ConfigurationReference.md")
        let article = try String(contentsOf: url, encoding: .utf8)
        let list = try #require(
            article.components(separatedBy: "An error about the file as a whole has no line").dropFirst().first?
                .components(separatedBy: "Every other error has its line").first)
        for (path, phrase) in cases {
            let result = try await ExampleCommand.run(HivedProcess.executable, ["check-config", path])
            #expect(result.status == 78, "\(path): \(result)")
            #expect(result.stderr.hasPrefix("\(path): ") && result.stderr.contains(phrase), "\(path): \(result.stderr)")
            #expect(list.contains(phrase), "the reference's list of errors without a line lacks '\(phrase)'")
        }
        let empty = try directory.write("empty.yaml", "# nothing yet\n")
        let result = try await ExampleCommand.run(HivedProcess.executable, ["check-config", empty])
        #expect(result.stderr.hasPrefix("\(empty):1: the file holds no configuration"), "\(result.stderr)")
    }

    /// A file cut right after `modules:` (or one that enables no module) is refused by
    /// `check-config` as a reload refuses it; `modules: []` passes both.
    @Test(arguments: ["log: {level: info}\nmodules:\n", "{}\n", "modules: [{name: a, type: echo, enabled: false}]\n"])
    func checkConfigRefusesAFileAReloadRefuses(_ text: String) async throws {
        let directory = try TestDirectory()
        let file = try directory.write("hived.yaml", text)
        let result = try await ExampleCommand.run(HivedProcess.executable, ["check-config", file])
        #expect(result.status == 78 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "\(file): enables no module, which would remove every running module; "
            + "write `modules: []` if that is meant (a file caught half-written looks the same)\n", "\(result.stderr)")
        let meant = try directory.write("none.yaml", "modules: []\n")
        let ok = try await ExampleCommand.run(HivedProcess.executable, ["check-config", meant])
        #expect(ok.status == 0 && ok.stdout == "\(meant): ok (0 modules enabled)\n", "\(ok)")
    }
}
