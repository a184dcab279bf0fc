import Synchronization

/// A hive's observers, read on the dispatch path: ``isActive`` is one relaxed atomic
/// load, and the list is read (under its lock) only when it is true.
final class HiveObservers: Sendable {
    private let active = Atomic<Bool>(false)
    private let list = Mutex<[any HiveObserver]>([])

    /// Whether anyone observes; the only cost of observation when nobody does.
    var isActive: Bool {
        @inline(__always) get { active.load(ordering: .relaxed) }
    }

    func add(_ observer: any HiveObserver) {
        list.withLock { list in
            list.append(observer)
            active.store(true, ordering: .relaxed)
        }
    }

    func remove(_ observer: any HiveObserver) {
        list.withLock { list in
            list.removeAll { $0 === observer }
            active.store(!list.isEmpty, ordering: .relaxed)
        }
    }

    /// Tells every observer that a hook finished. Kept out of line, so the hook call
    /// that checks ``isActive`` stays as small as it was without observers.
    @inline(never)
    func handlerFinished(
        _ module: String, _ event: HiveEvent, hook: EventKind, nanoseconds: UInt64, _ outcome: HandlerOutcome
    ) {
        let call = ObservedCall(
            module: module, event: event, hook: hook, duration: .nanoseconds(Int64(clamping: nanoseconds)),
            outcome: outcome)
        for observer in list.withLock({ $0 }) { observer.handlerFinished(call) }
    }

    /// Tells every observer that an event was delivered, `since` its first hook call.
    func eventDelivered(_ report: DeliveryReport, phase: HivePhase, since start: UInt64) {
        eventDelivered(report.event, delivered: report.delivered, failures: report.failures.count, phase: phase, since: start)
    }

    /// Tells every observer that `event` reached `delivered` modules, `since` its first hook call.
    func eventDelivered(_ event: HiveEvent, delivered: Int, failures: Int, phase: HivePhase, since start: UInt64) {
        eventDelivered(
            event, delivered: delivered, failures: failures, phase: phase,
            nanoseconds: MonotonicClock.nanoseconds() &- start)
    }

    /// Tells every observer that `event` reached `delivered` modules in `nanoseconds`.
    func eventDelivered(_ event: HiveEvent, delivered: Int, failures: Int, phase: HivePhase, nanoseconds: UInt64) {
        let event = ObservedEvent(
            event: event, phase: phase, delivered: delivered, failures: failures,
            duration: .nanoseconds(Int64(clamping: nanoseconds)))
        for observer in list.withLock({ $0 }) { observer.eventDelivered(event) }
    }
}

extension Hive {
    /// Starts telling `observer` about every handler call and delivered event, until
    /// ``removeObserver(_:)``. See ``HiveObserver`` for what its methods may do.
    package func addObserver(_ observer: any HiveObserver) {
        observers.add(observer)
    }

    /// Stops telling `observer` anything; a call already under way may still reach it.
    package func removeObserver(_ observer: any HiveObserver) {
        observers.remove(observer)
    }
}
