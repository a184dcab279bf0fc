import ArgumentParser
import HiveKit

/// `NAME check-config PATH`: validates a configuration file without running anything,
/// with the program's module and service types and its environment overrides.
///
/// A file that enables no module is refused as a reload refuses it, unless it says
/// `modules: []`: a file cut right after `modules:` looks the same.
struct DaemonCheckConfigCommand<Program: DaemonProgram>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "check-config",
            abstract: "Validate a configuration file: exit 0, or 78 with PATH:LINE: message on stderr.")
    }

    @Argument(help: "The configuration file to check.")
    var path: String

    func run() throws {
        do {
            let options = Program.options(configurationPath: path, systemd: SystemdEnvironment())
            let configuration = try options.loadConfiguration()
            let enabled = configuration.modules.filter(\.isEnabled).count
            if enabled == 0, let refusal = configuration.removingEveryModule { throw refusal }
            print("\(path): ok (\(enabled) module\(enabled == 1 ? "" : "s") enabled)")
        } catch {
            var standardError = StandardError()
            print(DaemonLogHandler.escaped("\(error)"), to: &standardError)
            throw ExitCode(DaemonExitCode.invalidConfiguration.rawValue)
        }
    }
}
