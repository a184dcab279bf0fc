import HiveKit
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The `echo-server` module: a line echo server that survives restarts of hived without
/// refusing a connection or cutting one that is open. The reference for modules that
/// serve clients, and a fixture of the tests.
///
/// It listens on a socket passed by socket activation (`socket:`, e.g. `hived.socket`'s
/// `FileDescriptorName=echo`) or on one it opens (`listen:`), and writes every line a client
/// sends back to it. With systemd's descriptor store (`FileDescriptorStoreMax=`), it keeps
/// its own listener and every accepted connection there; after a restart it takes them
/// back and goes on echoing on the very same connections, while clients that connect
/// meanwhile wait in the listener's backlog. Without a store it works the same, minus
/// the restarts (a warning says why).
///
/// ## Configuration keys
/// - `socket` (string): the name of a socket passed by socket activation.
/// - `listen` (string): `HOST:PORT` (numeric IPv4, or `[IPv6]`; port 0 picks a free one)
///   or an absolute Unix socket path. A reload that changes it moves the listener there.
///
/// Exactly one of the two.
final class EchoServerModule: Module {
    /// Where the listener comes from.
    enum Listener: Hashable, CustomStringConvertible {
        case socket(String)
        case listen(ListenAddress)

        var description: String {
            switch self {
            case .socket(let name): "socket '\(name)'"
            case .listen(let address): "\(address)"
            }
        }
    }

    private struct State: Sendable {
        var listener: Listener?
        /// The activated socket taken in setup, until init hands it to the server.
        var activated: Int32?
        var server: EchoServer?
    }

    private let state = Mutex(State())

    /// The listener the settings ask for.
    ///
    /// - Throws: ``HiveError`` at the setting's line for neither or both of `socket` and
    ///   `listen`, or an address that does not parse.
    static func listener(_ settings: Settings) throws(HiveError) -> Listener {
        switch (try settings.string("socket"), try settings.string("listen")) {
        case (let name?, nil):
            guard !name.isEmpty else { throw settings.error("socket", "must name a passed socket") }
            return .socket(name)
        case (nil, let text?):
            guard let address = ListenAddress(parsing: text) else {
                throw settings.error(
                    "listen", "must be HOST:PORT (127.0.0.1:7070, [::1]:7070) or an absolute Unix socket path, not \(quoted: text)")
            }
            return .listen(address)
        case (.some, .some):
            throw settings.error("listen", "cannot be given together with 'socket'")
        case (nil, nil):
            throw settings.error("socket", "or 'listen' is required")
        }
    }

    func setup(_ context: ModuleContext) async throws {
        let listener = try Self.listener(context.settings)
        let activated = if case .socket(let name) = listener { try context.sockets.take(name) } else { Int32?.none }
        state.withLock { state in
            state.listener = listener
            state.activated = activated
        }
    }

    func initialize(_ context: ModuleContext) async throws {
        let sockets = context.sockets
        var logger = context.logger
        logger[metadataKey: "event"] = nil
        var store: ModuleSockets? = sockets
        do {
            _ = try await sockets.storeCapacity()
        } catch {
            logger.warning("the listener and connections will not survive a restart: \(error.message)")
            store = nil
        }
        let (listener, activated) = state.withLock { ($0.listener, $0.activated) }
        let descriptor: Int32
        var origin: String
        switch listener {
        case .socket(let name)?:
            guard let activated else { throw EchoServerError("socket '\(name)' was not taken in setup") }
            descriptor = activated
            origin = "socket activation"
            // The socket unit keeps this listener; one stored by an earlier `listen:` goes.
            if let old = sockets.takeRestored("listener") {
                close(old)
                sockets.removeStored("listener")
            }
        case .listen(let address)?:
            (descriptor, origin) = try await open(address, sockets: sockets, store: store)
        case nil:
            throw EchoServerError("setup did not run")
        }
        // Made once the listener is there: a server is only ever made to be shut down.
        let server = EchoServer(module: context.moduleName, logger: logger, sockets: store)
        var resumed = 0
        for name in sockets.restoredNames where name.hasPrefix("connection.") {
            var unfinished = Self.takeUnfinished(of: name, from: sockets)
            while let connection = sockets.takeRestored(name) {
                await server.resume(connection, name: name, unfinished: unfinished)
                unfinished = UnfinishedBytes()
                resumed += 1
            }
        }
        // Bytes of a client that left while no process served it: nobody to write them to.
        for name in sockets.restoredNames {
            guard let connection = UnfinishedBytes.connectionName(for: name) else { continue }
            let dropped = Self.takeUnfinished(of: connection, from: sockets)
            logger.debug("dropped \(dropped.output.count + dropped.input.count) unfinished bytes of \(connection): the client left")
        }
        await server.listen(on: descriptor)
        let bound = ListenAddress(boundTo: descriptor).map(\.description) ?? "\(listener.map(\.description) ?? "?")"
        if resumed > 0 { origin += "; resumed \(resumed) connection\(resumed == 1 ? "" : "s") from before the restart" }
        logger.info("echoing lines on \(bound) (\(origin))")
        state.withLock { state in
            state.activated = nil
            state.server = server
        }
    }

