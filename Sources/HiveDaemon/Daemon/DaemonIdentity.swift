/// A daemon's name and version, from which everything named after it follows.
///
/// | what | for `DaemonIdentity(name: "mydaemon", version: "1.2.0")` |
/// |---|---|
/// | command name, `--version` | `mydaemon`, `1.2.0` |
/// | log label, journal `SYSLOG_IDENTIFIER` | `mydaemon` |
/// | prefix of error messages on stderr | `mydaemon: …` |
/// | environment overrides | `MYDAEMON_ENVIRONMENT`, `MYDAEMON_LOG_LEVEL`, `MYDAEMON_LOG_TARGET`, `MYDAEMON_BUDGET_EVENT`, `MYDAEMON_BUDGET_STOP` |
/// | default configuration file | `/etc/mydaemon/mydaemon.yaml` |
/// | runtime and state directories | `/run/mydaemon`, `/var/lib/mydaemon` |
/// | documentation (`varlinkctl info`'s URL) | `file:///usr/share/doc/mydaemon/` unless given |
///
/// hived is the daemon named `hived`.
public struct DaemonIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The daemon's name: ASCII letters, digits, `-`, `_` and `.`, starting with a letter
    /// or digit (what systemd accepts in a unit name and a directory name).
    public let name: String
    /// The version `--version` prints.
    public let version: String
    /// Where the daemon's documentation is: the `url` of the control socket's Varlink
    /// `GetInfo` (what `varlinkctl info` shows).
    public let url: String

    /// The identity of the daemon called `name`.
    ///
    /// - Parameters:
    ///   - name: the daemon's name (see ``name``).
    ///   - version: what `--version` prints.
    ///   - url: where its documentation is; by default the directory a Debian package
    ///     installs it in, `file:///usr/share/doc/NAME/`.
    /// - Precondition: `name` is not empty and holds only ASCII letters, digits, `-`, `_`
    ///   and `.`, the first a letter or digit. A name is part of the program, not input.
    public init(name: String, version: String, url: String? = nil) {
        precondition(Self.isValidName(name), "DaemonIdentity: invalid daemon name '\(name)'")
        self.name = name
        self.version = version
        self.url = url ?? "file:///usr/share/doc/\(name)/"
    }

    /// Whether `name` can name a daemon (see ``name``).
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, Self.isAlphanumeric(first) else { return false }
        return name.utf8.allSatisfy { Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The label of the daemon's loggers and the journal's `SYSLOG_IDENTIFIER`: the name.
    var logLabel: String { name }

    /// The prefix of the daemon's environment variables: the name in capitals, every
    /// character other than a letter or digit turned into `_`, then `_` (`my-daemon` →
    /// `MY_DAEMON_`).
    public var environmentPrefix: String {
        String(decoding: name.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 32
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
            default: UInt8(ascii: "_")
            }
        }, as: UTF8.self) + "_"
    }

    /// The environment variable `suffix` of this daemon: `LOG_LEVEL` → `MYDAEMON_LOG_LEVEL`.
    func environmentVariable(_ suffix: String) -> String { environmentPrefix + suffix }

    /// The file the daemon reads when no `--config` is given: `/etc/NAME/NAME.yaml`.
    public var configurationPath: String { "/etc/\(name)/\(name).yaml" }

    /// The name of the daemon's runtime directory (systemd's `RuntimeDirectory=`): the name.
    var runtimeDirectoryName: String { name }

    /// The daemon's runtime directory, for sockets and other volatile files: `/run/NAME`.
    public var runtimeDirectory: String { "/run/\(runtimeDirectoryName)" }

    /// The daemon's state directory (systemd's `StateDirectory=`): `/var/lib/NAME`.
    public var stateDirectory: String { "/var/lib/\(name)" }

    /// `NAME VERSION`.
    public var description: String { "\(name) \(version)" }
}
