/// The task the caller runs on: an identity to compare, and whether it is a structured
/// child task (`async let`, a task group's child) rather than an unstructured one
/// (`Task {}`, `Task.detached`).
enum CurrentTask {
    /// An identity of the current task (its address); 0 outside any task. Only compared
    /// while the task it identifies runs, so a freed task's address is never mistaken for it.
    @inline(__always)
    static var id: Int {
        withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: Int.self) } ?? 0 }
    }

    /// Whether the current task is a structured child task: it runs inside its parent's
    /// scope, so the parent cannot return before it does.
    ///
    /// Reads the task's job flags through `swift_task_getJobFlags`, the entry point the
    /// concurrency runtime exports for its own library; bit 24 is `Task_IsChildTask`
    /// (`JobFlags` in the runtime's `MetadataValues.h`, part of its stable ABI). The
    /// re-entry tests check the bit against `async let`, task groups, `Task {}` and
    /// `Task.detached`, so a runtime that changed it fails them instead of misjudging.
    static var isChildTask: Bool {
        withUnsafeCurrentTask { task in
            guard let task else { return false }
            return swiftTaskJobFlags(unsafeBitCast(task, to: UnsafeRawPointer.self)) & (1 << 24) != 0
        }
    }
}

/// `JobFlags swift_task_getJobFlags(AsyncTask *)`, exported by the concurrency runtime.
@_silgen_name("swift_task_getJobFlags")
private func swiftTaskJobFlags(_ task: UnsafeRawPointer) -> UInt32
