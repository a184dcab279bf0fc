import Foundation
import Testing

/// Whether this machine can run the real-systemd suite, and if not, why.
///
/// The suite needs root (it mounts an overlay and boots a container), systemd-nspawn
/// (Debian package systemd-container), nsenter, overlayfs, systemd itself and dpkg.
///
/// Whether a machine that cannot run it skips the suite or fails it is decided here, in
/// code, so `swift test` decides the same as `scripts/test`: with `CI` set (to anything
/// but empty) or `HIVED_SYSTEMD_SUITE=require` the suite is required and fails, naming
/// what is missing; elsewhere it skips, saying why. `HIVED_SYSTEMD_SUITE=skip` skips it on
/// purpose, even on CI.
enum SuiteRequirements {
    /// What to do with the suite.
    enum Decision: Equatable {
        /// Run it: everything it needs is here.
        case run
        /// Skip it, for this reason.
        case skip(String)
        /// Fail it, for this reason: it is required and cannot run.
        case fail(String)
    }

    /// The decision for `environment` on a machine that lacks `unmet` (nil: nothing).
    static func decision(environment: [String: String], unmet: String?) -> Decision {
        let choice = environment["HIVED_SYSTEMD_SUITE"] ?? ""
        if choice == "skip" { return .skip("HIVED_SYSTEMD_SUITE=skip") }
        guard let unmet else { return .run }
        let isCI = !(environment["CI"] ?? "").isEmpty
        guard choice == "require" || isCI else { return .skip(unmet) }
        let why = choice == "require" ? "HIVED_SYSTEMD_SUITE=require" : "CI is set"
        return .fail("\(unmet) (required: \(why))")
    }

    /// The decision for this process and machine.
    static let current = decision(environment: ProcessInfo.processInfo.environment, unmet: missing)

    /// Why the suite must not run here (skipped or failed), or `nil` when it runs.
    static var unmet: String? {
        switch current {
        case .run: nil
        case .skip(let reason), .fail(let reason): reason
        }
    }

    /// What this machine lacks for the suite, or `nil` when it has everything.
    static let missing: String? = {
        var missing: [String] = []
        if geteuid() != 0 { missing.append("root (it mounts an overlay and boots a container; run as root or with sudo)") }
        for (tool, package) in [("systemd-nspawn", "systemd-container"), ("nsenter", "util-linux"),
                                ("dpkg-deb", "dpkg"), ("mountpoint", "util-linux")]
        where !onPath(tool) {
            missing.append("\(tool) (apt-get install \(package))")
        }
        if !FileManager.default.isExecutableFile(atPath: "/lib/systemd/systemd") {
            missing.append("systemd at /lib/systemd/systemd")
        }
        let filesystems = (try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8)) ?? ""
        if !filesystems.contains("overlay") { missing.append("overlayfs in the kernel") }
        return missing.isEmpty ? nil : "the real-systemd suite needs " + missing.joined(separator: ", ")
    }()

    /// Whether the suite runs: requirements met, or required (then it fails at once with
    /// ``unmet`` as its reason).
    static var shouldRun: Bool {
        if case .skip = current { return false }
        return true
    }

    /// The skip message Swift Testing shows.
    static var comment: Comment {
        Comment(rawValue: "skipped: \(unmet ?? "nothing missing")")
    }

    private static func onPath(_ tool: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        return directories.contains { directory in
            FileManager.default.isExecutableFile(atPath: directory + "/" + tool)
        }
    }
}