    func reload(_ context: ModuleContext) async throws {
        let listener = try Self.listener(context.settings)
        let (old, server) = state.withLock { ($0.listener, $0.server) }
        guard listener != old, let server else { return }
        guard case .listen(let address) = listener, case .listen = old else {
            context.logger.warning("switching between 'socket' and 'listen' takes effect at the next start")
            return
        }
        let sockets = context.sockets
        let isStored = sockets.storedNames.contains("listener")
        // The new listener first: if it cannot be opened, the old one stays, stored.
        let descriptor = try address.listen()
        var origin = "listener opened"
        if isStored {
            sockets.removeStored("listener")
            do {
                try await sockets.store(descriptor, as: "listener")
                origin = "listener opened and stored"
            } catch {
                context.logger.warning("the new listener will not survive a restart: \(error.message)")
            }
        }
        await server.listen(on: descriptor)
        state.withLock { $0.listener = listener }
        context.logger.info("echoing lines on \(ListenAddress(boundTo: descriptor) ?? address) (\(origin))")
    }

    func terminate(_ context: ModuleContext) async throws {
        await state.withLock { $0.server }?.stopAccepting()
    }

    func teardown(_ context: ModuleContext) async throws {
        let server = state.withLock { state in
            defer { state.server = nil }
            if let activated = state.activated { close(activated) }
            state.activated = nil
            return state.server
        }
        await server?.shutDown()
    }

    /// Removed from a running hive: its Unix socket file goes too (hived removes what it
    /// stored, which closes the listener for good).
    func unmount(_ context: ModuleContext) async throws {
        if case .listen(.unix(let path))? = state.withLock({ $0.listener }) { unlink(path) }
    }

    /// What the last process had not finished on the connection stored as `connection`
    /// (empty if nothing): taken from the store and removed from it.
    private static func takeUnfinished(of connection: String, from sockets: ModuleSockets) -> UnfinishedBytes {
        let name = UnfinishedBytes.storeName(forConnection: connection)
        var unfinished = UnfinishedBytes()
        while let file = sockets.takeRestored(name) {
            if let bytes = UnfinishedBytes(reading: file) {
                unfinished.output += bytes.output
                unfinished.input += bytes.input
            }
            close(file)
        }
        sockets.removeStored(name)
        return unfinished
    }

    /// The listener for `address`: the one stored before a restart if it still listens
    /// there, else a new one, stored when there is a store.
    private func open(
        _ address: ListenAddress, sockets: ModuleSockets, store: ModuleSockets?
    ) async throws -> (descriptor: Int32, origin: String) {
        if let restored = sockets.takeRestored("listener") {
            if address.isListening(on: restored) { return (restored, "listener restored from the descriptor store") }
            close(restored)
            sockets.removeStored("listener")
        }
        let descriptor = try address.listen()
        do {
            try await store?.store(descriptor, as: "listener")
        } catch {
            close(descriptor)
            throw error
        }
        return (descriptor, store == nil ? "listener opened" : "listener opened and stored")
    }
}

/// An `echo-server` hook called out of order (init without setup).
private struct EchoServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
