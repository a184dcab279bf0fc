import Foundation
@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct ConfigurationFileTests {
    /// The package's root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("hived-config-\(UUID().uuidString).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aFileIsLoadedWithItsPathInLocations() throws {
        let path = try Self.temporaryFile("modules:\n  - name: a\n    type: probe\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = try DaemonConfiguration.load(path: path, catalog: testCatalog())
        #expect(configuration.path == path)
        #expect(configuration.modules.first?.location == SourceLocation(path: path, line: 2))
    }

    @Test func errorsInAFileReadPathColonLine() throws {
        let path = try Self.temporaryFile("log:\n  level: loud\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try DaemonConfiguration.load(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(path):2: log.level: expected one of trace, debug, info, notice, warning, error, critical; got 'loud'")
        }
    }

    @Test(arguments: ["", "\n  \n", "# only a comment\n", "---\n"])
    func aFileHoldingNoConfigurationIsAnError(_ text: String) throws {
        let path = try Self.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: HiveError.self) { try DaemonConfiguration.load(path: path) }
        #expect(error?.description.hasPrefix("\(path):1: the file holds no configuration") == true, "\(String(describing: error))")
        let defaults = try Self.temporaryFile("{}\n")
        defer { try? FileManager.default.removeItem(atPath: defaults) }
        #expect(try DaemonConfiguration.load(path: defaults).modules.isEmpty, "{} asks for the defaults")
    }

    @Test func aMissingFileIsAnErrorThatSaysSo() {
        let path = "/nonexistent/hived-\(UUID().uuidString).yaml"
        do {
            _ = try DaemonConfiguration.load(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidConfiguration)
            #expect(error.description == "\(path): cannot read configuration file: No such file or directory")
        }
    }

    @Test func aDirectoryIsAnErrorThatSaysSo() {
        do {
            _ = try DaemonConfiguration.load(path: "/tmp")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/tmp: cannot read configuration file: not a regular file (a directory)")
        }
    }

    @Test func invalidUTF8IsAnError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hived-\(UUID().uuidString).yaml").path
        try Data([0x6c, 0x6f, 0x67, 0x3a, 0xff, 0xfe, 0x0a]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try DaemonConfiguration.load(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(path): cannot read configuration file: not valid UTF-8")
        }
    }

    static let shippedFiles: [String] = {
        let examples = packageRoot.appendingPathComponent("config/examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        return ["config/hived.yaml"] + names.filter { $0.hasSuffix(".yaml") }.sorted().map { "config/examples/\($0)" }
    }()

    @Test func thereAreShippedExamples() {
        #expect(Self.shippedFiles.count >= 3)
    }

    @Test(arguments: shippedFiles)
    func shippedConfigurationsAreValid(relativePath: String) throws {
        let path = Self.packageRoot.appendingPathComponent(relativePath).path
        var catalog = ModuleCatalog()  // only hived's built-in types, whose settings HivedTests check
        catalog.register("probe", settings: .any) { _ in InertModule() }
        catalog.register("echo-server", settings: .any) { _ in InertModule() }  // settings: SocketActivationTests
        let configuration = try DaemonConfiguration.load(path: path, catalog: catalog)
        #expect(!configuration.modules.isEmpty)
        for module in configuration.modules where module.type == "probe" {
            #expect(try module.settings.string("path") != nil)
            _ = try module.settings.strings("fail_on")
            if let stalls = try module.settings.settings("stall_on") {
                for key in stalls.values.keys { #expect(try stalls.duration(key) != nil) }
            }
        }
    }
}
