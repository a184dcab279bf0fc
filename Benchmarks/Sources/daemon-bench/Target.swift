/// A program whose start, reload, stop and memory are measured.
struct Target {
    /// What it is: a baseline program or the daemon with a number of modules.
    enum Kind: Equatable {
        /// c/notify-ready.c: every ratio is to its median.
        case c
        /// notify-floor: what any static Swift daemon pays.
        case swiftFloor
        case daemon(modules: Int)
    }

    /// How it appears in the table: `C (sd_notify)`, `hived (static stdlib), 100 modules`.
    let label: String
    let kind: Kind
    /// The command line; `arguments[0]` is an absolute path.
    let arguments: [String]

    var start: [Double] = []
    var reload: [Double] = []
    var reloadCPU: [Double] = []
    var stop: [Double] = []
    var stopCPU: [Double] = []
    var resident: [Double] = []
    /// CPU time (all threads) when `READY=1` arrived.
    var cpu: [Double] = []
    /// Threads (`/proc/PID/task`) when `READY=1` arrived.
    var threads: [Double] = []
    /// Minor page faults (`/proc/PID/stat`) by the idle moment `resident` is read.
    var faults: [Double] = []
}
