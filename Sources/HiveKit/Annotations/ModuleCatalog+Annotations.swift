extension ModuleCatalog {
    /// Adds every module type declared with an annotation in the executable and in the
    /// shared objects loaded so far (BeeHive's `@BeeHiveMod`), under its declared name,
    /// with the routes and actions it exports; a configuration can then name it with no
    /// other code. Calling it again adds only
    /// what shared objects loaded since declare.
    ///
    /// - Throws: ``HiveError``: `.duplicateRegistration` when a declared name is already
    ///   in the catalog (registered in code, naming both places) or declared twice;
    ///   `.invalidAnnotation` for a malformed annotation. The catalog is unchanged then.
    public mutating func registerAnnotations() throws(HiveError) {
        var added = entries
        for found in try AnnotationRegistry.shared.all() {
            guard case .module(let module) = found.annotated else { continue }
            let place = found.declaration.place
            if let existing = added[module.name] {
                if existing.origin == place { continue }
                throw HiveError(
                    .duplicateRegistration,
                    "module type '\(module.name)' is declared twice: registered at \(existing.origin)"
                        + " and declared by an annotation at \(place)")
            }
            added[module.name] = Entry(
                factory: module.factory, origin: place, exportedRoutes: module.exportedRoutes,
                exportedActions: module.exportedActions)
        }
        entries = added
    }
}
