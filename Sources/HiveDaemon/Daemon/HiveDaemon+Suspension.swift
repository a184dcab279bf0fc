import HiveKit

extension HiveDaemon {
    /// Records whether `reason` asks for the background, then delivers `background` (with
    /// `reason`) when the hive runs and someone asks, or `foreground` when it is suspended
    /// and nobody asks any more: suspended if either asks, in the foreground only when
    /// neither does. `STATUS=` says which.
    func setSuspended(_ asks: Bool, by reason: DaemonLifecycle.Suspension, hive: Hive) async {
        guard let suspension = state.withLock({ $0.lifecycle.setSuspended(asks, by: reason) }) else { return }
        let params = ["reason": reason == .signal ? "signal" : "sleep"]
        switch (!suspension.isEmpty, hive.phase) {
        case (true, .running):
            if await deliver(.background(params: params), to: hive) {
                notifier.send(.status(Self.suspendedStatus(suspension)))
            }
        case (false, .suspended):
            if await deliver(.foreground(params: params), to: hive) { notifier.send(.status(runningStatus(hive))) }
        case (true, .suspended):
            notifier.send(.status(Self.suspendedStatus(suspension)))
        default:
            logger.debug("\(reason == .signal ? (asks ? "SIGTSTP" : "SIGCONT") : "sleep"): nothing to change in phase \(hive.phase)")
        }
    }

    /// `STATUS=` while suspended, naming what keeps the hive in the background.
    static func suspendedStatus(_ suspension: DaemonLifecycle.Suspension) -> String {
        "suspended: modules in background (\(suspensionNote(suspension)))"
    }

    /// What keeps the hive in the background: `SIGCONT resumes`, `system sleeping`, or both.
    static func suspensionNote(_ suspension: DaemonLifecycle.Suspension) -> String {
        switch (suspension.contains(.signal), suspension.contains(.sleep)) {
        case (true, true): "system sleeping; SIGCONT resumes"
        case (false, true): "system sleeping"
        default: "SIGCONT resumes"
        }
    }
}
