import ArgumentParser

/// `hived`: the HiveKit daemon's command line.
struct HivedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hived",
        abstract: "Hosts HiveKit modules under systemd: signals and sd_notify mapped onto module lifecycle events.",
        discussion: """
            Run the daemon with `hived [run] [--config PATH]` (see `hived help run`).

            Exit status: 0 after a clean stop; 70 when a module failed setup or init (the \
            modules already set up were torn down); 75 when the stop budget ran out; 78 for \
            a configuration that cannot start.
            """,
        version: HivedVersion.current,
        subcommands: [RunCommand.self, CheckConfigCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

/// The version `--version` prints and the Debian package carries.
enum HivedVersion {
    static let current = "0.1.0"
}
