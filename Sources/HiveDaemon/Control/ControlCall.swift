import Dispatch
import HiveKit
import Logging
import Synchronization

/// One `OpenURL` or `PerformAction`: the handler runs on a task of its own, as a module's
/// call would (it waits behind no event and takes no turn in the daemon's queue), and the
/// caller is answered once, by whichever comes first: the handler's reply, or the event
/// budget's end. Then the handler's task is cancelled, and the error goes out from the
/// deadline timer's queue, so a handler holding every thread of the cooperative pool
/// cannot delay it.
final class ControlCall: Sendable {
    private let isAnswered = Atomic<Bool>(false)
    /// The ``DeadlineTimer`` id of the budget; 0 until registered.
    private let timer = Atomic<UInt64>(0)
    private let reply: @Sendable ([UInt8]) -> Void

    private init(reply: @escaping @Sendable ([UInt8]) -> Void) {
        self.reply = reply
    }

    /// Runs `body` and sends what it returns to `reply`, or, once `budget` has passed, an
    /// `io.hivekit.Daemon.CallFailed` saying that `what` (`OpenURL 'hive://…'`) ran past
    /// it, which `logger` is told too; `reply` is called exactly once.
    static func run(
        _ what: String, within budget: Duration, logger: Logger, reply: @escaping @Sendable ([UInt8]) -> Void,
        _ body: @escaping @Sendable () async -> [UInt8]
    ) {
        let call = ControlCall(reply: reply)
        let task = Task {
            let bytes = await body()
            guard call.claim() else { return }
            let timer = call.timer.load(ordering: .sequentiallyConsistent)
            if timer != 0 { DeadlineTimer.shared.cancel(timer) }
            call.reply(bytes)
        }
        let timer = DeadlineTimer.shared.run(after: budget) {
            guard call.claim() else { return }
            call.reply(
                VarlinkError.callFailed(
                    module: nil,
                    message: "\(what) did not return within the event budget of \(budget.shortDescription); its task was cancelled"
                ).encoded)
            // Cancellation handlers are the handler's code, run by `cancel()`: not on the
            // timer's queue, which every budget shares.
            DispatchQueue.global().async {
                task.cancel()
                logger.warning("\(what) from the control socket ran past the event budget of \(budget.shortDescription); cancelled")
            }
        }
        call.timer.store(timer, ordering: .sequentiallyConsistent)
        if call.isAnswered.load(ordering: .sequentiallyConsistent) { DeadlineTimer.shared.cancel(timer) }
    }

    /// True for the first caller only.
    private func claim() -> Bool {
        !isAnswered.exchange(true, ordering: .sequentiallyConsistent)
    }
}
