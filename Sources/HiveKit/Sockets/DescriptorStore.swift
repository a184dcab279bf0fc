/// Keeps file descriptors for the process's next start: systemd's file descriptor store
/// under hived (`FDSTORE=1`), so listeners and open connections outlive a restart.
///
/// HiveKit decides the names (``ModuleSockets`` prefixes them with the module's name) and
/// counts what is stored against ``capacity()``; an implementation only talks to the
/// store. ``store(_:name:)`` and ``remove(name:)`` may run on the event and stop paths:
/// they must never wait on another process.
public protocol DescriptorStore: Sendable {
    /// How many descriptors the store can hold in all.
    ///
    /// The first call may ask the service manager (and so suspend); later calls answer at
    /// once.
    /// - Throws: an error saying why the store cannot take descriptors (no service
    ///   manager to talk to, a store of size zero).
    func capacity() async throws -> Int

    /// Hands the store a duplicate of `descriptor` under `name`; the caller keeps its own.
    ///
    /// - Throws: an error when the descriptor cannot be duplicated or sent.
    func store(_ descriptor: Int32, name: String) throws

    /// Removes from the store every descriptor kept under `name`, which the store then
    /// closes.
    func remove(name: String)
}
