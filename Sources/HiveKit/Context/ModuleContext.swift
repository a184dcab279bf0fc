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
    /// The module's logger, with `module` metadata; ``logger`` adds the event.
    private let moduleLogger: Logger
    /// The hive the module is registered in: module lookup, services, routes, actions.
    public let hive: Hive

    init(entry: ModuleEntry, event: HiveEvent, hive: Hive) {
        self.moduleName = entry.descriptor.name
        self.event = event
        self.environment = hive.environment
        self.settings = entry.settings
        self.moduleLogger = entry.logger
        self.hive = hive
    }

    /// A logger whose metadata carries `module` and `event`. Built when asked for, so a
    /// hook that does not log costs no allocation.
    public var logger: Logger {
        var logger = moduleLogger
        logger[metadataKey: "event"] = .string(event.kind.name)
        return logger
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
