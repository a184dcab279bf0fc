import ArgumentParser
import HiveDaemon
import HiveKit

// Before anything else, while this is the only thread: block the signals hived reads
// itself, so every thread inherits the mask and none dies of a signal that arrives
// before its handler is ready. This thread stays hived's signal reader.
DaemonSignals.blockInCallingThread()
let systemd = SystemdEnvironment.capture()

// The daemon's own command lines skip ArgumentParser, for start-up time.
if let plain = RunCommand.plainRun(Array(CommandLine.arguments.dropFirst())) {
    let path = ConfigurationSource.path(explicit: plain.configPath)
    HiveDaemon.main(RunCommand.options(configurationPath: path, systemd: systemd))
}
do {
    var command = try HivedCommand.parseAsRoot()
    if let run = command as? RunCommand {
        HiveDaemon.main(run.daemonOptions(systemd: systemd))
    }
    // Only the daemon reads signals; any other command stops on SIGINT/SIGTERM like a tool.
    DaemonSignals.unblockInCallingThread()
    try command.run()
} catch {
    HivedCommand.exit(withError: error)
}
