import HiveKit
import Logging

/// Turns configuration text into a ``DaemonConfiguration``, validating every key.
///
/// Errors are thrown at the first problem in the file; nothing partial is returned.
struct ConfigurationParser {
    /// The file name used in error locations.
    let file: String
    /// The path stored in the result; `nil` for embedded text.
    let path: String?
    /// When given, module types must be known to it.
    let catalog: ModuleCatalog?
    /// Whether text holding no YAML document is an error (for files) rather than the
    /// empty configuration.
    let requiresDocument: Bool
    /// The daemon as messages name it (`mydaemon`).
    let daemonName: String

    static let topLevelKeys = [
        "environment", "log", "budgets", "signals", "sleep", "memory_pressure", "modules", "services", "control",
    ]

    init(path: String?, catalog: ModuleCatalog?, requiresDocument: Bool = false, daemonName: String) {
        self.path = path
        self.file = path ?? "<embedded>"
        self.catalog = catalog
        self.requiresDocument = requiresDocument
        self.daemonName = daemonName
    }

    /// Parses and validates `text`.
    func parse(_ text: String) throws(HiveError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration(path: path)
        // No document, or a null one (`---`, `~`): the defaults, except from a file.
        guard let root = try YAMLReader.read(text, file: file), root.isNull == false else {
            guard !requiresDocument else {
                throw HiveError(
                    .invalidConfiguration, location: SourceLocation(path: file, line: 1),
                    "the file holds no configuration (it is empty or only comments); write {} for the defaults")
            }
            return configuration
        }
        let top = ConfigNode(root: root, file: file)
        guard case .mapping = root.content else {
            throw top.error(
                "the configuration must be a map of keys (\(Self.topLevelKeys.joined(separator: ", "))), got \(top.found)"
            )
        }
        let map = try top.map(keys: Self.topLevelKeys, of: "a map")
        if let node = map["environment"] { configuration.environment = try environment(node) }
        if let node = map["log"] { configuration.log = try log(node) }
        if let node = map["budgets"] { configuration.budgets = try budgets(node) }
        if let node = map["signals"] { configuration.signals = try signals(node) }
        if let node = map["sleep"] { configuration.sleep = try sleep(node) }
        if let node = map["memory_pressure"] { configuration.memoryPressure = try memoryPressure(node) }
        if let node = map["modules"] {
            configuration.modules = try modules(node)
            if case .sequence(let items) = node.node.content, items.isEmpty { configuration.declaresNoModules = true }
        }
        if let node = map["services"] { configuration.services = try services(node) }
        if let node = map["control"] { configuration.control = try control(node) }
        return configuration
    }

    /// `environment: production`.
    func environment(_ node: ConfigNode) throws(HiveError) -> HiveEnvironment {
        try node.choice(HiveEnvironment.allCases.map { ($0.rawValue, $0) })
    }

    /// `log: {level: info, target: auto}`.
    func log(_ node: ConfigNode) throws(HiveError) -> LogConfiguration {
        let map = try node.map(keys: ["level", "target"], of: "a map with level and target")
        var log = LogConfiguration()
        if let level = map["level"] { log.level = try level.choice(LogConfiguration.levels, aliases: LogConfiguration.levelAliases) }
        if let target = map["target"] {
            log.target = try target.choice(LogTarget.allCases.map { ($0.rawValue, $0) })
        }
        return log
    }

    /// `budgets: {event: 5s, stop: 30s}`.
    func budgets(_ node: ConfigNode) throws(HiveError) -> BudgetConfiguration {
        let map = try node.map(keys: ["event", "stop"], of: "a map with event and stop")
        var budgets = BudgetConfiguration()
        if let event = map["event"] { budgets.event = try event.duration() }
        if let stop = map["stop"] { budgets.stop = try stop.duration() }
        return budgets
    }
}
