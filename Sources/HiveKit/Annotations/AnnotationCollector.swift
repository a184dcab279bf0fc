import Synchronization

/// Receives what annotation functions declare while a scan calls them: the bridge
/// between a C function, which cannot return a Swift value, and the scan.
///
/// Declarations count only on a thread that is collecting (scans may run on several
/// threads at once); any other call of ``HiveAnnotations`` is ignored.
final class AnnotationCollector: Sendable {
    static let shared = AnnotationCollector()

    /// What each collecting thread has received so far. An array, not a dictionary: there
    /// are rarely two, and a new generic dictionary type would cost this start-up path a
    /// scan of the program's protocol conformances.
    private let collecting = Mutex<[(thread: UInt, found: [Annotated])]>([])

    /// Calls `annotation` on this thread and returns what it declared.
    func collect(_ annotation: HiveAnnotation) -> [Annotated] {
        let thread = CreationLock.currentThread()
        collecting.withLock { $0.append((thread, [])) }
        annotation()
        return collecting.withLock { collecting in
            guard let index = collecting.firstIndex(where: { $0.thread == thread }) else { return [] }
            return collecting.remove(at: index).found
        }
    }

    func add(_ annotated: Annotated) {
        let thread = CreationLock.currentThread()
        collecting.withLock { collecting in
            if let index = collecting.firstIndex(where: { $0.thread == thread }) { collecting[index].found.append(annotated) }
        }
    }
}
