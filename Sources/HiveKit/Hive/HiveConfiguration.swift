import Logging

/// How a ``Hive`` behaves as a whole; each module's own part is its ``ModuleDescriptor``.
public struct HiveConfiguration: Sendable {
    /// The environment every module's context reports.
    public var environment: HiveEnvironment
    /// The time budget of a hook call when the module names none.
    public var defaultBudget: Duration
    /// The logger modules' loggers derive from (they add `module` and `event` metadata).
    public var logger: Logger
    /// Descriptors the process was given at start (socket activation, the descriptor
    /// store), offered to modules through ``ModuleContext/sockets`` until start-up ends.
    public var passedDescriptors: [PassedDescriptor]
    /// Where modules' descriptors are kept across restarts; `nil`: nowhere (storing fails).
    public var descriptorStore: (any DescriptorStore)?
    /// The directory modules keep persistent files in, which ``ModuleContext/stateDirectory``
    /// reports; `nil`: none (a daemon sets it from systemd's `$STATE_DIRECTORY`).
    public var stateDirectory: String?
    /// The directory modules keep files in that last until the process stops, which
    /// ``ModuleContext/runtimeDirectory`` reports; `nil`: none (a daemon sets it from
    /// systemd's `$RUNTIME_DIRECTORY`).
    public var runtimeDirectory: String?

    /// A configuration; every parameter has a default (the logger is labelled `HiveKit`;
    /// no descriptors, no store, no directories).
    public init(
        environment: HiveEnvironment = .development,
        defaultBudget: Duration = .seconds(5),
        logger: Logger = Logger(label: "HiveKit"),
        passedDescriptors: [PassedDescriptor] = [],
        descriptorStore: (any DescriptorStore)? = nil,
        stateDirectory: String? = nil,
        runtimeDirectory: String? = nil
    ) {
        self.environment = environment
        self.defaultBudget = defaultBudget
        self.logger = logger
        self.passedDescriptors = passedDescriptors
        self.descriptorStore = descriptorStore
        self.stateDirectory = stateDirectory
        self.runtimeDirectory = runtimeDirectory
    }
}
