import HiveKit
import Logging

#if canImport(Glibc)
import Glibc
#endif

extension HiveDaemon {
    /// Gives the hive the descriptors systemd passed (socket activation, the descriptor
    /// store) and systemd's descriptor store, and logs what was passed, or why nothing was.
    /// Descriptors passed with malformed `LISTEN_*` variables are closed (and named).
    func addSockets(to configuration: inout HiveConfiguration, logger: Logger) {
        let systemd = options.systemd
        configuration.passedDescriptors = systemd.passedDescriptors
        configuration.descriptorStore = SystemdDescriptorStore(notifier: notifier, environment: systemd, logger: logger)
        if let error = systemd.passedDescriptorsError {
            let closed = systemd.closeUnreadDescriptors()
            let fate = closed.isEmpty ? "" : "; closed " + closed.map { "fd \($0)" }.joined(separator: ", ")
            let variables = "LISTEN_FDS=\(systemd.listenFDs ?? ""), LISTEN_FDNAMES=\(systemd.listenFDNames ?? "")"
            logger.error("cannot read the passed sockets (\(variables)): \(error); none is used\(fate)")
        } else if systemd.passedDescriptors.isEmpty, let count = systemd.listenFDs, !count.isEmpty {
            logger.notice(
                "ignored LISTEN_FDS=\(count): meant for process \(systemd.listenPID ?? "(none)"), not this one (\(getpid()))")
        } else if !systemd.passedDescriptors.isEmpty {
            let count = systemd.passedDescriptors.count
            let list = systemd.passedDescriptors.map(\.description).joined(separator: ", ")
            logger.info("received \(count) descriptor\(count == 1 ? "" : "s") from systemd: \(list)")
        }
    }
}
