/// What one annotation's function declared, with where.
enum Annotated: Sendable {
    case module(ModuleAnnotation)
    case service(ServiceAnnotation)

    var file: String {
        switch self {
        case .module(let module): module.file
        case .service(let service): service.file
        }
    }

    var line: Int {
        switch self {
        case .module(let module): module.line
        case .service(let service): service.line
        }
    }

    /// The module type declared, if that is what was declared.
    var module: ModuleAnnotation? {
        if case .module(let module) = self { module } else { nil }
    }

    /// The service implementation declared, if that is what was declared.
    var service: ServiceAnnotation? {
        if case .service(let service) = self { service } else { nil }
    }
}

/// A module type an annotation declared, with the routes and actions its modules export.
struct ModuleAnnotation: Sendable {
    let name: String
    let file: String
    let line: Int
    let factory: ModuleCatalog.Factory
    let settings: SettingKeys
    let exportedRoutes: Set<String>
    let exportedActions: Set<String>
}

/// A service implementation an annotation declared.
struct ServiceAnnotation: Sendable {
    /// The service type, as the catalog keys it.
    let serviceID: ObjectIdentifier
    let service: String
    let implementation: String
    let lifetime: ServiceLifetime
    let file: String
    let line: Int
    /// Adds the implementation to a catalog, with the given origin (the generic types
    /// live in this closure).
    let register: @Sendable (inout ServiceCatalog, _ origin: String) -> Void
}

/// A declaration with the image it was found in.
struct FoundAnnotation: Sendable {
    let annotated: Annotated
    let image: String

    var declaration: AnnotationDeclaration {
        switch annotated {
        case .module(let module):
            AnnotationDeclaration(kind: .module, name: module.name, file: module.file, line: module.line, image: image)
        case .service(let service):
            AnnotationDeclaration(
                kind: .service(service.service), name: service.implementation, file: service.file,
                line: service.line, image: image)
        }
    }
}
