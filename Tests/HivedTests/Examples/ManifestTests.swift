import Foundation
import TestSupport
import Testing
@testable import hived

/// The `Package.swift` the documentation shows is one that works: every block marked
/// `<!-- manifest: … -->` that is a whole manifest is evaluated by SwiftPM (`swift package
/// dump-package`, which needs no network), depends on this package by the URL and version the
/// documentation gives, and declares each of its targets as `Examples/MyDaemon`, which
/// `scripts/test` builds, declares the target of the same name: same kind, same
/// dependencies, same products of the same packages. A block that is part of a manifest
/// (the README's dependency line) must be lines of a whole one.
@Suite struct ManifestTests {
    /// A `swift package dump-package` of the manifest in `directory`, as JSON.
    static func dump(_ directory: URL) async throws -> [String: Any] {
        let swift = ["/opt/swift/usr/bin/swift", "/usr/bin/swift"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let result = try await ExampleCommand.run(
            URL(fileURLWithPath: try #require(swift, "no swift toolchain")), ["package", "--package-path", directory.path, "dump-package"],
            environment: ["HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/root"])
        try #require(result.status == 0, "swift package dump-package in \(directory.path): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// Each target of a dumped manifest: its kind and its dependencies, as sorted text.
    static func targets(_ manifest: [String: Any]) -> [String: String] {
        var targets: [String: String] = [:]
        for target in manifest["targets"] as? [[String: Any]] ?? [] {
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).map { dependency in
                dependency.map { kind, value in
                    "\(kind) " + ((value as? [Any]) ?? []).compactMap { $0 as? String }.joined(separator: " ")
                }.joined()
            }
            targets[target["name"] as? String ?? "?"] = "\(target["type"] ?? "?"): " + dependencies.sorted().joined(separator: ", ")
        }
        return targets
    }

    /// The manifest blocks of the README and the DocC articles: (document, lines).
    static func manifestBlocks() throws -> [(String, [String])] {
        var found: [(String, [String])] = []
        for url in SampleOutputTests.documents {
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where line.hasPrefix("<!-- manifest:") {
                guard index + 1 < lines.count, lines[index + 1] == "```swift",
                    let end = lines[(index + 2)...].firstIndex(where: { $0.hasPrefix("```") })
                else { continue }
                found.append((url.lastPathComponent, lines[(index + 2)..<end].map(String.init)))
            }
        }
        return found
    }

    @Test func theDocumentedManifestsWorkAndMatchTheBuiltExample() async throws {
        let blocks = try Self.manifestBlocks()
        let whole = blocks.filter { $0.1.first?.hasPrefix("// swift-tools-version") == true }
        #expect(!whole.isEmpty, "a whole Package.swift is documented")
        let example = Self.targets(try await Self.dump(ExampleBinary.root.appendingPathComponent("Examples/MyDaemon")))
        let dependency = ".package(url: \"https://github.com/hivekit/hived\", from: \"\(Hived.identity.version)\"),"
        for (document, lines) in whole {
            let directory = try TestDirectory()
            _ = try directory.write("Package.swift", lines.joined(separator: "\n") + "\n")
            let manifest = try await Self.dump(URL(fileURLWithPath: directory.path))
            #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == dependency }, "\(document): \(dependency)")
            let targets = Self.targets(manifest)
            #expect(!targets.isEmpty)
            for (name, declared) in targets {
                #expect(example[name] == declared, "\(document): target \(name) is \(declared); Examples/MyDaemon's is \(example[name] ?? "missing")")
            }
        }
        let manifestLines = Set(whole.flatMap { $0.1.map { $0.trimmingCharacters(in: .whitespaces) } })
        for (document, lines) in blocks where lines.first?.hasPrefix("// swift-tools-version") != true {
            for line in lines {
                #expect(manifestLines.contains(line.trimmingCharacters(in: .whitespaces)), "\(document): \(line) is in no documented manifest")
            }
        }
    }
}
