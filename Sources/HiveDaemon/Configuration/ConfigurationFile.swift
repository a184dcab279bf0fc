import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a configuration file whole, with `open`/`read`, as UTF-8 text.
enum ConfigurationFile {
    /// The largest file accepted; a configuration is a few kilobytes.
    static let maximumSize = 16 << 20

    /// The text of the file at `path`.
    ///
    /// - Throws: ``HiveError`` (`invalidConfiguration`) saying the file cannot be read
    ///   and why (`No such file or directory`, `Is a directory`…), or that it is not UTF-8.
    static func contents(of path: String) throws(HiveError) -> String {
        func failure(_ reason: String) -> HiveError {
            HiveError(.invalidConfiguration, "\(path): cannot read configuration file: \(reason)")
        }
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw failure(describe(errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(describe(errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            guard bytes.count <= maximumSize else { throw failure("larger than \(maximumSize >> 20) MiB") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("not valid UTF-8") }
        return text
    }

    /// `strerror(code)` as a Swift string.
    private static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
