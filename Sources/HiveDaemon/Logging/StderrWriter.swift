import HiveKit
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// hived's stderr: whole lines, queued and written by a thread of their own, so a stderr
/// pipe nobody drains (a stalled log collector) never blocks an event, a signal or the stop.
///
/// The queue holds at most 4,096 lines or 1 MiB; past that, lines are dropped and counted,
/// and a warning line `2026-01-01T00:00:00.000Z warning 20,429 log lines dropped (stderr
/// was not drained)` is written where they are missing once the pipe takes lines again. A line longer than ``maximumLineBytes`` is cut. Each line is one `write(2)`:
/// on a pipe or the journal's stream socket a line under `PIPE_BUF` arrives whole.
enum StderrWriter {
    /// The longest line written; longer ones are cut, saying how much is missing.
    static let maximumLineBytes = 64 * 1024

    static let shared = OutputWriter(
        name: "hive-stderr",
        queue: DroppingQueue<String>(
            maximumItems: 4096, maximumBytes: 1 << 20, size: { $0.utf8.count }, notice: { count, _ in dropNotice(count) }),
        deliver: { writeNow($0) })

    /// The line written where `count` lines are missing, a warning like any other line.
    static func dropNotice(_ count: Int) -> String {
        DaemonLogHandler.formatLine(
            timestamp: DaemonLogHandler.timestamp(), level: .warning,
            message: DroppedLines.message(count, reason: "stderr was not drained"), metadata: [:])
    }

    /// Queues `text` (one or more whole lines); never blocks.
    static func write(_ text: String) {
        let text = capped(text)
        shared.enqueue(text)
    }

    /// Waits until the queued lines are written or `deadline` passes (`CLOCK_MONOTONIC`
    /// nanoseconds); returns whether they all were.
    @discardableResult
    static func flush(until deadline: UInt64) -> Bool {
        shared.flush(until: deadline)
    }

    /// `text` cut to ``maximumLineBytes`` on a character boundary, ending in a newline.
    static func capped(_ text: String) -> String {
        let count = text.utf8.count
        guard count > maximumLineBytes else { return text }
        let kept = text.prefix(utf8Bytes: maximumLineBytes)
        return kept + "… (\(count - kept.utf8.count) bytes cut)\n"
    }

    /// Writes `text` to fd 2 now, blocking until the kernel took it: on the writer thread,
    /// or in a tool that is not a daemon. A stderr opened non-blocking is waited for with
    /// `poll(2)`; a closed one drops the text.
    static func writeNow(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var descriptor = pollfd(fd: STDERR_FILENO, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                } else {
                    return  // stderr closed: nothing sensible left to do
                }
            }
        }
    }
}
