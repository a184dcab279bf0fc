import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where hived's log lines go, as named in the configuration (`log.target`).
public enum LogTarget: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The journal when stderr is connected to it by systemd, else stderr.
    case auto
    /// journald, with structured fields, through `sd_journal_sendv`.
    case journal
    /// Plain lines on stderr.
    case stderr

    /// Where `auto` really goes: ``journal`` when `JOURNAL_STREAM` (`DEV:INODE`) names the
    /// file stderr is open on (`fstat(2)`), ``stderr`` otherwise. ``journal`` and ``stderr``
    /// resolve to themselves.
    ///
    /// - Parameters:
    ///   - environment: the variables captured at the top of `main`.
    ///   - descriptor: the descriptor to compare, stderr unless a test says otherwise.
    func resolved(in environment: SystemdEnvironment, descriptor: Int32 = STDERR_FILENO) -> LogTarget {
        guard self == .auto else { return self }
        return environment.stderrIsJournal(descriptor: descriptor) ? .journal : .stderr
    }

    /// The configuration name: `auto`, `journal` or `stderr`.
    public var description: String { rawValue }
}
