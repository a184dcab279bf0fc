/// A module's sockets (``ModuleContext/sockets``): those passed to the process at start
/// (socket activation), and the module's own descriptors in the descriptor store, which
/// outlive a restart of the process.
///
/// ```swift
/// func setup(_ context: ModuleContext) async throws {
///     listener = try context.sockets.take("web")        // hived.socket's FileDescriptorName=web
/// }
/// func initialize(_ context: ModuleContext) async throws {
///     for name in context.sockets.restoredNames {        // stored before the restart
///         if let fd = context.sockets.takeRestored(name) { resume(fd, name) }
///     }
///     try await context.sockets.store(connection, as: "connection.42")
/// }
/// ```
///
/// - Passed sockets (``take(_:)``, ``takeAll(_:)``) and restored descriptors
///   (``takeRestored(_:)``) can be claimed in `setup` and `init`. When start-up ends, every
///   passed descriptor nobody claimed is logged by name and closed; a module's stored
///   descriptors that it did not take back are also removed from the store.
/// - A claimed descriptor belongs to the module, which closes it. A stored descriptor
///   stays in the store (restart after restart) until ``removeStored(_:)``, or until the
///   module leaves a running hive (a reload that removes it, `unregister`): then
///   everything it stored is removed. A stop of the whole hive removes nothing: the
///   service manager keeps the store for a restart and discards it for a stop.
/// - Names in the store are the module's own (`MODULE/NAME` in systemd's store), so two
///   modules may use the same name. Several descriptors may share a name;
///   ``removeStored(_:)`` removes them all, so name each one that must be removed alone.
public struct ModuleSockets: Sendable {
    let table: SocketTable
    let module: String

    /// The names of the sockets passed at start that no module has taken yet, in the order
    /// they were passed; empty once start-up has ended.
    public var available: [String] { table.unclaimedNames() }

    /// Takes the socket passed under `name` (the socket unit's `FileDescriptorName=`).
    ///
    /// - Returns: the descriptor, now the module's to use and close.
    /// - Throws: ``HiveError`` (`.unavailable`) naming the module and `name` when no socket
    ///   was passed under it (the message lists those that were), when another module took
    ///   it, or after start-up.
    public func take(_ name: String) throws(HiveError) -> Int32 {
        try table.claim(name, for: module, all: false)[0]
    }

    /// Takes every socket passed under `name` (a socket unit with several `ListenStream=`
    /// lines passes them all under one name).
    ///
    /// - Throws: ``HiveError`` (`.unavailable`) as ``take(_:)`` does.
    public func takeAll(_ name: String) throws(HiveError) -> [Int32] {
        try table.claim(name, for: module, all: true)
    }

    /// The names under which this module stored descriptors before the process restarted
    /// and that came back, not yet taken; empty once start-up has ended.
    public var restoredNames: [String] { table.restoredNames(of: module) }

    /// Takes one descriptor this module stored under `name` before the restart. It stays in
    /// the store.
    ///
    /// - Returns: the descriptor, now the module's to use and close; nil if none came back
    ///   under `name` (or start-up has ended).
    public func takeRestored(_ name: String) -> Int32? {
        table.claimRestored(name, for: module)
    }

    /// How many descriptors the descriptor store holds in all (every module's together).
    ///
    /// The first call of the process may ask the service manager; later ones answer at once.
    /// - Throws: ``HiveError`` (`.unavailable`) saying why there is no store (under hived:
    ///   no `NOTIFY_SOCKET`, or no `FileDescriptorStoreMax=` in the unit).
    public func storeCapacity() async throws(HiveError) -> Int {
        try await table.capacity(for: module, doing: nil)
    }

    /// Puts a duplicate of `descriptor` in the descriptor store under `name`, so that the
    /// next start of the process finds it with ``takeRestored(_:)``. The module keeps (and
    /// closes) its own descriptor.
    ///
    /// The first call of the process may ask the service manager whether a store exists;
    /// later ones do not wait on anything.
    /// - Throws: ``HiveError``: `.unavailable` naming the module and why when there is no
    ///   store (under hived: no `NOTIFY_SOCKET`, or no `FileDescriptorStoreMax=` in the
    ///   unit) or it is full; `.invalidParameter` for an empty or too long name.
    public func store(_ descriptor: Int32, as name: String) async throws(HiveError) {
        try await table.store(descriptor, as: name, for: module)
    }

    /// Removes from the store every descriptor this module stored under `name` (the store
    /// closes its copies); nothing happens if there is none.
    public func removeStored(_ name: String) {
        table.removeStored(name, for: module)
    }

    /// The names this module has in the store now (restored ones included), sorted.
    public var storedNames: [String] { table.storedNames(of: module) }
}
