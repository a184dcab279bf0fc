import HiveKit

extension NotifyMessage {
    /// `FDSTORE=1` and `FDNAME=name`: keep the descriptors sent with this message in the
    /// service's descriptor store under `name` (`name` must be a valid `FDNAME`: printable
    /// ASCII without `:`, at most 255 bytes).
    public static func storeDescriptors(name: String) -> NotifyMessage {
        NotifyMessage(rawText: "FDSTORE=1\nFDNAME=\(name)")
    }

    /// `FDSTOREREMOVE=1` and `FDNAME=name`: close and forget every stored descriptor named
    /// `name`.
    public static func removeStoredDescriptors(name: String) -> NotifyMessage {
        NotifyMessage(rawText: "FDSTOREREMOVE=1\nFDNAME=\(name)")
    }
}
