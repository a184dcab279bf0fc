/// The command line of a plain run: `NAME` or `NAME run`, each with or without `--config PATH` or
/// `--config=PATH`, read without ArgumentParser: its reflection is about half of the
/// instructions a daemon runs before `READY=1` with no modules.
struct RunCommandLine: Equatable {
    /// The `--config` path; `nil` when none was given.
    let configPath: String?

    /// `arguments` (without the program name) as a plain run; `nil` for any other command
    /// line, which ArgumentParser reads (help, version, check-config, errors).
    init?(_ arguments: [String]) {
        let rest = arguments.first == "run" ? Array(arguments.dropFirst()) : arguments
        if rest.isEmpty {
            configPath = nil
        } else if rest.count == 1, rest[0].hasPrefix("--config="), rest[0].count > 9 {
            configPath = String(rest[0].dropFirst(9))
        } else if rest.count == 2, rest[0] == "--config", !rest[1].isEmpty, !rest[1].hasPrefix("-") {
            configPath = rest[1]
        } else {
            return nil
        }
    }
}
