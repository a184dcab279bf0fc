import Logging
import ServiceLifecycle

/// A ServiceLifecycle service: wakes every 100 ms until its graceful shutdown, and logs
/// its start and its end.
struct Ticker: Service {
    let name: String

    func run() async throws {
        let logger = Logger(label: name)
        logger.info("ticker running")
        while !Task.isShuttingDownGracefully {
            try await Task.sleep(for: .milliseconds(100))
        }
        logger.info("ticker stopped")
    }
}
