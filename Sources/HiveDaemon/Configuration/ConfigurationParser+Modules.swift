import HiveKit
extension ConfigurationParser {
    static let moduleKeys = ["name", "type", "level", "priority", "async", "enabled", "budget", "settings", "export"]

    /// The `modules:` list; names must be unique and, with a catalog, types known.
    func modules(_ node: ConfigNode) throws(HiveError) -> [ModuleDescriptor] {
        var descriptors: [ModuleDescriptor] = []
        var firstLines: [String: Int] = [:]
        for item in try node.list(of: "modules") {
            let map = try item.map(keys: Self.moduleKeys, of: "a module (a map with name and type)")
            let nameNode = try map.required("name")
            let name = try nameNode.name()
            if let firstLine = firstLines[name] {
                throw nameNode.error(
                    "duplicate module name \(quoted: name) (first declared at line \(firstLine))",
                    code: .duplicateModule, module: name)
            }
            firstLines[name] = nameNode.line
            let typeNode = try map.required("type")
            let type = try typeNode.name()
            if let catalog, !catalog.contains(type) {
                let known = catalog.typeNames.isEmpty ? "none" : catalog.typeNames.joined(separator: ", ")
                throw typeNode.error(
                    "unknown module type \(quoted: type) (known: \(known))", code: .unknownModuleType, module: name)
            }
            var descriptor = ModuleDescriptor(name: name, type: type, location: item.location)
            if let level = map["level"] { descriptor.level = try level.choice(ModuleLevel.allCases.map { ($0.description, $0) }) }
            if let priority = map["priority"] { descriptor.priority = try priority.int() }
            if let isAsync = map["async"] { descriptor.isAsync = try isAsync.bool() }
            if let budget = map["budget"] { descriptor.budget = try budget.duration() }
            if let settings = map["settings"] {
                descriptor.settings = Settings(try settingsMap(settings), owner: name)
                descriptor.settings.origin = SettingsOrigin(file: file, lines: settingLines(settings.node))
            } else {
                descriptor.settings = Settings(owner: name)
            }
            if let export = map["export"] { try exports(export, into: &descriptor) }
            descriptor.isEnabled = try map["enabled"]?.bool() ?? true
            descriptors.append(descriptor)
        }
        return descriptors
    }
}
