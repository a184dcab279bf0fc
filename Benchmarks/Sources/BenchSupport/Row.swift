/// One line of the result table: a benchmark, its figures and its aim.
public struct Row: Sendable {
    /// How a figure is printed.
    public enum Unit: Sendable {
        case nanoseconds
        case bytes
    }

    public var name: String
    public var summary: Summary?
    public var unit: Unit
    /// The target, as text (`< 1 ms`); empty when there is none.
    public var aim: String
    /// The median against a baseline (`2.1× C`), or a note; empty when there is none.
    public var note: String

    public init(_ name: String, _ summary: Summary?, unit: Unit = .nanoseconds, aim: String = "", note: String = "") {
        self.name = name
        self.summary = summary
        self.unit = unit
        self.aim = aim
        self.note = note
    }

    /// The header of the table every executable prints rows for.
    public static let header = """
        | benchmark | median | p90 | min | aim | note |
        |---|--:|--:|--:|---|---|
        """

    /// The row as a Markdown table line.
    public var markdown: String {
        guard let summary else {
            return "| \(name) | – | – | – | \(aim) | \(note) |"
        }
        let cells = [summary.median, summary.p90, summary.min].map { format($0, unit) }
        return "| \(name) | \(cells.joined(separator: " | ")) | \(aim) | \(note) |"
    }

    /// Prints the row at once (the table builds up line by line while benchmarks run).
    public func print() {
        Swift.print(markdown)
        fflushStdout()
    }
}

/// `812 ns`, `3.41 µs`, `1.27 ms`, `4.1 s`; `1.2 KiB`, `10.3 MiB`.
public func format(_ value: Double, _ unit: Row.Unit) -> String {
    switch unit {
    case .nanoseconds:
        if value < 1_000 { return "\(fixed(value, value < 10 ? 1 : 0)) ns" }
        if value < 1_000_000 { return "\(fixed(value / 1_000, 2)) µs" }
        if value < 1_000_000_000 { return "\(fixed(value / 1_000_000, 2)) ms" }
        return "\(fixed(value / 1_000_000_000, 2)) s"
    case .bytes:
        if value < 1_024 { return "\(fixed(value, 0)) B" }
        if value < 1_048_576 { return "\(fixed(value / 1_024, 2)) KiB" }
        return "\(fixed(value / 1_048_576, 1)) MiB"
    }
}

/// `value` with `digits` decimals, without Foundation.
public func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return "\(sign)\(whole)" }
    var fraction = String(Int(scaled) - whole * Int(scale))
    while fraction.count < digits { fraction = "0" + fraction }
    return "\(sign)\(whole).\(fraction)"
}

/// `2.1×`: a ratio to a baseline.
public func ratio(_ value: Double, to baseline: Double) -> String {
    "\(fixed(value / baseline, value / baseline < 10 ? 2 : 1))×"
}
