extension ModuleCatalog {
    /// Adds every module type declared with an annotation in the executable and in the
    /// shared objects loaded so far (BeeHive's `@BeeHiveMod`), under its declared name,
    /// with the settings it takes and the routes and actions it exports; a configuration
    /// can then name it with no other code. Calling it again adds only what shared objects
    /// loaded since declare.
    ///
    /// - Throws: ``HiveError``: `.duplicateRegistration` when a declared name is already
    ///   in the catalog (registered in code, naming both places) or declared twice;
    ///   `.invalidAnnotation` for a malformed annotation. The catalog is unchanged then.
    public mutating func registerAnnotations() throws(HiveError) {
        try AnnotationRegistry.shared.register(into: &self, \.module) { catalog, module in
            catalog.entries[module.name]?.origin
        } add: { catalog, module, place in
            catalog.entries[module.name] = Entry(
                factory: module.factory, origin: place, settings: module.settings, exportedRoutes: module.exportedRoutes,
                exportedActions: module.exportedActions)
        }
    }
}
