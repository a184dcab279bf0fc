/// Watches a hive's events while they are delivered: every handler call's outcome and
/// every event once its modules handled it (what the control socket's `Subscribe` streams).
///
/// Every event is observed after the outcomes of its handler calls, including events
/// delivered only to modules that join or leave a running hive (`setup` and `init`, then
/// `ready` of an added module; `terminate`, `teardown` and `unmount` of a removed one). A
/// reload's own `reload` event comes last, after the added modules' `ready`, so an observer
/// that waits for it has seen everything the reload did (see
/// ``Hive/reload(to:catalog:refusingToRemoveAll:)``).
///
/// Both methods run on the task that delivers the event, in the middle of its delivery:
/// they must return at once (copy what they need into a bounded buffer of their own),
/// never block, and never call the hive's event methods. Add one with
/// ``Hive/addObserver(_:)``; a hive without observers pays one relaxed atomic load per
/// handler call.
package protocol HiveObserver: AnyObject, Sendable {
    /// A module's hook returned, threw, or was abandoned past its budget.
    func handlerFinished(_ call: ObservedCall)
    /// Every module that takes part received `event` (``Hive/send(_:)``, a start phase,
    /// a reload, modules joining or leaving).
    func eventDelivered(_ event: ObservedEvent)
}

/// One handler call, as a ``HiveObserver`` sees it.
package struct ObservedCall: Sendable {
    /// The module whose hook ran.
    package let module: String
    /// The event it handled.
    package let event: HiveEvent
    /// The hook that ran: the event's own, or ``EventKind/validateReload`` when a reload
    /// asked the module about new settings.
    package let hook: EventKind
    /// How long the call took.
    package let duration: Duration
    /// How it ended.
    package let outcome: HandlerOutcome
}

/// One delivered event, as a ``HiveObserver`` sees it.
package struct ObservedEvent: Sendable {
    /// The event.
    package let event: HiveEvent
    /// The hive's phase once the event was delivered.
    package let phase: HivePhase
    /// How many modules received it.
    package let delivered: Int
    /// How many of their hooks threw or were abandoned.
    package let failures: Int
    /// From the first hook call to the last return.
    package let duration: Duration
}
