/// A daemon that did not behave as the benchmark needs (no READY=1, a bad exit status).
struct DaemonBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
