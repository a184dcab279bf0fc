/// The notice a log sink's writer puts where lines are missing: `20,429 log lines dropped
/// (stderr was not drained)`, the same words for stderr and the journal.
enum DroppedLines {
    /// `count log lines dropped (reason)`, the count with thousands separators.
    static func message(_ count: Int, reason: String) -> String {
        "\(grouped(count)) log line\(count == 1 ? "" : "s") dropped (\(reason))"
    }

    /// `count` with a comma between groups of three digits: `20,429`.
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var text = count < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
