import Logging

/// A log handler that changes one thing about another handler, its ``base``, and leaves
/// the rest to it: the metadata, the metadata provider and each metadata value are the
/// base's. A module's handler adds the module and the event; HiveDaemon's wrapper of a
/// process's own handler adds the configuration's level.
package protocol ForwardingLogHandler: LogHandler {
    /// The handler written to.
    var base: any LogHandler { get set }
}

extension ForwardingLogHandler {
    /// The base's metadata.
    package var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    /// The base's metadata provider.
    package var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    /// One metadata value of the base.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }
}
