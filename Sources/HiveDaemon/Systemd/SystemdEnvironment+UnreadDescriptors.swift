#if canImport(Glibc)
import Glibc
#endif

extension SystemdEnvironment {
    /// A descriptor that malformed `LISTEN_*` variables meant for this process (say,
    /// `LISTEN_FDS=2` with one name in `LISTEN_FDNAMES`): none of them is used, so they are
    /// closed rather than kept open for the life of the process. systemd never sends such
    /// variables; a broken wrapper might.
    ///
    /// Remembered with the file it was open on at ``capture()``, so that
    /// ``closeUnreadDescriptors()`` closes it only if the number still names the same file
    /// (a number that was free then may be the daemon's own by now).
    struct UnreadDescriptor: Sendable, Hashable {
        /// The descriptor's number (3 and up).
        let descriptor: Int32
        /// What it was open on.
        let file: FileIdentity
    }

    /// The open descriptors among the `LISTEN_FDS` from 3 on, when `LISTEN_PID` is this
    /// process and `LISTEN_FDS` parses but the variables could not be read; each is marked
    /// close-on-exec. Empty otherwise.
    static func unreadDescriptors(listenFDs: String?, listenPID: String?) -> [UnreadDescriptor] {
        guard let listenPID, Int32(listenPID) == getpid(), let text = listenFDs, let count = Int32(text), count > 0
        else { return [] }
        let end = min(Int64(3) + Int64(count), Int64(getdtablesize()))
        return (Int64(3)..<max(end, 3)).compactMap { number in
            let descriptor = Int32(number)
            guard let file = FileIdentity(descriptor: descriptor) else { return nil }
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
            return UnreadDescriptor(descriptor: descriptor, file: file)
        }
    }

    /// Closes the ``unreadDescriptors`` that still name what they named at ``capture()``;
    /// returns the numbers closed. Call it once.
    func closeUnreadDescriptors() -> [Int32] {
        unreadDescriptors.compactMap { unread in
            guard unread.file.matches(descriptor: unread.descriptor) else { return nil }
            close(unread.descriptor)
            return unread.descriptor
        }
    }
}
