import HiveKit
import Logging
import Synchronization

/// The process-wide log level that handlers made by ``HiveLogging`` follow until a logger
/// sets its own, so a reload can change the level of every existing logger at once.
final class LogLevelStore: Sendable {
    private static let levels = Logger.Level.allCases
    private let index: Atomic<Int>

    init(_ level: Logger.Level) {
        index = Atomic(Self.levels.firstIndex(of: level) ?? 2)
    }

    /// The current level; one relaxed atomic load.
    var level: Logger.Level {
        get { Self.levels[index.load(ordering: .relaxed)] }
        set { index.store(Self.levels.firstIndex(of: newValue) ?? 2, ordering: .relaxed) }
    }
}
