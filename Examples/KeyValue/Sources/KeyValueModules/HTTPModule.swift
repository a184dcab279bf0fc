import HiveKit
import HiveServiceLifecycle
import Hummingbird
import Logging

/// The HTTP server: a Hummingbird application run as a ``HiveServiceLifecycle/ServiceModule``.
/// `init` waits until it listens, so `READY=1` means the port is open; `terminate` begins
/// its graceful shutdown (no new connections, requests in flight finish) and `teardown`
/// waits for it, before the store's teardown.
///
/// ## Settings
/// - `host`: the address to listen on (default `127.0.0.1`).
/// - `port`: the port (default `8080`; `0` picks a free one, logged as `listening on …`).
public enum HTTPModule {
    /// The module for `settings`.
    ///
    /// - Throws: ``HiveKit/HiveError`` naming a bad setting.
    public static func make(settings: Settings) throws(HiveError) -> ServiceModule {
        let host = try settings.string("host") ?? "127.0.0.1"
        let port = try settings.int("port") ?? 8080
        guard (0...65535).contains(port) else { throw settings.error("port", "must be between 0 and 65535") }
        let readiness = ServiceReadiness()
        return ServiceModule(readiness: readiness) { context in
            var serverLogger = context.logger
            serverLogger[metadataKey: "event"] = nil
            let logger = serverLogger
            let routes = KeyValueRoutes(services: context.services, hiveRouter: context.router, mediator: context.mediator)
            return Application(
                router: routes.makeRouter(),
                configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "kvd"),
                onServerRunning: { channel in
                    logger.info("listening on \(host):\(channel.localAddress?.port ?? port)")
                    readiness.markRunning()
                },
                logger: logger)
        }
    }
}
