import HiveKit
extension ConfigurationParser {
    /// A module's free-form `settings:` map.
    func settingsMap(_ node: ConfigNode) throws(HiveError) -> [String: SettingValue] {
        var values: [String: SettingValue] = [:]
        for entry in try node.entries(of: "a map of settings") {
            values[entry.name] = try settingValue(entry.value)
        }
        return values
    }

    /// The line of every key in a `settings:` map, by its path below it (`stall_on.init`);
    /// `""` is the map's own line.
    func settingLines(_ node: ConfigNode) -> [String: Int] {
        var lines = ["": node.line]
        func collect(_ node: ConfigNode, prefix: String) {
            guard case .mapping(let pairs) = node.node.content else { return }
            for (key, value) in pairs {
                guard case .scalar(let name, _) = key.content else { continue }
                let path = prefix.isEmpty ? name : "\(prefix).\(name)"
                lines[path] = key.line
                collect(node.child(value, key: name), prefix: path)
            }
        }
        collect(node, prefix: "")
        return lines
    }

    /// One setting: YAML integers become `.int`, floats `.double`, booleans `.bool`,
    /// nulls `.null`, lists and maps recursively, anything else `.string`.
    func settingValue(_ node: ConfigNode) throws(HiveError) -> SettingValue {
        switch node.node.content {
        case .scalar(let text, let type):
            switch type {
            case .null:
                return .null
            case .bool:
                guard let value = PlainScalar.bool(text) else { return .string(text) }
                return .bool(value)
            case .int:
                guard let value = PlainScalar.int(text) else {
                    throw node.error("integer \(node.found) is out of range")
                }
                return .int(value)
            case .float:
                guard let value = PlainScalar.double(text) else { return .string(text) }
                return .double(value)
            case .string, .merge:
                return .string(text)
            }
        case .sequence(let sequence):
            var items: [SettingValue] = []
            for (index, item) in sequence.enumerated() {
                items.append(try settingValue(node.element(item, index: index)))
            }
            return .list(items)
        case .mapping:
            return .map(try settingsMap(node))
        }
    }
}
