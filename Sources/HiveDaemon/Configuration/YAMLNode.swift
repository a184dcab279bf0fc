import HiveKit
/// A node of a YAML document as ``YAMLReader`` composed it: aliases resolved, scalars
/// typed, and the line it starts on, so every error can name it.
struct YAMLNode {
    enum Content {
        /// A scalar's text and its resolved type.
        case scalar(String, ScalarType)
        case sequence([YAMLNode])
        /// Key-value pairs in file order; keys are unique scalars' texts.
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    let content: Content
    /// The 1-based line the node starts on.
    let line: Int
    /// Nodes in this subtree, aliases counted in full: what walking it costs.
    let size: Int
    /// UTF-8 bytes of the scalars (keys and values) in this subtree, aliases counted in
    /// full: what expanding it produces.
    let bytes: Int

    /// Whether the node is an explicit or implicit null (`~`, `null`, nothing at all).
    var isNull: Bool {
        guard case .scalar(_, .null) = content else { return false }
        return true
    }
}
