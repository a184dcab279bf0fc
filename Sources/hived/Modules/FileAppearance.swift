import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Waits until a file exists, woken by `inotify(7)` on the file's directory (a creation,
/// or a rename into it) rather than by a timer: the probe's `stall_until` and `build_until`.
/// The path is checked once the watch is in place, so a file that exists already, or
/// appears meanwhile, ends the wait at once. Where the directory cannot be watched (it does
/// not exist yet, or inotify's limits are reached), the wait looks every 5 ms instead.
enum FileAppearance {
    /// Returns once a file exists at `path`, or once the task is cancelled. Holds no thread
    /// while it waits.
    static func wait(for path: String) async {
        guard let watch = watch(directoryOf: path, flags: Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)) else {
            while access(path, F_OK) != 0 {
                do { try await Task.sleep(for: .milliseconds(5)) } catch { return }
            }
            return
        }
        let waiter = Waiter(path: path, watch: watch)
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter.start($0) }
        } onCancel: {
            waiter.finish()
        }
    }

    /// Returns once a file exists at `path`, blocking the calling thread meanwhile (in
    /// `read(2)` on the watch).
    static func block(until path: String) {
        guard let watch = watch(directoryOf: path, flags: Int32(IN_CLOEXEC)) else {
            while access(path, F_OK) != 0 { usleep(5_000) }
            return
        }
        defer { close(watch) }
        var events = [UInt8](repeating: 0, count: 4096)
        while access(path, F_OK) != 0 {
            // A watch that fails to read still leaves the file to wait for: look every 5 ms.
            if read(watch, &events, events.count) < 0 && errno != EINTR {
                while access(path, F_OK) != 0 { usleep(5_000) }
            }
        }
    }

    /// An inotify descriptor watching the directory of `path` for entries made or moved
    /// into it, or nil if it cannot.
    private static func watch(directoryOf path: String, flags: Int32) -> Int32? {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let descriptor = inotify_init1(flags)
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, directory, UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) >= 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// One asynchronous wait: a read source on the watch and the waiting task's
    /// continuation, resumed once, when the file exists or the task is cancelled.
    ///
    /// `@unchecked Sendable`: `continuation` and `isFinished` are touched only on `queue`
    /// (a serial queue: the source's handler runs there, and the other methods hop onto it).
    private final class Waiter: @unchecked Sendable {
        private let queue = DispatchQueue(label: "hived.probe.stall-until")
        private let source: DispatchSourceRead
        private let path: String
        private var continuation: CheckedContinuation<Void, Never>?
        private var isFinished = false

        init(path: String, watch: Int32) {
            self.path = path
            source = DispatchSource.makeReadSource(fileDescriptor: watch, queue: queue)
            source.setCancelHandler { close(watch) }
            // The handler holds the waiter until ``end()`` clears it.
            source.setEventHandler { [self] in
                var events = [UInt8](repeating: 0, count: 4096)
                while read(watch, &events, events.count) > 0 {}
                if access(path, F_OK) == 0 { end() }
            }
        }

        /// Keeps `continuation`, starts watching, and checks the path once.
        func start(_ continuation: CheckedContinuation<Void, Never>) {
            queue.async { [self] in
                guard !isFinished else { return continuation.resume() }
                self.continuation = continuation
                source.activate()
                if access(path, F_OK) == 0 { end() }
            }
        }

        /// Ends the wait (cancellation).
        func finish() { queue.async { [self] in end() } }

        /// Stops watching and resumes the waiter, once; on `queue`.
        private func end() {
            guard !isFinished else { return }
            isFinished = true
            source.setEventHandler(handler: nil)
            source.activate()
            source.cancel()
            let waiting = continuation
            continuation = nil
            waiting?.resume()
        }
    }
}
