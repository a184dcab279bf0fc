/// A ``ServiceModule`` that waits until its service runs saw `run()` end first.
public struct ServiceModuleError: Error, CustomStringConvertible {
    /// The module.
    public let module: String
    /// What `run()` threw, if it threw; `nil` when it returned.
    public let underlying: (any Error)?

    init(module: String, outcome: ServiceRunner.Outcome?) {
        self.module = module
        if case .threw(let error) = outcome { underlying = error } else { underlying = nil }
    }

    /// `service ended before it was running: …`.
    public var description: String {
        "service ended before it was running: " + (underlying.map { "\($0)" } ?? "run() returned")
    }
}
