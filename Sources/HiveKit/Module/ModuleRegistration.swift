/// A module instance together with its descriptor, ready to be registered in a hive.
public struct ModuleRegistration: Sendable {
    /// Name, order, concurrency, budget and settings.
    public var descriptor: ModuleDescriptor
    /// The module itself.
    public var module: any Module

    /// Registers `module` as `descriptor` describes it.
    public init(_ descriptor: ModuleDescriptor, module: any Module) {
        self.descriptor = descriptor
        self.module = module
    }

    /// Registers `module` under `name` with the given order and settings.
    public init(
        name: String,
        level: ModuleLevel = .normal,
        priority: Int = 0,
        isAsync: Bool = false,
        budget: Duration? = nil,
        settings: Settings = Settings(),
        module: any Module
    ) {
        self.init(
            ModuleDescriptor(
                name: name, level: level, priority: priority,
                isAsync: isAsync, budget: budget, settings: settings),
            module: module)
    }
}
