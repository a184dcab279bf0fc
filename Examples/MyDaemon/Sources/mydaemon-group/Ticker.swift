import Logging
import ServiceLifecycle

/// A ServiceLifecycle service: wakes every 100 ms until its graceful shutdown, or until it
/// has ticked `ticks` times when given (a job that ends on its own); then takes `drain` to
/// finish (a server letting the requests in flight end). Logs its start and its end.
struct Ticker: Service {
    let name: String
    var ticks: Int?
    var drain: Duration = .zero

    func run() async throws {
        let logger = Logger(label: name)
        logger.info("ticker running")
        var count = 0
        while !Task.isShuttingDownGracefully, count != ticks {
            try await Task.sleep(for: .milliseconds(100))
            count += 1
        }
        if drain > .zero {
            logger.info("ticker draining for \(drain)")
            try await Task.sleep(for: drain)
        }
        logger.info("ticker stopped")
    }
}
