import HiveKit
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Watches memory pressure on a thread of its own (see ``MemoryPressureSource``) and
/// hands each pressure event to the daemon, at most once per interval; events in between
/// are counted and dropped, as the kernel's PSI triggers themselves fire at most once per
/// window.
final class MemoryPressureWatch: Sendable {
    /// What the watch tells the daemon: pressure, with PSI's `some avg10` when the source
    /// is a PSI file. Called on the watch's thread; it must not block.
    typealias Notice = @Sendable (_ someAvg10: String?) -> Void

    /// The source watched.
    let source: MemoryPressureSource
    private let fd: Int32
    private let interval: Atomic<UInt64>
    private let stopped = Atomic<Bool>(false)
    private let dropped = Atomic<Int>(0)
    private let wakeup: Wakeup?
    private let logger: Logger

    private init(source: MemoryPressureSource, fd: Int32, interval: Duration, logger: Logger) {
        self.source = source
        self.fd = fd
        self.interval = Atomic(interval.nanosecondsClamped)
        self.wakeup = Wakeup()
        self.logger = logger
    }

    deinit { close(fd) }

    /// Opens the first candidate of `plan` that can be armed and starts watching it;
    /// returns `nil` when memory pressure is not watched. Logs one line either way: what
    /// is watched (info), or why nothing is (info; a warning when `MEMORY_PRESSURE_WATCH`
    /// names something unusable). What is watched is logged before the watch's thread
    /// starts, so the thread's own lines come after it.
    static func start(
        _ plan: MemoryPressureSource.Plan, interval: Duration, logger: Logger, notice: @escaping Notice
    ) -> MemoryPressureWatch? {
        let candidates: [MemoryPressureSource.Candidate]
        let fromSystemd: Bool
        switch plan {
        case .off:
            logger.info("memory pressure not watched: MEMORY_PRESSURE_WATCH turns it off")
            return nil
        case .invalid(let reason):
            logger.warning("memory pressure not watched: \(reason)")
            return nil
        case .candidates(let list, let systemd):
            (candidates, fromSystemd) = (list, systemd)
        }
        var failures: [String] = []
        for candidate in candidates {
            switch MemoryPressureSource.open(candidate) {
            case .failure(let failure):
                failures.append("\(failure)")
            case .success(let (source, fd)):
                let watch = MemoryPressureWatch(source: source, fd: fd, interval: interval, logger: logger)
                let skipped = failures.isEmpty ? "" : " (\(failures.joined(separator: "; ")))"
                let how = source.kind == .psi && !fromSystemd
                    ? " with trigger '\(String(decoding: source.trigger.dropLast(), as: UTF8.self))'" : ""
                // Logged before the thread starts, so that its own lines ("no longer
                // watched") can only come after this one.
                logger.info("watching memory pressure: \(source.path)\(how)\(skipped)")
                guard DaemonThread.start(name: "hive-pressure", { watch.run(notice) }) else {
                    logger.warning("memory pressure no longer watched: no thread to watch \(source.path)")
                    return nil
                }
                return watch
            }
        }
        let text = "memory pressure not watched: \(failures.joined(separator: "; "))"
        if fromSystemd { logger.warning("\(text) (MEMORY_PRESSURE_WATCH)") } else { logger.info("\(text)") }
        return nil
    }

    /// Sets the shortest time between two notices (a reload).
    func setInterval(_ interval: Duration) {
        self.interval.store(interval.nanosecondsClamped, ordering: .relaxed)
    }

    /// Pressure events dropped so far because they came within the interval.
    var droppedEvents: Int { dropped.load(ordering: .relaxed) }

    /// Ends the watch; the thread returns at its next wake.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        wakeup?.signal()
    }

    /// The watch's thread.
    private func run(_ notice: Notice) {
        let events = Int16(source.kind == .psi ? POLLPRI : POLLIN)
        var last: UInt64 = 0
        while !stopped.load(ordering: .relaxed) {
            var fds = [pollfd(fd: fd, events: events, revents: 0)]
            if let wakeup { fds.append(pollfd(fd: wakeup.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else {
                logger.warning("memory pressure no longer watched: poll failed (errno \(errno))")
                return
            }
            if fds.count > 1, fds[1].revents != 0 { wakeup?.drain() }
            let revents = Int32(fds[0].revents)
            guard revents != 0 else { continue }
            if let ended = ending(revents) {
                logger.info("memory pressure no longer watched: \(source.path) \(ended)")
                return
            }
            let now = MonotonicClock.nanoseconds()
            if last != 0, now &- last < interval.load(ordering: .relaxed) {
                dropped.add(1, ordering: .relaxed)
                logger.debug("memory pressure within the interval: no memoryWarning")
                continue
            }
            last = now
            notice(source.kind == .psi ? someAvg10() : nil)
        }
    }

    /// Why the watch must end after `poll` reported `revents`, or `nil` to go on. Reads
    /// away what a FIFO or socket delivered.
    private func ending(_ revents: Int32) -> String? {
        switch source.kind {
        case .psi:
            return revents & Int32(POLLERR | POLLNVAL) != 0 ? "reports an error (its cgroup is gone?)" : nil
        case .stream, .socket:
            if revents & Int32(POLLIN) != 0, !MemoryPressureSource.drain(fd) { return "was closed" }
            if revents & Int32(POLLERR | POLLNVAL | POLLHUP) != 0 { return "was closed" }
            return nil
        }
    }

    /// `some avg10` from the PSI file (`some avg10=1.23 avg60=…`), or `nil`.
    private func someAvg10() -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = pread(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Self.someAvg10(in: String(decoding: buffer[..<count], as: UTF8.self))
    }

    /// `some avg10` in PSI text, or `nil`.
    static func someAvg10(in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("some ") {
            for field in line.split(separator: " ") where field.hasPrefix("avg10=") {
                return String(field.dropFirst(6))
            }
        }
        return nil
    }
}
