/// The hostile configuration of `Tests/HivedTests/Support/HostileConfiguration.swift`
/// (the same text): one module whose settings hold a chain of anchors, each a map of two
/// long keys aliasing the previous one (13 levels, just under 100,000 expanded nodes, key
/// paths growing at every level), then a flow list of one-letter items up to `bytes`.
func hostileConfiguration(bytes: Int, keyLength: Int) -> String {
    func key(_ level: Int, _ side: String) -> String {
        side + String(repeating: "k", count: keyLength) + "\(level)"
    }
    var text = "modules:\n  - name: m\n    type: probe\n    settings:\n"
    text += "      l0: &a0 {\(key(0, "a")): 1, \(key(0, "b")): 2}\n"
    for level in 1..<13 {
        text += "      l\(level): &a\(level) {\(key(level, "a")): *a\(level - 1), \(key(level, "b")): *a\(level - 1)}\n"
    }
    let prefix = "      many: ["
    let room = max(0, bytes - text.utf8.count - prefix.utf8.count - 2)
    text += prefix + String(repeating: "a,", count: room / 2) + "a]\n"
    return text
}
