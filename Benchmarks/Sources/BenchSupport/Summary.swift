/// Order statistics of a set of samples (nanoseconds, bytes, or any other unit).
public struct Summary: Sendable {
    /// The samples, sorted ascending.
    public let sorted: [Double]

    /// Summarizes `samples`; at least one is required.
    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "a summary needs at least one sample")
        sorted = samples.sorted()
    }

    /// The `q` quantile (0...1) by the nearest-rank method.
    public func quantile(_ q: Double) -> Double {
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank - 1, 0), sorted.count - 1)]
    }

    public var median: Double { quantile(0.5) }
    public var p90: Double { quantile(0.9) }
    public var min: Double { sorted[0] }
    public var count: Int { sorted.count }

    /// Every statistic divided by `divisor` (per-module or per-operation figures).
    public func divided(by divisor: Double) -> Summary {
        Summary(sorted.map { $0 / divisor })
    }
}
