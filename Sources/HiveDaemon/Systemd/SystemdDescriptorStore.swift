import Dispatch
import HiveKit
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// systemd's file descriptor store for this service, as a HiveKit ``/HiveKit/DescriptorStore``:
/// `FDSTORE=1` with `FDNAME=` to store (through `sd_pid_notify_with_fds`), and
/// `FDSTOREREMOVE=1` to remove, both queued on the notifier like every notification, so
/// neither ever waits for systemd to read.
///
/// The store exists only when systemd listens (`NOTIFY_SOCKET`) and the unit sets
/// `FileDescriptorStoreMax=` above zero. systemd 254 and later say how large it is in
/// `FDSTORE`; systemd 252 says nothing, so the first ``capacity()`` asks it over D-Bus for
/// the unit's `FileDescriptorStoreMax` (on a thread of its own, a few milliseconds) and
/// keeps the answer. Without a store, systemd would drop the descriptors with no word to
/// the sender, so ``capacity()`` throws instead, saying why.
final class SystemdDescriptorStore: DescriptorStore {
    /// Why there is no store.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private let notifier: SystemdNotifier
    private let environmentMaximum: String?
    private let logger: Logger
    private let answer = Mutex<Task<Result<Int, Unavailable>, Never>?>(nil)

    /// The store of the service `environment` describes, reached through `notifier`.
    ///
    /// - Parameters:
    ///   - notifier: sends the store's messages; disabled (no `NOTIFY_SOCKET`) means no store.
    ///   - environment: the variables captured at the top of `main` (`FDSTORE`).
    ///   - logger: where the store's size is logged once it is known.
    init(notifier: SystemdNotifier, environment: SystemdEnvironment, logger: Logger) {
        self.notifier = notifier
        self.environmentMaximum = environment.fileDescriptorStoreMaximum
        self.logger = logger
    }

    /// `FileDescriptorStoreMax=` of the unit; the first call finds it out, later calls
    /// return the same answer at once.
    ///
    /// - Throws: why there is no store: no `NOTIFY_SOCKET`, a store of size 0, or the
    ///   service manager could not be asked.
    func capacity() async throws -> Int {
        let task = answer.withLock { answer in
            if let answer { return answer }
            let task = Task { await self.findCapacity() }
            answer = task
            return task
        }
        return try await task.value.get()
    }

    /// Queues a duplicate of `descriptor` for the store under `name` (the notifier's writer
    /// thread sends it, in order with every other notification); the caller keeps its own.
    /// A regular file (or memfd) goes with `FDPOLL=0`, as systemd cannot poll it. Never
    /// blocks.
    ///
    /// - Throws: ``SystemdError`` when the descriptor cannot be duplicated.
    func store(_ descriptor: Int32, name: String) throws {
        var info = stat()
        let isFile = fstat(descriptor, &info) == 0 && [S_IFREG, S_IFDIR].contains(info.st_mode & S_IFMT)
        try notifier.send(.storeDescriptors(name: name, poll: !isFile), descriptors: [descriptor])
    }

    /// Removes every descriptor stored under `name`.
    func remove(name: String) {
        notifier.send(.removeStoredDescriptors(name: name))
    }

    private func findCapacity() async -> Result<Int, Unavailable> {
        guard notifier.isEnabled else {
            return .failure(Unavailable(description: "no NOTIFY_SOCKET: not running as a systemd service of Type=notify"))
        }
        if let text = environmentMaximum, !text.isEmpty {
            guard let maximum = Int(text), maximum >= 0 else {
                return .failure(Unavailable(description: "FDSTORE='\(text)' is not a number"))
            }
            guard maximum > 0 else {
                return .failure(Unavailable(description: "FDSTORE=0: the unit sets no FileDescriptorStoreMax="))
            }
            logger.info("descriptor store: up to \(maximum) descriptors (FDSTORE)")
            return .success(maximum)
        }
        let asked = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(SystemdError) in
                    try SystemdCalls.fileDescriptorStoreMax(timeoutMicroseconds: 2_000_000)
                })
            }
        }
        switch asked {
        case .failure(let error):
            return .failure(Unavailable(description: "cannot ask systemd for this unit's FileDescriptorStoreMax= (\(error))"))
        case .success(let (unit, maximum)) where maximum == 0:
            return .failure(Unavailable(
                description: "\(unit) has no FileDescriptorStoreMax= (it is 0); set it in the unit, e.g. with systemctl edit \(unit)"))
        case .success(let (unit, maximum)):
            logger.info("descriptor store: up to \(maximum) descriptors (FileDescriptorStoreMax= of \(unit))")
            return .success(Int(maximum))
        }
    }
}
