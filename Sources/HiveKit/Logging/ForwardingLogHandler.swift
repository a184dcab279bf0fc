import Logging

/// A log handler that wraps another and passes it what it does not change itself: its
/// metadata, metadata provider, log level and metadata subscript all read and write the
/// wrapped handler's, unless the conforming type implements them.
package protocol ForwardingLogHandler: LogHandler {
    /// The handler this one writes through.
    var wrapped: any LogHandler { get set }
}

extension ForwardingLogHandler {
    package var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    package var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    package var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }
}
