import ArgumentParser
import HiveKit

// Before anything else, while this is the only thread: block the signals hived reads
// itself, so every thread inherits the mask and none dies of a signal that arrives
// before its handler is ready. This thread stays hived's signal reader.
DaemonSignals.blockInCallingThread()
let systemd = SystemdEnvironment.capture()

do {
    var command = try HivedCommand.parseAsRoot()
    if let run = command as? RunCommand {
        HiveDaemon.main(run.daemonOptions(systemd: systemd))
    }
    try command.run()
} catch {
    HivedCommand.exit(withError: error)
}
