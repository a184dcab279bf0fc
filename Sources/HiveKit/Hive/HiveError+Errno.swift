import Logging

/// An error that stands for a C `errno` value, so hived can pass it to systemd as `ERRNO=`.
public protocol ErrnoCarrying: Error {
    /// The positive `errno` value.
    var errno: Int32 { get }
}

extension HiveError {
    /// The `errno` behind this error, if the module's error carries a positive one.
    package var errnoValue: Int32? {
        guard let code = (underlying as? any ErrnoCarrying)?.errno, code > 0 else { return nil }
        return code
    }

    /// What to log with ``logMetadata``: the description without the module and event,
    /// which the metadata carries (`hived.yaml:3: cause`, or the cause alone).
    package var logMessage: String {
        guard module != nil || event != nil else { return description }
        return location.map { "\($0): \(message)" } ?? message
    }

    /// `module` and `event` metadata for logging this error.
    package var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        if let module { metadata["module"] = .string(module) }
        if let event { metadata["event"] = .stringConvertible(event.kind) }
        return metadata
    }
}
