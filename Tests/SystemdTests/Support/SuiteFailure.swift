/// A failure of the suite's own machinery (booting, installing), with what went wrong.
struct SuiteFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
