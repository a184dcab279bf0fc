/// What a registration is stored under: the service type and an optional variant name.
struct ServiceKey: Hashable, Sendable, CustomStringConvertible {
    let type: ObjectIdentifier
    let name: String?
    /// The type's name, for messages; not part of equality.
    let typeName: String

    /// The key of `Service` itself: built from the static generic type, never from the
    /// metatype argument, which may hold a subclass of `Service` (a slot stored under a
    /// subclass's key would hand its `Service` values out as that subclass).
    init<Service>(_ type: Service.Type, name: String?) {
        self.type = ObjectIdentifier(Service.self)
        self.name = name
        self.typeName = ServiceKey.name(of: Service.self)
    }

    init(type: ObjectIdentifier, typeName: String, name: String?) {
        self.type = type
        self.name = name
        self.typeName = typeName
    }

    static func == (lhs: ServiceKey, rhs: ServiceKey) -> Bool {
        lhs.type == rhs.type && lhs.name == rhs.name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(name)
    }

    /// The unqualified name of `type` (`Clock`). `_typeName` reads it from the type's
    /// metadata; `String(describing:)` would first look up three protocol conformances,
    /// each a scan of every conformance in the binary on first use (a millisecond of
    /// hived's start-up).
    static func name(of type: Any.Type) -> String {
        _typeName(type, qualified: false)
    }

    /// `Clock` or `Clock named 'utc'`.
    var description: String {
        guard let name else { return typeName }
        return "\(typeName) named '\(name)'"
    }
}
