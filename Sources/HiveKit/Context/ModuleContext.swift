import Logging

/// What a module's hook is given (BeeHive's `BHContext`): the environment, the
/// module's own settings, the event being delivered, a logger, and the hive.
public struct ModuleContext: Sendable {
    /// The name the module is registered under.
    public let moduleName: String
    /// The event being delivered.
    public let event: HiveEvent
    /// development, testing, staging or production.
    public let environment: HiveEnvironment
    /// The module's own settings (after a reload, the new ones).
    public let settings: Settings
    /// The module's logger: `module` metadata, and `event` for the event the hive
    /// delivers when a line is logged (none between events). Hand it to route, action and
    /// service handlers and background tasks: their lines tell the truth about both.
    public let logger: Logger
    /// The hive the module is registered in: module lookup, services, routes, actions.
    public let hive: Hive

    init(entry: ModuleEntry, event: HiveEvent, hive: Hive) {
        self.moduleName = entry.descriptor.name
        self.event = event
        self.environment = hive.environment
        self.settings = entry.settings
        self.logger = entry.logger
        self.hive = hive
    }

    /// The custom event's name, when ``event`` is a custom event.
    public var customEventName: String? {
        if case .custom(let name, _) = event { return name }
        return nil
    }

    /// The event's parameters (BeeHive's `customParam`): a custom event's, or where
    /// `background`, `foreground` and `memoryWarning` came from (`reason`: `sleep` or
    /// `signal`; `source`: `psi`, with `some_avg10`).
    public var parameters: [String: String] { event.parameters }

    /// The custom event's parameters (BeeHive's `customParam`); empty otherwise.
    public var customParameters: [String: String] {
        if case .custom(_, let params) = event { return params }
        return [:]
    }

    /// Another registered module, by name (BeeHive's module lookup).
    public func module(named name: String) -> (any Module)? {
        hive.module(named: name)
    }
}
