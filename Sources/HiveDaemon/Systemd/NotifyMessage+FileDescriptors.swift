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
}
