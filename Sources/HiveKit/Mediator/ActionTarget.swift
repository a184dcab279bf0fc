/// A target type (CTMediator's `Target_A` class): an object made for the calls that name
/// it, answering the actions it lists, and kept between calls only when a caller asks for
/// that (CTMediator's `shouldCacheTarget:`).
///
/// ```swift
/// final class Cells: ActionTarget {              // holds state worth keeping between calls
///     static let actionNames = ["cell", "configCell"]
///     private let made = Mutex(0)
///     func perform(_ request: ActionRequest) async throws -> any Sendable {
///         switch request.action {
///         case "cell": return made.withLock { $0 += 1; return $0 }
///         default: return try request.parameter("title", as: String.self)
///         }
///     }
/// }
/// try context.mediator.register(target: "Cells") { Cells() }     // in module "table"'s setup
/// try await hive.mediator.perform(target: "table.Cells", action: "cell", cachesTarget: true)
/// hive.mediator.releaseCachedTarget("table.Cells")
/// ```
/// A module's target types are named with the module (`table.Cells`), as CTMediator names
/// a Swift target with its module (`kCTMediatorParamsKeySwiftTargetModuleName`); they go
/// with the module, cached instances included.
public protocol ActionTarget: Sendable {
    /// The actions ``perform(_:)`` answers (CTMediator's `Action_…:` methods).
    static var actionNames: [String] { get }
    /// Performs `request.action`, one of ``actionNames``, and returns its result (`()`
    /// for none).
    func perform(_ request: ActionRequest) async throws -> any Sendable
}
