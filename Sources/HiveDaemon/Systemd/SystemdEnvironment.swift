import HiveKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The systemd variables of this process's environment, captured once.
///
/// Capture it at the top of `main`, before any thread exists (`getenv` is not safe against
/// a concurrent `setenv`). libsystemd's own calls (`sd_notify`, `sd_watchdog_enabled`) keep
/// reading the live environment, so nothing here unsets a variable: never call `sd_notify`
/// with `unset_environment` set, or every later notification goes nowhere. Keep the
/// variables out of child processes with ``childEnvironment(from:)`` instead.
public struct SystemdEnvironment: Sendable, Hashable {
    /// The variables that belong to this process alone and must not reach a child:
    /// `NOTIFY_SOCKET`, `WATCHDOG_USEC`, `WATCHDOG_PID`, `LISTEN_FDS`, `LISTEN_PID`,
    /// `LISTEN_FDNAMES`, `FDSTORE`, `MEMORY_PRESSURE_WATCH`, `MEMORY_PRESSURE_WRITE`.
    /// (`JOURNAL_STREAM` may be inherited: a child checks it against its own stderr.)
    public static let processOnlyVariables: Set<String> = [
        "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
        "FDSTORE", "MEMORY_PRESSURE_WATCH", "MEMORY_PRESSURE_WRITE",
    ]

    /// `NOTIFY_SOCKET`: where `sd_notify` sends; nil (or empty) outside systemd.
    var notifySocket: String?
    /// `WATCHDOG_USEC`, unparsed.
    var watchdogMicroseconds: String?
    /// `WATCHDOG_PID`, unparsed: the process the watchdog is meant for, if set.
    var watchdogPID: String?
    /// `LISTEN_FDS`, unparsed: how many sockets socket activation passed.
    var listenFDs: String?
    /// `LISTEN_PID`, unparsed: the process the passed sockets are meant for.
    var listenPID: String?
    /// `LISTEN_FDNAMES`, unparsed: the passed sockets' names, separated by `:`.
    var listenFDNames: String?
    /// `FDSTORE`, unparsed: the size of the service's descriptor store, which systemd 254
    /// and later set when `FileDescriptorStoreMax=` is not zero.
    var fileDescriptorStoreMaximum: String?
    /// The descriptors passed to this process (socket activation and the descriptor store),
    /// as `sd_listen_fds_with_names` read them in ``capture()``: empty when `LISTEN_PID` is
    /// another process's.
    public var passedDescriptors: [PassedDescriptor]
    /// Why the passed descriptors could not be read (malformed `LISTEN_*` variables), if so.
    var passedDescriptorsError: SystemdError?
    /// The descriptors meant for this process that could not be read, when
    /// ``passedDescriptorsError`` is set: to be closed (``closeUnreadDescriptors()``).
    var unreadDescriptors: [UnreadDescriptor]
    /// `JOURNAL_STREAM`, unparsed: `DEV:INODE` of the stream connected to journald.
    var journalStreamVariable: String?
    /// `MEMORY_PRESSURE_WATCH`: the file or socket to watch for memory pressure (systemd
    /// 254 and later); `/dev/null` or empty turns the watch off.
    var memoryPressureWatch: String?
    /// `MEMORY_PRESSURE_WRITE`, base64: what to write to ``memoryPressureWatch`` first.
    var memoryPressureWrite: String?
    /// `RUNTIME_DIRECTORY`: the directories `RuntimeDirectory=` created, `:`-separated
    /// (the control socket's default place).
    var runtimeDirectory: String?
    /// `STATE_DIRECTORY`: the directories `StateDirectory=` created, `:`-separated.
    var stateDirectory: String?

