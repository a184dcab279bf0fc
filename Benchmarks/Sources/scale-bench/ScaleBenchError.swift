/// A candidate that did not start or stop as the benchmark needs.
struct ScaleBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
