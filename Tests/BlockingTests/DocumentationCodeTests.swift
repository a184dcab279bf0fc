import Foundation
import TestSupport
import Testing

/// The code the documentation shows is code that builds: every ```swift block of the README,
/// CONTRIBUTING.md, Benchmarks/README.md and the DocC catalogs (Sources/*/*.docc) must be
/// found, line for line (indentation aside), in a Swift file that `scripts/test` compiles:
/// the package's sources and tests, the example daemons, the HiveKit-only package. A block
/// marked `<!-- manifest: … -->` is a `Package.swift` that `ManifestTests` checks instead.
/// CPU-bound (every compiled file read and searched, seconds per document beside two CPU
/// hogs, two documents at once holding both of the pool's threads): in BlockingTests' process.
@Suite(.runsIn(.blocking)) struct DocumentationCodeTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every document that shows code, relative to the root.
    static var documents: [String] {
        var paths = ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md"]
        for catalog in catalogs {
            let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(catalog).path)
            while let file = files?.nextObject() as? String {
                if file.hasSuffix(".md") { paths.append("\(catalog)/\(file)") }
            }
        }
        return paths.sorted()
    }

    /// The DocC catalogs: `Sources/NAME/NAME.docc`.
    static var catalogs: [String] {
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
        return sources.sorted().map { "Sources/\($0)/\($0).docc" }.filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }
    }

    /// One fenced block: where it starts, its language, its lines, and the HTML comment
    /// right above it, if any.
    struct Block {
        let line: Int
        let language: String
        let lines: [String]
        let marker: String?
    }

    static func blocks(in document: String) throws -> [Block] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard line.hasPrefix("```"), line.count > 3 else { index += 1; continue }
            let end = lines[(index + 1)...].firstIndex { $0.hasPrefix("```") } ?? lines.count
            let above = index > 0 && lines[index - 1].hasPrefix("<!--") ? lines[index - 1] : nil
            blocks.append(Block(
                line: index + 1, language: String(line.dropFirst(3)), lines: Array(lines[(index + 1)..<end]), marker: above))
            index = end + 1
        }
        return blocks
    }

    /// Every Swift file that is compiled, as trimmed lines.
    static let compiled: [String: [String]] = {
        var files: [String: [String]] = [:]
        for folder in ["Sources", "Tests", "Examples"] {
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let file = enumerator?.nextObject() as? String {
                if file.hasPrefix(".build") || file.contains("/.build/") {
                    enumerator?.skipDescendants()
                    continue
                }
                guard file.hasSuffix(".swift"), !file.hasSuffix("Package.swift") else { continue }
                let path = "\(folder)/\(file)"
                guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { continue }
                files[path] = text.split(separator: "\n", omittingEmptySubsequences: false).map(trimmed)
            }
        }
        return files
    }()

    static func trimmed(_ line: Substring) -> String {
        String(line.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// The compiled file that holds `block` as consecutive lines, if one does.
    static func source(of block: [String]) -> String? {
        let wanted = block.map { trimmed(Substring($0)) }
        guard let first = wanted.first else { return nil }
        for (path, lines) in compiled {
            for start in lines.indices where lines[start] == first {
                if start + wanted.count <= lines.count, Array(lines[start..<(start + wanted.count)]) == wanted {
                    return path
                }
            }
        }
        return nil
    }

    @Test func thereAreCatalogsToCheck() {
        #expect(Set(Self.catalogs).isSuperset(of: [
            "Sources/HiveKit/HiveKit.docc", "Sources/HiveDaemon/HiveDaemon.docc",
            "Sources/HiveServiceLifecycle/HiveServiceLifecycle.docc", "Sources/HiveDaemonService/HiveDaemonService.docc",
        ]))
    }

    @Test(arguments: documents)
    func everySwiftBlockIsCompiledCode(_ document: String) throws {
        for block in try Self.blocks(in: document) where block.language == "swift" {
            if block.marker?.hasPrefix("<!-- manifest:") == true { continue }
            #expect(
                Self.source(of: block.lines) != nil,
                "\(document):\(block.line): this Swift block is in no file that scripts/test compiles:\n\(block.lines.joined(separator: "\n"))")
        }
    }
}
