import HiveKit
import Logging

extension HiveDaemon {
    /// The one door of every source but signals (the control socket, logind, memory
    /// pressure, a module's or a service group's stop): asks the ``DaemonLifecycle`` what
    /// `input` does now and does it. Never blocks; safe from any thread.
    ///
    /// A stop starts the stop budget at once, sends `STOPPING=1` (saying what it waits for;
    /// during a reload only after the reload's `READY=1`) and drops the requests still
    /// waiting, answering their control callers "the daemon is stopping". A refused
    /// request's callers get the refusal; control calls are logged (debug) as queued or
    /// joining.
    @discardableResult
    func submit(_ input: DaemonLifecycle.Input) -> DaemonLifecycle.Verdict {
        let (verdict, deadline, handOver) = state.withLock { state in
            let verdict = state.lifecycle.accept(input)
            return (verdict, Self.stopDeadline(of: verdict, state), state.handOver())
        }
        if case .request(let request) = input {
            perform(verdict, for: request, deadline: deadline)
        } else {
            perform(verdict, for: nil, deadline: deadline)
        }
        if let (loop, work) = handOver { loop.resume(returning: work) }
        return verdict
    }

    /// The door of signals, on the signal thread: until the configuration was read, only a
    /// stop acts (other signals wait for the file's `signals:` map); then a signal is the
    /// input ``DaemonLifecycle/input(for:mappedBy:)`` gives it.
    func receive(_ signal: Int32) {
        let (verdict, deadline, handOver, logger) = state.withLock { state in
            let verdict = state.lifecycle.accept(signal: signal, mappedBy: state.settings.signals)
            return (verdict, Self.stopDeadline(of: verdict, state), state.handOver(), state.logger)
        }
        if verdict == .ignored {
            logger.debug("ignored \(SignalName.name(of: signal)): not mapped to an event")
        }
        perform(verdict, for: nil, deadline: deadline)
        if let (loop, work) = handOver { loop.resume(returning: work) }
    }

    /// Stops the daemon as a stop signal would (`STOPPING=1`, the stop budget, then
    /// `terminate` and `teardown`), for a stop that does not come from a signal: a
    /// ServiceGroup's graceful shutdown, or a module through ``/HiveKit/HiveHost``.
    ///
    /// Returns at once; safe from any thread, before or during the start too (the daemon
    /// then stops without reporting ready). With `failure`, a clean stop exits
    /// ``DaemonExitCode/serviceUnavailable`` instead of 0, and `failure` is logged and put
    /// in `STATUS=`.
    package func requestStop(_ reason: String, failure: String? = nil) {
        if let failure {
            logger.error("stopping: \(failure)")
            notifier.send(.status("stopping: \(failure)"))
        } else {
            logger.info("\(reason), stopping")
        }
        submit(.stop(.request(failure: failure)))
    }

    /// When a stop that `verdict` begins must have ended, from now and the stop budget.
    private static func stopDeadline(of verdict: DaemonLifecycle.Verdict, _ state: State) -> UInt64? {
        guard case .stopBegins = verdict else { return nil }
        return MonotonicClock.nanoseconds() &+ state.settings.stopBudget.nanosecondsClamped
    }

    /// Does what the lifecycle decided for an input, `request` when it was one (a signal's
    /// request has no callers to answer or log).
    private func perform(_ verdict: DaemonLifecycle.Verdict, for request: DaemonRequest?, deadline: UInt64?) {
        switch verdict {
        case .accepted(let added):
            guard let request, !request.callers.isEmpty else { return }
            logger.debug("\(request.name) \(added == .coalesced ? "joins the reload already waiting" : "queued")")
        case .refused(let reason):
            guard let request else { return }
            for caller in request.callers { caller.reply(request.refusal(reason).encoded) }
        case .stopBegins(let stage, let dropped):
            beginStop(stage, deadline: deadline ?? MonotonicClock.nanoseconds(), dropping: dropped)
        case .kept, .ignored, .stopping:
            break
        }
    }
}

/// The daemon as its modules see it (``/HiveKit/HiveHost``): a module asks it for a stop.
struct DaemonHost: HiveHost {
    let daemon: HiveDaemon

    func requestStop(module: String, reason: String, failure: Bool) {
        let what = "module '\(module)': \(reason)"
        daemon.requestStop("module '\(module)' asked for a stop (\(reason))", failure: failure ? what : nil)
    }
}
