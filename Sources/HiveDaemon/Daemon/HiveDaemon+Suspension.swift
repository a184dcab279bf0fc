import HiveKit
extension HiveDaemon {
    /// Who asks the hive to be in the background: `SIGTSTP` or the system's sleep.
    enum SuspendReason: String, Sendable {
        /// `SIGTSTP` / `SIGCONT`.
        case signal
        /// logind's `PrepareForSleep(true)` / `PrepareForSleep(false)`.
        case sleep
    }

    /// Records whether `reason` asks for the background, then delivers `background` (with
    /// `reason`) when the hive runs and someone asks, or `foreground` when it is suspended
    /// and nobody asks any more: suspended if either asks, in the foreground only when
    /// neither does. `STATUS=` says which.
    func setSuspended(_ asks: Bool, by reason: SuspendReason, hive: Hive) async {
        let (signal, sleep) = current.withLock { current in
            switch reason {
            case .signal: current.suspendedBySignal = asks
            case .sleep: current.suspendedBySleep = asks
            }
            return (current.suspendedBySignal, current.suspendedBySleep)
        }
        let params = ["reason": reason.rawValue]
        switch (signal || sleep, hive.phase) {
        case (true, .running):
            if await deliver(.background(params: params), to: hive) {
                notifier.send(.status(Self.suspendedStatus(signal: signal, sleep: sleep)))
            }
        case (false, .suspended):
            if await deliver(.foreground(params: params), to: hive) { notifier.send(.status(runningStatus(hive))) }
        case (true, .suspended):
            notifier.send(.status(Self.suspendedStatus(signal: signal, sleep: sleep)))
        default:
            logger.debug("\(reason == .signal ? (asks ? "SIGTSTP" : "SIGCONT") : "sleep"): nothing to change in phase \(hive.phase)")
        }
    }

    /// `STATUS=` while suspended, naming what keeps the hive in the background.
    static func suspendedStatus(signal: Bool, sleep: Bool) -> String {
        "suspended: modules in background (\(suspensionNote(signal: signal, sleep: sleep)))"
    }

    /// What keeps the hive in the background: `SIGCONT resumes`, `system sleeping`, or both.
    static func suspensionNote(signal: Bool, sleep: Bool) -> String {
        switch (signal, sleep) {
        case (true, true): "system sleeping; SIGCONT resumes"
        case (false, true): "system sleeping"
        default: "SIGCONT resumes"
        }
    }
}
