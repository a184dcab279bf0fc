import HiveKit
extension ConfigurationParser {
    /// A module's free-form `settings:` map.
    ///
    /// Walked straight from the YAML nodes: a key path (``ConfigNode``) is made per list or
    /// map below, not per value, so a file of 100,000 settings costs little more than the
    /// values themselves.
    func settingsMap(_ node: ConfigNode) throws(HiveError) -> [String: SettingValue] {
        let pairs = try node.pairs(of: "a map of settings")
        // Sized once: growing a map of 100,000 settings would hash them all again and again.
        var values = [String: SettingValue](minimumCapacity: pairs.count / 2)
        for index in stride(from: 0, to: pairs.count - 1, by: 2) {
            let name = try node.keyName(pairs[index])
            values[name] = try settingValue(pairs[index + 1]) { node.child($0, key: name) }
        }
        return values
    }

    /// The line of a `settings:` map and of every key below it, as a tree.
    func settingLines(_ node: YAMLNode) -> SettingsOrigin.Lines {
        SettingsOrigin.Lines(line: node.line, children: keyLines(node))
    }

    /// The lines of the keys of `node`, if it is a map, and of every key below them.
    private func keyLines(_ node: YAMLNode) -> [String: SettingsOrigin.Lines] {
        guard case .mapping(let pairs) = node.content, !pairs.isEmpty else { return [:] }
        var children = [String: SettingsOrigin.Lines](minimumCapacity: pairs.count / 2)
        for index in stride(from: 0, to: pairs.count - 1, by: 2) {
            guard case .scalar(let name, _) = pairs[index].content else { continue }
            children[name] = SettingsOrigin.Lines(line: pairs[index].line, children: keyLines(pairs[index + 1]))
        }
        return children
    }

    /// One setting: YAML integers become `.int`, floats `.double`, booleans `.bool`,
    /// nulls `.null`, lists and maps recursively, anything else `.string`. `located` makes
    /// the node's ``ConfigNode`` (its key path), only for a list, a map or an error.
    func settingValue(
        _ node: YAMLNode, located: (YAMLNode) -> ConfigNode
    ) throws(HiveError) -> SettingValue {
        switch node.content {
        case .scalar(let text, let type):
            switch type {
            case .null:
                return .null
            case .bool:
                guard let value = PlainScalar.bool(text) else { return .string(text) }
                return .bool(value)
            case .int:
                guard let value = PlainScalar.int(text) else {
                    let located = located(node)
                    throw located.error("integer \(located.found) is out of range")
                }
                return .int(value)
            case .float:
                guard let value = PlainScalar.double(text) else { return .string(text) }
                return .double(value)
            case .string, .merge:
                return .string(text)
            }
        case .sequence(let sequence):
            let list = located(node)
            var items: [SettingValue] = []
            items.reserveCapacity(sequence.count)
            for (index, item) in sequence.enumerated() {
                items.append(try settingValue(item) { list.element($0, index: index) })
            }
            return .list(items)
        case .mapping:
            return .map(try settingsMap(located(node)))
        }
    }
}
