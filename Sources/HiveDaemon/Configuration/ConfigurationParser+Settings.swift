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

    /// The line of a `settings:` map and of every key below it, as a tree.
    func settingLines(_ node: YAMLNode) -> SettingsOrigin.Lines {
        guard case .mapping(let pairs) = node.content else { return SettingsOrigin.Lines(line: node.line) }
        var children: [String: SettingsOrigin.Lines] = [:]
        for (key, value) in pairs {
            guard case .scalar(let name, _) = key.content else { continue }
            let below = settingLines(value)
            children[name] = SettingsOrigin.Lines(line: key.line, children: below.children)
        }
        return SettingsOrigin.Lines(line: node.line, children: children)
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
