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
enum SignalReader {
    private struct State {
        var handler: (@Sendable (Int32) -> Void)?
        var early: [Int32] = []
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
            let handler = state.withLock { state in
                if state.handler == nil, state.early.count < 64 { state.early.append(signal) }
                return state.handler
            }
            handler?(signal)
        }
    }
}
