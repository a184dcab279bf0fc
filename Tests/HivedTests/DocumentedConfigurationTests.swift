import Foundation
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
        if: ExampleBinary.isAvailable(package: "MyDaemon", product: "mydaemon"),
        "Examples/MyDaemon is not built (swift build --package-path Examples/MyDaemon; scripts/test builds it)"))
    func theOwnDaemonsFileIsValid() async throws {
        let sample = try #require(try Self.yamlBlocks("WritingYourOwnDaemon.md").first)
        let directory = try TestDirectory()
        let file = try directory.write("mydaemon.yaml", sample)
        let result = try await ExampleCommand.run(ExampleBinary.url(package: "MyDaemon", product: "mydaemon"), ["check-config", file])
        #expect(result.status == 0 && result.stdout == "\(file): ok (2 modules enabled)\n", "\(result)")
    }
}
