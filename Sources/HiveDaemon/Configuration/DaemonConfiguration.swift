import HiveKit
/// Everything a daemon configuration file says, validated: environment, logging, time
/// budgets, the signal map, system sleep, memory pressure, the modules and the services.
///
/// Build one with ``DaemonConfiguration/load(path:catalog:overrides:daemonName:)`` or
/// ``DaemonConfiguration/parse(_:path:catalog:overrides:daemonName:)``.
///
/// ## Configuration keys
/// - `environment`: `development`, `testing`, `staging` or `production` (default);
///   overridden by `NAME_ENVIRONMENT` (see ``ConfigurationOverrides``).
/// - `log`: see ``LogConfiguration``.
/// - `budgets`: see ``BudgetConfiguration``.
/// - `signals`: signal name or number → `custom:NAME`, `memoryWarning` or `reload`.
/// - `sleep`: see ``SleepConfiguration``.
/// - `memory_pressure`: see ``MemoryPressureConfiguration``.
/// - `modules`: a list of `name`, `type`, `level`, `priority`, `async`, `enabled`,
///   `budget`, `settings` entries (see ``/HiveKit/ModuleDescriptor``).
/// - `services`: a list of `service`, `implementation`, `name`, `lifetime` entries
///   (see ``/HiveKit/ServiceSpec``).
/// - `control`: see ``ControlConfiguration``.
public struct DaemonConfiguration: Sendable, Hashable {
    /// The deployment environment every module's context reports.
    public var environment: HiveEnvironment
    /// Log level and target.
    public var log: LogConfiguration
    /// Per-event and whole-stop time budgets.
    public var budgets: BudgetConfiguration
    /// What each mapped signal fires, by signal number. Never contains a signal that
    /// cannot be caught (`SIGKILL`, `SIGSTOP`), reports a fault (`SIGSEGV`…) or has a
    /// fixed meaning (`SIGTERM`, `SIGINT`, `SIGHUP`, `SIGTSTP`, `SIGCONT`).
    public var signals: [Int32: HiveEvent]
    /// Whether and how system sleep (logind's `PrepareForSleep`) is followed.
    public var sleep: SleepConfiguration
    /// Whether and how memory pressure becomes `memoryWarning`.
    public var memoryPressure: MemoryPressureConfiguration
    /// The configured modules, in file order, disabled ones included; names are unique.
    public var modules: [ModuleDescriptor]
    /// Whether the file says `modules: []`: no modules, on purpose. A reload that would
    /// remove every running module is refused otherwise, since a file caught half-written
    /// (cut right after `modules:`) or emptied looks the same.
    var declaresNoModules = false

    /// Why a reload to this configuration is refused when it would remove every running
    /// module; `nil` when the file says `modules: []`. `check-config` refuses a file that
    /// enables no module with it too, so the two agree.
    var removingEveryModule: HiveError? {
        declaresNoModules ? nil : HiveError(
            .invalidConfiguration,
            "\(path ?? "the configuration"): enables no module, which would remove every running module; "
                + "write `modules: []` if that is meant (a file caught half-written looks the same)")
    }
    /// The configured services, in file order; (service, name) pairs are unique.
    public var services: [ServiceSpec]
    /// The control socket: where, and who may use it.
    public var control: ControlConfiguration
    /// The file the configuration was read from; `nil` for embedded text.
    public var path: String?

    /// A configuration; the defaults are those of an empty file.
    init(
        environment: HiveEnvironment = .production,
        log: LogConfiguration = LogConfiguration(),
        budgets: BudgetConfiguration = BudgetConfiguration(),
        signals: [Int32: HiveEvent] = [:],
        sleep: SleepConfiguration = SleepConfiguration(),
        memoryPressure: MemoryPressureConfiguration = MemoryPressureConfiguration(),
        modules: [ModuleDescriptor] = [],
        services: [ServiceSpec] = [],
        control: ControlConfiguration = ControlConfiguration(),
        path: String? = nil
    ) {
        self.environment = environment
        self.log = log
        self.budgets = budgets
        self.signals = signals
        self.sleep = sleep
        self.memoryPressure = memoryPressure
        self.modules = modules
        self.services = services
        self.control = control
        self.path = path
    }

    /// The modules that are enabled, in file order.
    var enabledModules: [ModuleDescriptor] { modules.filter(\.isEnabled) }

    /// The configured module named `name`, enabled or not.
    func module(named name: String) -> ModuleDescriptor? {
        modules.first { $0.name == name }
    }
}
