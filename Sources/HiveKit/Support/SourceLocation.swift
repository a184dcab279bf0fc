/// A place in a configuration file, printed as `path:line`.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as the user gave it.
    public var path: String
    /// 1-based line number.
    public var line: Int

    /// Line `line` (1-based) of the file at `path`.
    public init(path: String, line: Int) {
        self.path = path
        self.line = line
    }

    /// `path:line`, as error messages begin.
    public var description: String { "\(path):\(line)" }
}
