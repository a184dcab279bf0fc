import Dispatch
import HiveKit
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Turns the main thread into the daemon's signal reader: it waits for the blocked
/// ``DaemonSignals`` with `sigwaitinfo` and hands each one to the daemon, outside any
/// signal context.
///
/// Signals that arrive before the daemon set its handler are kept (up to 64) and handed
/// over when it does, so an early `SIGHUP` or `SIGTERM` waits instead of killing.
package enum SignalReader {
    private struct State {
        var handler: (@Sendable (Int32) -> Void)?
        var early: [Int32] = []
        /// The Dispatch sources of ``startDispatchSources(leaving:)``, kept for the process.
        var sources: [any DispatchSourceSignal] = []
    }

    private static let state = Mutex(State())

    /// Sets the function that receives signals (on the reader thread: it must be quick
    /// and must not block), and gives it the signals that arrived before.
    static func setHandler(_ handler: @escaping @Sendable (Int32) -> Void) {
        let early = state.withLock { state in
            state.handler = handler
            defer { state.early = [] }
            return state.early
        }
        early.forEach(handler)
    }

    /// Waits for signals on the calling thread forever. Call it on the main thread, whose
    /// mask ``DaemonSignals/blockInCallingThread()`` set before any other thread existed.
    static func readForever() -> Never {
        var set = DaemonSignals.handledSet
        while true {
            let signal = sigwaitinfo(&set, nil)
            guard signal > 0 else { continue }
            deliver(signal)
        }
    }

    /// Reads the handled signals except `others` (left to whoever else reads them: a
    /// ServiceGroup's `SIGTERM` and `SIGINT`) through Dispatch signal sources, once per
    /// process, for a daemon whose `main` is an application's.
    ///
    /// An async `main` leaves the main thread in libdispatch's `dispatch_main`, which
    /// waits in `sigsuspend` with every signal unblocked, so no thread can keep a signal
    /// to itself with `sigwaitinfo`: a `SIGHUP` would take its default action and end the
    /// process. Dispatch sources take them instead, as ServiceGroup's own `SIGTERM` and
    /// `SIGINT` are taken; the daemon still handles each one outside signal context.
    package static func startDispatchSources(leaving others: Set<Int32>) {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for signal in DaemonSignals.handled where !others.contains(signal) {
                let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
                source.setEventHandler { SignalReader.deliver(signal) }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// Where Dispatch delivers the signals, one at a time.
    private static let queue = DispatchQueue(label: "HiveDaemon.signals")

    /// Hands `signal` to the handler, or keeps it until there is one.
    private static func deliver(_ signal: Int32) {
        let handler = state.withLock { state in
            if state.handler == nil, state.early.count < 64 { state.early.append(signal) }
            return state.handler
        }
        handler?(signal)
    }
}
