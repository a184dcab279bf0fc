import HiveDaemon
import HiveKit

/// hived: the daemon named `hived`, with the built-in module types and an embedded demo
/// configuration. Its `reporter` module type and `SystemClock` service are declared with
/// annotations (see ``HiveAnnotations``), which every daemon adds to its catalogs.
@main
struct Hived: DaemonProgram {
    /// The name, the version `--version` prints and the Debian package carries, and the
    /// manual the package installs (`varlinkctl info`'s URL).
    static let identity = DaemonIdentity(
        name: "hived", version: "0.1.0", url: "file:///usr/share/doc/hived/README.md")
    static let abstract = "Hosts HiveKit modules under systemd: signals and sd_notify mapped onto module lifecycle events."
    static let modules = BuiltinModules.catalog
    static let embeddedConfiguration: String? = EmbeddedConfiguration.yaml
}
