import Logging
import ServiceLifecycle
import UnixSignals

actor Store {
    private var entries = ["greeting": "hi"]
    var count: Int { entries.count }
    func close() { entries = [:] }
}

struct StoreService: Service {
    let store: Store
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()            // nothing to do until the group stops
        await store.close()
        logger.info("store closed")
    }
}

struct ReportService: Service {
    let store: Store
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sigusr1)
        await report()
        for await _ in signals.cancelOnGracefulShutdown() { await report() }
    }

    func report() async {
        let count = await store.count
        logger.info("store holds \(count) keys")
    }
}

@main
enum LifecycleOnly {
    static func main() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let logger = Logger(label: "mydaemon")
        let store = Store()
        let group = ServiceGroup(configuration: .init(
            services: [
                .init(service: StoreService(store: store, logger: logger)),    // stops last
                .init(service: ReportService(store: store, logger: logger)),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
    }
}
