import ArgumentParser
import HiveDaemon
import HiveKit

/// `hived check-config PATH`: validates a configuration file without running anything.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file: exit 0, or 78 with PATH:LINE: message on stderr."
    )

    @Argument(help: "The configuration file to check.")
    var path: String

    func run() throws {
        do {
            let options = RunCommand.options(configurationPath: path, systemd: SystemdEnvironment.capture())
            let configuration = try options.loadConfiguration()
            let enabled = configuration.modules.filter(\.isEnabled).count
            print("\(path): ok (\(enabled) module\(enabled == 1 ? "" : "s") enabled)")
        } catch {
            var standardError = StandardError()
            print(error, to: &standardError)
            throw ExitCode(DaemonExitCode.invalidConfiguration.rawValue)
        }
    }
}
