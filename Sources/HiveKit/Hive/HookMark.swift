/// What a task running a hive's hooks carries (a task-local value, which child tasks
/// inherit): the turn it belongs to, the task that runs it, and the module, when known.
///
/// A call into the hive's queue (an event, a registration, a reload) from such a task while
/// that turn lasts would wait behind the turn that waits for it: ``Hive`` refuses it. Reading
/// the mark costs a task-local lookup, nothing when no hook runs.
struct HookMark: Sendable {
    /// The turn, unique in the process (see ``Hive/turnInProgress``).
    let turn: UInt64
    /// ``TaskKey`` of the task that runs the hooks: the turn's own task (async modules'
    /// hooks run in child tasks of it), or the task of a budgeted hook.
    let task: Int
    /// The module whose hook runs on `task`; `nil` on the turn's own task, where many
    /// modules' hooks run.
    let module: String?

    /// The mark of the current task, if it runs (or descends from) a hook.
    @TaskLocal static var current: HookMark?

    /// The same turn, marked for a hook that runs on a task of its own.
    func forHook(of module: String) -> HookMark {
        HookMark(turn: turn, task: TaskKey.current, module: module)
    }
}
