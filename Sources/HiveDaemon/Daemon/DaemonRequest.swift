import HiveKit

/// Work that waits for the daemon's event loop, in arrival order (see ``RequestQueue``).
/// A stop is not a request: it is a phase of the ``DaemonLifecycle``, which drops what
/// waits.
///
/// A new source of work adds a case here, says how it coalesces in ``coalescing``, and
/// handles it in `HiveDaemon.handle(_:hive:)`.
enum DaemonRequest: Sendable, Equatable {
    /// Re-read the configuration and apply it (`SIGHUP`), answering the control `Reload`
    /// calls that asked for it or joined it while it waited.
    case reload(answering: [ControlCaller])
    /// Deliver `background` (`SIGTSTP`), unless already in the background.
    case suspend
    /// Deliver `foreground` (`SIGCONT`), unless the system sleeps.
    case resume
    /// logind's `PrepareForSleep`: `background` then release the delay lock (`true`), or
    /// `foreground` unless `SIGTSTP` holds the background (`false`).
    case sleep(entering: Bool)
    /// Memory pressure: deliver `memoryWarning` (`source: psi`), then trim the heap.
    case memoryPressure(someAvg10: String?)
    /// Deliver an event: a mapped signal's (`SIGUSR1` → `custom:rotate`), or a control
    /// `SendEvent`'s, answered once delivered.
    case event(HiveEvent, from: EventSource)

    /// Who asked for an ``event(_:from:)``.
    enum EventSource: Sendable, Equatable {
        /// A signal of the `signals:` map.
        case signal(Int32)
        /// A control `SendEvent` call.
        case control(ControlCaller)
    }

    /// A reload asked for by a signal (nobody waits for its answer).
    static let signalledReload = DaemonRequest.reload(answering: [])

    /// How a request meets one of its kind already waiting in the ``RequestQueue``.
    enum Coalescing: Equatable {
        /// Always queued (up to the queue's bound).
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
    /// every control call that joined it); a mapped signal's event merges into the same
    /// event waiting (Unix does not queue standard signals either); `SIGTSTP`/`SIGCONT`
    /// replace each other, so the latest wanted state wins; a newer memory pressure reading
    /// replaces a waiting one. Sleep transitions and control events are never merged: each
    /// is answered.
    var coalescing: Coalescing {
        switch self {
        case .reload: .joins("reload")
        case .suspend, .resume: .replaces("suspend/resume")
        case .memoryPressure: .replaces("memoryPressure")
        case .event(let event, .signal): .mergesWith("event \(event)")
        case .sleep, .event(_, .control): .never
        }
    }

    /// This request, with `other`'s callers too: what a request that ``Coalescing/joins(_:)``
    /// one waiting turns it into.
    func joined(with other: DaemonRequest) -> DaemonRequest {
        guard case .reload(let callers) = self, case .reload(let others) = other else { return self }
        return .reload(answering: callers + others)
    }

    /// The control calls waiting for this request's answer.
    var callers: [ControlCaller] {
        switch self {
        case .reload(let callers): callers
        case .event(_, .control(let caller)): [caller]
        default: []
        }
    }

    /// The error that refuses this request's callers, saying why: `ReloadFailed` for
    /// `Reload`, `EventRefused` for `SendEvent`.
    func refusal(_ message: String) -> VarlinkError {
        switch self {
        case .event(let event, _): .eventRefused(event: "\(event)", message: message)
        default: .reloadFailed(module: "", event: "reload", message: message)
        }
    }

    /// How the request reads in a log line: `reload`, `custom:rotate`, `background`.
    var name: String {
        switch self {
        case .reload(let callers): callers.isEmpty ? "reload" : "control Reload"
        case .suspend: "background"
        case .resume: "foreground"
        case .sleep(let entering): entering ? "sleep" : "wake"
        case .memoryPressure: "memoryWarning (pressure)"
        case .event(let event, .control): "control SendEvent \(event)"
        case .event(.custom(let name, _), _): "custom:\(name)"
        case .event(let event, _): "\(event.kind)"
        }
    }
}
