extension String {
    /// At most `limit` characters, with `…` in place of the rest: how a value is quoted in
    /// an error, so a 5 MB value cannot make a 5 MB message.
    package func abbreviated(to limit: Int = 80) -> String {
        guard utf8.count > limit, count > limit else { return self }
        return String(prefix(limit - 1)) + "…"
    }
}
