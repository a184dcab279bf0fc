import Logging

/// What a module's hook is given (BeeHive's `BHContext`): the environment, the
/// module's own settings, the event being delivered, a logger, and the hive.
public struct ModuleContext: Sendable {
    /// The module the hook belongs to, as the hive holds it: name, settings, logger.
    let module: HostedModule
    /// The event being delivered.
    public let event: HiveEvent
    /// The hive the module is registered in: module lookup, services, routes, actions.
    public let hive: Hive
    /// The settings a reload proposes, in `validateReload`; `nil` for the module's own.
    private let proposedSettings: Settings?

    /// The name the module is registered under.
    public var moduleName: String { module.name }
    /// development, testing, staging or production.
    public var environment: HiveEnvironment { hive.environment }
    /// The module's own settings, as they are when read (after a reload, the new ones); in
    /// ``Module/validateReload(_:)``, the settings the reload proposes.
    public var settings: Settings { proposedSettings ?? module.settings }
    /// The module's logger: `module` metadata, and `event` for the event the hive
    /// delivers when a line is logged (none between events). Hand it to route, action and
    /// service handlers and background tasks: their lines tell the truth about both.
    public var logger: Logger { module.logger }
    /// Where the module keeps files that outlive the process: the hive's
    /// ``HiveConfiguration/stateDirectory`` (under HiveDaemon, the first directory of
    /// systemd's `$STATE_DIRECTORY`, such as `/var/lib/NAME`); `nil` when none is set.
    public var stateDirectory: String? { hive.configuration.stateDirectory }
    /// Where the module keeps files that last until the process stops (sockets, PID files):
    /// the hive's ``HiveConfiguration/runtimeDirectory`` (under HiveDaemon, the first
    /// directory of systemd's `$RUNTIME_DIRECTORY`, such as `/run/NAME`); `nil` when none is
    /// set.
    public var runtimeDirectory: String? { hive.configuration.runtimeDirectory }

    /// Made for every hook call: three references and, in `validateReload`, the proposed
    /// settings.
    init(_ module: HostedModule, event: HiveEvent, hive: Hive, settings: Settings?) {
        self.module = module
        self.event = event
        self.hive = hive
        self.proposedSettings = settings
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
