extension Router {
    /// Builds a URL from a route pattern and values (MGJRouter's
    /// `generateURLWithPattern:parameters:`, by name rather than by position): each
    /// `:name` takes the value of that name, `*` takes `wildcard`, and every value is
    /// percent-encoded, so opening the URL gives the handler exactly these values.
    ///
    /// ```swift
    /// try Router.url(for: "hive://cache/flush/:region", parameters: ["region": "eu west", "reason": "deploy"])
    /// // "hive://cache/flush/eu%20west?reason=deploy"
    /// try Router.url(for: "/user/:id(/:tab)", parameters: ["id": 7])       // "/user/7"
    /// ```
    /// Of a pattern with optional groups, the longest form whose parameters all have
    /// values is used. Values the chosen form does not use become query items, sorted by
    /// name. The pattern need not be registered; it is read as a table with `options`
    /// reads it (``RouteOptions/literalSuffixes``: `:id.html` gives `7.html`).
    ///
    /// - Throws: ``HiveError`` `.invalidRoute` for a malformed pattern;
    ///   `.invalidParameter` when a parameter the pattern needs has no value or an empty
    ///   one (a path segment cannot be empty).
    public static func url(
        for pattern: String, parameters: [String: any CustomStringConvertible] = [:], wildcard: [String] = [],
        options: RouteOptions = RouteOptions()
    ) throws(HiveError) -> String {
        let compiled = try RoutePattern(pattern, literalSuffixes: options.literalSuffixes)
        let values = parameters.mapValues { $0.description }
        func names(_ segments: [RoutePattern.Segment]) -> [String] {
            segments.compactMap { if case .parameter(let name, _) = $0 { name } else { nil } }
        }
        guard let segments = compiled.variants.first(where: { names($0).allSatisfy { values[$0] != nil } }) else {
            let shortest = compiled.variants.last ?? []
            let missing = names(shortest).filter { values[$0] == nil }
            throw HiveError(
                .invalidParameter,
                "cannot build a URL from '\(pattern)': no value for \(missing.map { "'\($0)'" }.joined(separator: ", "))")
        }
        var path: [String] = []
        var used = Set<String>()
        for segment in segments {
            switch segment {
            case .literal(let text):
                path.append(PercentEncoding.encode(text))
            case .parameter(let name, let suffix):
                let value = values[name] ?? ""
                guard !value.isEmpty else {
                    throw HiveError(
                        .invalidParameter,
                        "cannot build a URL from '\(pattern)': parameter '\(name)' is empty (a path segment cannot be)")
                }
                path.append(PercentEncoding.encode(value) + PercentEncoding.encode(suffix))
                used.insert(name)
            case .wildcard:
                path += wildcard.filter { !$0.isEmpty }.map(PercentEncoding.encode)
            }
        }
        var url = compiled.scheme.map { $0 + (compiled.hasHost ? "://" : ":/") } ?? "/"
        url += path.joined(separator: "/")
        let query = values.filter { !used.contains($0.key) }.sorted { $0.key < $1.key }
        if !query.isEmpty {
            url += "?" + query.map { PercentEncoding.encode($0.key) + "=" + PercentEncoding.encode($0.value) }
                .joined(separator: "&")
        }
        return url
    }

    /// Checks that `pattern` compiles (with the default options), as a configuration that
    /// names a route checks it.
    ///
    /// - Throws: ``HiveError`` `.invalidRoute` saying what is wrong.
    package static func validate(_ pattern: String) throws(HiveError) {
        _ = try RoutePattern(pattern)
    }
}
