extension ServiceCatalog {
    /// Adds every service implementation declared with an annotation in the executable
    /// and in the shared objects loaded so far (BeeHive's `@BeeHiveService`), under the
    /// service's and the implementation's type names; a configuration's `services:` can
    /// then name it with no other code. Calling it again adds only what shared objects
    /// loaded since declare.
    ///
    /// - Throws: ``HiveError``: `.duplicateRegistration` when the implementation of that
    ///   service is already in the catalog (registered in code, naming both places) or
    ///   declared twice; `.invalidAnnotation` for a malformed annotation. The catalog is
    ///   unchanged then.
    public mutating func registerAnnotations() throws(HiveError) {
        try AnnotationRegistry.shared.register(into: &self, \.service) { catalog, service in
            catalog.implementations[service.implementation]?[service.serviceID]?.origin
        } add: { catalog, service, place in
            service.register(&catalog, place)
        }
    }
}