    /// Makes an environment from explicit values (tests, or a caller that read them itself).
    init(
        notifySocket: String? = nil,
        watchdogMicroseconds: String? = nil,
        watchdogPID: String? = nil,
        listenFDs: String? = nil,
        listenPID: String? = nil,
        listenFDNames: String? = nil,
        fileDescriptorStoreMaximum: String? = nil,
        passedDescriptors: [PassedDescriptor] = [],
        passedDescriptorsError: SystemdError? = nil,
        unreadDescriptors: [UnreadDescriptor] = [],
        journalStream: String? = nil,
        memoryPressureWatch: String? = nil,
        memoryPressureWrite: String? = nil,
        runtimeDirectory: String? = nil,
        stateDirectory: String? = nil
    ) {
        self.notifySocket = notifySocket
        self.watchdogMicroseconds = watchdogMicroseconds
        self.watchdogPID = watchdogPID
        self.listenFDs = listenFDs
        self.listenPID = listenPID
        self.listenFDNames = listenFDNames
        self.fileDescriptorStoreMaximum = fileDescriptorStoreMaximum
        self.passedDescriptors = passedDescriptors
        self.passedDescriptorsError = passedDescriptorsError
        self.unreadDescriptors = unreadDescriptors
        self.journalStreamVariable = journalStream
        self.memoryPressureWatch = memoryPressureWatch
        self.memoryPressureWrite = memoryPressureWrite
        self.runtimeDirectory = runtimeDirectory
        self.stateDirectory = stateDirectory
    }

    /// Reads the variables from the process environment now (`getenv`), and the passed
    /// descriptors with `sd_listen_fds_with_names(0, …)`, which also marks them close-on-exec
    /// so no child inherits them. Nothing is unset, and nothing is closed: when the
    /// variables are malformed, the descriptors they meant for this process are only noted
    /// (the daemon closes them once it has logged why).
    ///
    /// Call it once, at the top of `main`, before any thread is started.
    public static func capture() -> SystemdEnvironment {
        func variable(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }
        }
        var passed: [PassedDescriptor] = []
        var passedError: SystemdError?
        var unread: [UnreadDescriptor] = []
        do {
            passed = try SystemdCalls.listenFDsWithNames()
        } catch {
            passedError = error
            unread = unreadDescriptors(listenFDs: variable("LISTEN_FDS"), listenPID: variable("LISTEN_PID"))
        }
        return SystemdEnvironment(
            notifySocket: variable("NOTIFY_SOCKET"),
            watchdogMicroseconds: variable("WATCHDOG_USEC"),
            watchdogPID: variable("WATCHDOG_PID"),
            listenFDs: variable("LISTEN_FDS"),
            listenPID: variable("LISTEN_PID"),
            listenFDNames: variable("LISTEN_FDNAMES"),
            fileDescriptorStoreMaximum: variable("FDSTORE"),
            passedDescriptors: passed,
            passedDescriptorsError: passedError,
            unreadDescriptors: unread,
            journalStream: variable("JOURNAL_STREAM"),
            memoryPressureWatch: variable("MEMORY_PRESSURE_WATCH"),
            memoryPressureWrite: variable("MEMORY_PRESSURE_WRITE"),
            runtimeDirectory: variable("RUNTIME_DIRECTORY"),
            stateDirectory: variable("STATE_DIRECTORY"))
    }

    /// The first directory of a `:`-separated list such as `STATE_DIRECTORY`'s (systemd
    /// names one per `StateDirectory=` entry); `nil` when the list is unset or empty.
    static func firstDirectory(in directories: String?) -> String? {
        guard let first = directories?.split(separator: ":").first, !first.isEmpty else { return nil }
        return String(first)
    }

    /// Whether systemd asked for notifications (`NOTIFY_SOCKET` set and not empty).
    var notificationsEnabled: Bool {
        guard let notifySocket else { return false }
        return !notifySocket.isEmpty
    }

    /// `JOURNAL_STREAM` parsed, or nil if unset or malformed.
    var journalStream: FileIdentity? {
        journalStreamVariable.flatMap(FileIdentity.init(parsing:))
    }

    /// Whether this process's stderr is the journal stream systemd set up: `JOURNAL_STREAM`
    /// parses and matches `fstat(2)` of `descriptor` (stderr by default).
    func stderrIsJournal(descriptor: Int32 = STDERR_FILENO) -> Bool {
        journalStream?.matches(descriptor: descriptor) ?? false
    }
}
