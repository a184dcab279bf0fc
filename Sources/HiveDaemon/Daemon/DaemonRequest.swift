import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon's event loop is asked to do, in arrival order.
///
/// A new source of requests adds a case here, says how it coalesces in
/// ``coalescing``, and handles it in `HiveDaemon.serve`.
enum DaemonRequest: Sendable, Equatable {
    /// Re-read the configuration and apply it (`SIGHUP`, or control `Reload` calls, which
    /// are answered with its outcome).
    case reload(callers: [ControlRequest])
    /// Deliver `background` (`SIGTSTP`), unless already in the background.
    case suspend
    /// Deliver `foreground` (`SIGCONT`), unless the system sleeps.
    case resume
    /// logind's `PrepareForSleep`: `background` then release the delay lock (`true`), or
    /// `foreground` unless `SIGTSTP` holds the background (`false`).
    case sleep(entering: Bool)
    /// Memory pressure: deliver `memoryWarning` (`source: psi`), then trim the heap.
    case memoryPressure(someAvg10: String?)
    /// Deliver an event from the signal map (`SIGUSR1` → `custom:rotate`).
    case event(HiveEvent, signal: Int32)
    /// Stop: `terminate`, `teardown`, exit (`SIGTERM`, `SIGINT`; signal 0 for a stop
    /// requested otherwise, see ``HiveDaemon/requestStop(_:failure:)``).
    case stop(signal: Int32)
    /// A control-socket `SendEvent` call, answered once the event was delivered. (A
    /// control `Reload` is a ``reload(callers:)``.)
    case control(ControlRequest)

    /// A reload asked for by a signal (nobody waits for its answer).
    static let signalledReload = DaemonRequest.reload(callers: [])

    /// How a request meets one of its kind already waiting in the ``DaemonInbox``.
    enum Coalescing: Equatable {
        /// Always queued (up to the inbox's bound).
        case never
        /// Merges into a waiting request with the same key: it would do the same thing.
        case mergesWith(String)
        /// Joins a waiting request with the same key: that one does the work and answers
        /// both callers (``joined(with:)``).
        case joins(String)
        /// Takes the place of a waiting request with the same key: only the latest counts.
        case replaces(String)
    }

    /// A reload joins a waiting reload (which reads the latest file anyway, and answers
    /// every control call that joined it); a mapped
    /// signal's event into the same event waiting (Unix does not queue standard signals
    /// either); `SIGTSTP`/`SIGCONT` replace each other, so the latest wanted state wins; a
    /// newer memory pressure reading replaces a waiting one. Sleep transitions are never
    /// merged: each answers logind.
    var coalescing: Coalescing {
        switch self {
        case .reload: .joins("reload")
        case .suspend, .resume: .replaces("suspend/resume")
        case .memoryPressure: .replaces("memoryPressure")
        case .event(let event, _): .mergesWith("event \(event)")
        case .sleep, .stop, .control: .never
        }
    }

    /// This request, with `other`'s callers too: what a request that ``Coalescing/joins(_:)``
    /// one waiting turns it into.
    func joined(with other: DaemonRequest) -> DaemonRequest {
        guard case .reload(let callers) = self, case .reload(let others) = other else { return self }
        return .reload(callers: callers + others)
    }

    /// How the request reads in a log line: `reload`, `custom:rotate`, `background`.
    var name: String {
        switch self {
        case .reload(let callers): callers.isEmpty ? "reload" : "control Reload"
        case .suspend: "background"
        case .resume: "foreground"
        case .sleep(let entering): entering ? "sleep" : "wake"
        case .memoryPressure: "memoryWarning (pressure)"
        case .event(.custom(let name, _), _): "custom:\(name)"
        case .event(let event, _): "\(event.kind)"
        case .stop: "stop"
        case .control(let request):
            switch request.action {
            case .reload: "control Reload"
            case .send(let event): "control SendEvent \(event)"
            }
        }
    }
}
