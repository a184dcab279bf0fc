extension Hive {
    /// The service registry, acting for the hive itself: registrations made here belong
    /// to no module (they survive module unregistration) and are meant for code outside
    /// the modules and for `services:` entries of the configuration file.
    public var services: ServiceRegistry { ServiceRegistry(store: serviceStore, owner: nil) }
}

extension ModuleContext {
    /// The service registry, acting for this module: what it registers here belongs to
    /// it and is removed (singletons released) when the module is unregistered.
    public var services: ServiceRegistry { ServiceRegistry(store: hive.serviceStore, owner: moduleName) }
}
