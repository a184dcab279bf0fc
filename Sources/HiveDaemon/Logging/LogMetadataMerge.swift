import HiveKit
import Logging

/// How every HiveKit handler combines its metadata sources: the handler's own metadata,
/// then the metadata provider's, then the log call's, later ones winning (as swift-log's
/// `StreamLogHandler` does).
enum LogMetadataMerge {
    static func merged(
        _ handler: Logger.Metadata,
        provider: Logger.MetadataProvider?,
        call: Logger.Metadata?
    ) -> Logger.Metadata {
        var result = handler
        if let provided = provider?.get(), !provided.isEmpty {
            result.merge(provided) { _, new in new }
        }
        if let call, !call.isEmpty {
            result.merge(call) { _, new in new }
        }
        return result
    }
}
