/// The notice a log sink's writer puts where lines are missing: `20,429 log lines dropped
/// (stderr was not drained)`, the same words for stderr and the journal.
enum DroppedLines {
    /// `count log lines dropped (reason)`, the count with thousands separators.
    static func message(_ count: Int, reason: String) -> String {
        "\(count.grouped) log line\(count == 1 ? "" : "s") dropped (\(reason))"
    }
}
