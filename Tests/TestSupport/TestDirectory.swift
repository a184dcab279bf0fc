import Foundation

/// A temporary directory under /tmp for one test (configuration files, probe files, the
/// notify socket, shared objects), removed with everything in it when the test lets go of it.
public final class TestDirectory: Sendable {
    /// Its path.
    public let path: String

    /// A fresh directory.
    public init() throws {
        var template = Array("/tmp/hived-test-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        path = String(cString: created)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` in the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The path of `name` in the directory.
    public func file(_ name: String) -> String { path + "/" + name }
}

extension TestDirectory {
    /// Creates the (empty) file `name`: releases a probe's `stall_until` stall waiting for it.
    public func release(_ name: String) {
        _ = FileManager.default.createFile(atPath: file(name), contents: nil)
    }
}
