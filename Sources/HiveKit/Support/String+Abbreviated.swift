extension StringProtocol {
    /// At most `limit` characters, with `…` in place of the rest: how a value is quoted in
    /// an error, so a 5 MB value cannot make a 5 MB message.
    package func abbreviated(to limit: Int = 80) -> String {
        guard utf8.count > limit, count > limit else { return String(self) }
        return String(prefix(limit - 1)) + "…"
    }
}

extension DefaultStringInterpolation {
    /// `'value'`, cut to 80 characters with `…`: how every error and log text quotes a
    /// value it was given (a name, a type, a key, an event), written
    /// `"unknown module type \(quoted: type)"`. Wherever the value is used as an
    /// identifier it stays whole; only its quotation is cut.
    package mutating func appendInterpolation(quoted value: some StringProtocol) {
        appendLiteral("'")
        appendLiteral(value.abbreviated())
        appendLiteral("'")
    }
}
