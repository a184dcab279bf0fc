/// A file descriptor the process was given when it started, with the name it came under:
/// a socket of socket activation (`LISTEN_FDS`, named by the socket unit's
/// `FileDescriptorName=`) or one the process put in the descriptor store before it
/// restarted.
///
/// Hand them to the hive in ``HiveConfiguration/passedDescriptors``; modules claim them
/// through ``ModuleContext/sockets``.
public struct PassedDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor number (3 and up under systemd).
    public let descriptor: Int32
    /// The name it was passed under (`LISTEN_FDNAMES`); systemd's default is the socket
    /// unit's name, e.g. `hived.socket`.
    public let name: String

    /// A descriptor passed under `name`.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// `name (fd N)`.
    public var description: String { "'\(name)' (fd \(descriptor))" }
}
