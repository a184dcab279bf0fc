import HiveKit
/// A node of a YAML document as ``YAMLReader`` composed it: aliases resolved, scalars
/// typed, and the line it starts on, so every error can name it.
///
/// 32 bytes (counts held in 32 bits: a document is at most 1 MiB, its aliases add at most
/// 100,000 nodes and 4 MiB), so a hostile file of half a million nodes stays small.
struct YAMLNode {
    enum Content {
        /// A scalar's text and its resolved type.
        case scalar(String, ScalarType)
        case sequence([YAMLNode])
        /// Keys and values alternating (key, value, key, value…), in file order; keys are
        /// unique scalars' texts. One array per map, not one per pair.
        case mapping([YAMLNode])
    }

    let content: Content
    private let storedLine: Int32
    private let storedSize: Int32
    private let storedBytes: Int32

    init(content: Content, line: Int, size: Int, bytes: Int) {
        self.content = content
        storedLine = Int32(clamping: line)
        storedSize = Int32(clamping: size)
        storedBytes = Int32(clamping: bytes)
    }

    /// The 1-based line the node starts on.
    var line: Int { Int(storedLine) }
    /// Nodes in this subtree, aliases counted in full: what walking it costs.
    var size: Int { Int(storedSize) }
    /// UTF-8 bytes of the scalars (keys and values) in this subtree, aliases counted in
    /// full: what expanding it produces.
    var bytes: Int { Int(storedBytes) }

    /// Whether the node is an explicit or implicit null (`~`, `null`, nothing at all).
    var isNull: Bool {
        guard case .scalar(_, .null) = content else { return false }
        return true
    }
}
