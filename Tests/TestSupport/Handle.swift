import HiveKit

/// A service protocol the service tests register and resolve.
public protocol Resource: Sendable {}

/// A ``Resource`` that writes `release NAME` into its journal when the registry releases it.
public final class Handle: Resource, ServiceReleasing {
    /// Its name, in the journal's line.
    public let name: String
    /// Where its release is written.
    public let journal: Journal
    /// A handle named `name` writing into `journal`.
    public init(_ name: String, _ journal: Journal) {
        self.name = name
        self.journal = journal
    }
    /// Writes `release NAME`.
    public func release() { journal.add("release \(name)") }
}
