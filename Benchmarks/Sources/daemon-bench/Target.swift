/// A program whose start, reload, stop and memory are measured.
struct Target {
    /// How it appears in the table: `C (sd_notify)`, `hived (release)`.
    let label: String
    /// The command line; `arguments[0]` is an absolute path.
    let arguments: [String]

    var start: [Double] = []
    var reload: [Double] = []
    var stop: [Double] = []
    var resident: [Double] = []
}
