import HiveKit
import Logging

/// A module that implements no hook: every call is the protocol's default no-op, so a
/// benchmark measures only what the hive adds around a call.
struct NoOpModule: Module {}

/// `count` instances of ``NoOpModule`` with their descriptors; `isAsync(i)` picks which
/// ones are async.
func noOpRegistrations(
    _ count: Int, isAsync: (Int) -> Bool = { _ in false }
) -> [(module: any Module, descriptor: ModuleDescriptor)] {
    (0..<count).map { index in
        (NoOpModule(), ModuleDescriptor(name: "noop-\(index)", isAsync: isAsync(index)))
    }
}

/// Which logger the hive hands its modules.
enum BenchLogger {
    /// `HiveConfiguration`'s default: swift-log's default handler (a `StreamLogHandler`
    /// on stderr unless `LoggingSystem` was bootstrapped); nothing is logged at `.info`.
    case standard
    /// `SwiftLogNoOpLogHandler`: shows what the hive costs without any handler's work.
    case noOp

    var configuration: HiveConfiguration {
        switch self {
        case .standard:
            HiveConfiguration(environment: .testing)
        case .noOp:
            HiveConfiguration(
                environment: .testing, logger: Logger(label: "hived") { _ in SwiftLogNoOpLogHandler() })
        }
    }
}

/// A started, running hive of the given registrations.
func runningHive(
    _ registrations: [(module: any Module, descriptor: ModuleDescriptor)], logger: BenchLogger = .standard
) async throws -> Hive {
    let hive = try Hive(logger.configuration, modules: registrations)
    try await hive.start()
    try await hive.send(.ready)
    return hive
}
