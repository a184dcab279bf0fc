import HiveKit

extension NotifyMessage {
    /// `FDSTORE=1` and `FDNAME=name`: keep the descriptors sent with this message in the
    /// service's descriptor store under `name` (`name` must be a valid `FDNAME`: printable
    /// ASCII without `:`, at most 255 bytes). Without `poll`, `FDPOLL=0` too: systemd then
    /// does not watch them for a hang-up (`POLLHUP` removes a descriptor from the store),
    /// which `epoll` cannot do on a regular file or a memfd anyway.
    static func storeDescriptors(name: String, poll: Bool = true) -> NotifyMessage {
        NotifyMessage(rawText: "FDSTORE=1\nFDNAME=\(name)" + (poll ? "" : "\nFDPOLL=0"))
    }

    /// `FDSTOREREMOVE=1` and `FDNAME=name`: close and forget every stored descriptor named
    /// `name`.
    static func removeStoredDescriptors(name: String) -> NotifyMessage {
        NotifyMessage(rawText: "FDSTOREREMOVE=1\nFDNAME=\(name)")
    }

    /// The `FDNAME=` of an `FDSTORE=1` message; `nil` for any other.
    var storedName: String? { name(after: "FDSTORE=1") }

    /// The `FDNAME=` of an `FDSTOREREMOVE=1` message; `nil` for any other.
    var removedStoreName: String? { name(after: "FDSTOREREMOVE=1") }

    private func name(after first: String) -> String? {
        let lines = text.split(separator: "\n")
        guard lines.first.map({ $0 == first }) == true,
            let name = lines.dropFirst().first(where: { $0.hasPrefix("FDNAME=") })
        else { return nil }
        return String(name.dropFirst("FDNAME=".count))
    }
}
