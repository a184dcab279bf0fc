import Logging

/// What a ``ModuleEntry`` refers to: a registered module's descriptor, instance, logger
/// and runtime. Immutable: new settings make a new one
/// (``replacing(_:)``), so an event's snapshot and the contexts made from it keep the
/// settings they were delivered with.
final class RegisteredModule: Sendable {
    let descriptor: ModuleDescriptor
    let module: any Module
    /// The catalog type that built it, or `nil` for a module registered in code.
    let type: String?
    let logger: Logger
    let runtime: ModuleRuntime

    init(
        descriptor: ModuleDescriptor, module: any Module, type: String?, logger: Logger,
        runtime: ModuleRuntime
    ) {
        self.descriptor = descriptor
        self.module = module
        self.type = type
        self.logger = logger
        self.runtime = runtime
    }

    /// The same module with `descriptor` instead of its own.
    func replacing(_ descriptor: ModuleDescriptor) -> RegisteredModule {
        RegisteredModule(
            descriptor: descriptor, module: module, type: type, logger: logger, runtime: runtime)
    }
}
