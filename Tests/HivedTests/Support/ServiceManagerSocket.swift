import Foundation
import Synchronization
import TestSupport

/// A `NOTIFY_SOCKET` that acts like systemd's for a service with a descriptor store:
/// a ``NotifySocket`` that keeps the descriptors sent with `FDSTORE=1` under their
/// `FDNAME=`, and closes and forgets them on `FDSTOREREMOVE=1`, so a test can start the
/// next hived with what the last one stored (in `LISTEN_FDS`), as systemd does at a restart.
/// Its waits wake on each datagram.
final class ServiceManagerSocket: Sendable {
    private let socket: NotifySocket
    private let store: Store

    /// The stored descriptors, shared with the socket's reader thread.
    private final class Store: Sendable {
        let entries = Mutex<[(name: String, descriptor: Int32)]>([])
    }

    var path: String { socket.path }

    init(directory: String) throws {
        let store = Store()
        self.store = store
        socket = try NotifySocket(path: directory + "/manager.sock") { datagram in
            store.entries.withLock { Self.apply(datagram.text, datagram.descriptors, to: &$0) }
        }
    }

    deinit { store.entries.withLock { $0.forEach { close($0.descriptor) } } }

    /// Every datagram so far.
    var messages: [String] { socket.messages }

    /// The names in the store, in the order stored.
    var storedNames: [String] { store.entries.withLock { $0.map(\.name) } }

    /// The stored descriptors, duplicated for a child to inherit (close them after spawning).
    func storedDescriptors() -> [(name: String, descriptor: Int32)] {
        store.entries.withLock { $0.map { ($0.name, fcntl($0.descriptor, F_DUPFD_CLOEXEC, 3)) } }
    }

    /// Waits until `condition` holds for the stored names; fails after `timeout`.
    func waitForStore(
        timeout: Duration = .seconds(20), _ what: String, _ condition: ([String]) -> Bool
    ) async throws {
        try await waitUntil(what, timeout: timeout, wakingOn: socket, detail: {
            "store: \(self.storedNames); messages: \(self.messages)"
        }) { condition(storedNames) }
    }

    /// Waits for READY=1 after the first `skip` datagrams.
    func waitForReady(after skip: Int = 0, timeout: Duration = .seconds(20)) async throws {
        try await socket.waitFor(after: skip, timeout: timeout, "READY=1") { $0.hasPrefix("READY=1") }
    }

    /// systemd's store rules: `FDSTORE=1` keeps the descriptors under `FDNAME=` (default
    /// `stored`), `FDSTOREREMOVE=1` closes every one under that name.
    private static func apply(_ text: String, _ descriptors: [Int32], to store: inout [(name: String, descriptor: Int32)]) {
        let fields = Dictionary(
            text.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let equals = line.firstIndex(of: "=") else { return nil }
                return (String(line[..<equals]), String(line[line.index(after: equals)...]))
            }, uniquingKeysWith: { $1 })
        let name = fields["FDNAME"] ?? "stored"
        if fields["FDSTORE"] == "1" {
            store += descriptors.map { (name, $0) }
            return
        }
        descriptors.forEach { close($0) }
        if fields["FDSTOREREMOVE"] == "1" {
            store.filter { $0.name == name }.forEach { close($0.descriptor) }
            store.removeAll { $0.name == name }
        }
    }
}
