extension SocketTable {
    /// The longest name systemd accepts in its descriptor store.
    static let maximumStoreNameLength = 255

    /// The name `module`'s descriptor `name` has in the descriptor store: `MODULE/NAME`, so
    /// that every module has names of its own and a restarted process can tell whose each
    /// one is; `nil` when `name` is empty or the result is too long.
    ///
    /// Both parts are percent-encoded: `%`, `/`, `:` (the separator of `LISTEN_FDNAMES`),
    /// space and every byte outside printable ASCII become `%XX`, which keeps the result a
    /// valid systemd `FDNAME=` (printable ASCII without `:`, at most 255 bytes).
    static func storeName(module: String, name: String) -> String? {
        guard !name.isEmpty else { return nil }
        let text = escaped(module) + "/" + escaped(name)
        return text.utf8.count <= maximumStoreNameLength ? text : nil
    }

    /// The module and name of a name ``storeName(module:name:)`` made; `nil` for any other
    /// name (a socket unit's, which has no `/` or more than one).
    static func owner(ofStoreName text: String) -> (module: String, name: String)? {
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2,
            let module = PercentDecoding.decode(bytes: parts[0], plusIsSpace: false),
            let name = PercentDecoding.decode(bytes: parts[1], plusIsSpace: false),
            !module.isEmpty, !name.isEmpty
        else { return nil }
        return (module, name)
    }

    private static func escaped(_ text: String) -> String {
        PercentEncoding.encode(text) { byte in
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") && byte != UInt8(ascii: "/")
                && byte != UInt8(ascii: ":")
        }
    }
}
