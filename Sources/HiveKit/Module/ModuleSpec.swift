/// A module as a configuration file declares it: a descriptor plus the catalog type
/// that builds it and whether it is enabled (BeeHive's `moduleClasses` plist entry).
public struct ModuleSpec: Sendable, Hashable {
    /// Name, order, concurrency, budget and settings.
    public var descriptor: ModuleDescriptor
    /// The catalog type name that builds the module.
    public var type: String
    /// A disabled module is validated but never registered.
    public var isEnabled: Bool
    /// Where the module was declared (`file:line`), for error messages; `nil` in code.
    public var location: SourceLocation?

    /// A configured module: its descriptor, catalog type, enabled flag and location.
    public init(
        _ descriptor: ModuleDescriptor,
        type: String,
        isEnabled: Bool = true,
        location: SourceLocation? = nil
    ) {
        self.descriptor = descriptor
        self.type = type
        self.isEnabled = isEnabled
        self.location = location
    }

    /// The module's name.
    public var name: String { descriptor.name }
}
