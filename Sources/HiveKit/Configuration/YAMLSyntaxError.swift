import Yams

/// Turns Yams' errors into ``HiveError``s at `file:line`.
enum YAMLSyntaxError {
    /// The error to report for `error`, thrown by Yams while composing `text`.
    static func hiveError(for error: any Error, text: String, file: String) -> HiveError {
        guard let yamlError = error as? YamlError else {
            return HiveError(.invalidConfiguration, location: SourceLocation(path: file, line: 1), "invalid YAML: \(error)")
        }
        func make(_ line: Int, _ message: String) -> HiveError {
            HiveError(.invalidConfiguration, location: SourceLocation(path: file, line: max(line, 1)), message)
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            guard let context else { return make(mark.line, "invalid YAML: \(problem) at column \(mark.column)") }
            if problem.hasPrefix("but ") {
                return make(mark.line, "invalid YAML: \(context.text), \(problem) (column \(mark.column))")
            }
            return make(
                mark.line,
                "invalid YAML: \(problem) at column \(mark.column) (\(context.text) at line \(context.mark.line))")
        case .reader(let problem, let offset, _, _):
            let line = offset.map { text.prefix($0).reduce(1) { $1 == "\n" ? $0 + 1 : $0 } } ?? 1
            return make(line, "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            let first = context.mark
            let line = laterOccurrence(of: key, after: first, in: text) ?? first.line
            return make(line, "duplicate key '\(key)' in the same map (first at line \(first.line))")
        default:
            return make(1, "invalid YAML: \(yamlError)")
        }
    }

    /// The line of the next occurrence of `key` as a key of the same map as the one
    /// at `mark`: later on the same line (flow maps) or at the same column on a later
    /// line (block maps). Yams only reports the first occurrence.
    static func laterOccurrence(of key: String, after mark: Mark, in text: String) -> Int? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let spellings = [key, "\"\(key)\"", "'\(key)'"]
        func isKey(_ rest: Substring) -> Bool {
            spellings.contains { spelling in
                guard rest.hasPrefix(spelling) else { return false }
                return rest.dropFirst(spelling.count).drop(while: { $0 == " " || $0 == "\t" }).first == ":"
            }
        }
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        let column = mark.column - 1
        let firstLine = Substring(lines[mark.line - 1].unicodeScalars.dropFirst(column))
        var rest = firstLine.dropFirst(key.count)
        while let index = rest.firstIndex(where: { $0 == "," || $0 == "{" }) {
            rest = rest[rest.index(after: index)...]
            if isKey(rest.drop(while: { $0 == " " })) { return mark.line }
        }
        for number in mark.line..<lines.count {
            let scalars = lines[number].unicodeScalars
            guard scalars.count > column else { continue }
            if isKey(Substring(scalars.dropFirst(column))) { return number + 1 }
        }
        return nil
    }
}
