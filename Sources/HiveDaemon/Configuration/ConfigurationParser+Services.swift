import HiveKit
extension ConfigurationParser {
    static let serviceKeys = ["service", "implementation", "name", "lifetime"]

    /// The `services:` list; each (service, name) pair may appear once.
    func services(_ node: ConfigNode) throws(HiveError) -> [ServiceSpec] {
        var specs: [ServiceSpec] = []
        var firstLines: [ServiceIdentity: Int] = [:]
        for item in try node.list(of: "services") {
            let map = try item.map(keys: Self.serviceKeys, of: "a service (a map with service and implementation)")
            let serviceNode = try map.required("service")
            let service = try serviceNode.name()
            let implementation = try map.required("implementation").name()
            let name = try map["name"]?.name()
            // No lifetime: the implementation's own (singleton unless its catalog entry says otherwise).
            let lifetime = try map["lifetime"].map { node throws(HiveError) in
                try node.choice([(name: "singleton", value: ServiceLifetime.singleton), (name: "transient", value: .transient)])
            }
            let identity = ServiceIdentity(service: service, name: name)
            if let firstLine = firstLines[identity] {
                let culprit = map["name"] ?? serviceNode
                let named = name.map { " named \(quoted: $0)" } ?? ""
                throw culprit.error(
                    "service \(service.abbreviated())\(named) is declared twice (first at line \(firstLine))",
                    code: .duplicateRegistration)
            }
            firstLines[identity] = item.line
            specs.append(
                ServiceSpec(
                    service: service, implementation: implementation, name: name,
                    lifetime: lifetime, location: item.location))
        }
        return specs
    }
}

/// A service and its name: what may be declared once.
private struct ServiceIdentity: Hashable {
    let service: String
    let name: String?
}
