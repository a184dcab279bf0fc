import Foundation
import Testing

/// Whether this machine can run the real-systemd suite, and if not, why.
///
/// The suite needs root (it mounts an overlay and boots a container), systemd-nspawn
/// (Debian package systemd-container), nsenter, overlayfs, systemd itself and dpkg.
/// `HIVED_SYSTEMD_SUITE=skip` skips it on purpose; `HIVED_SYSTEMD_SUITE=require` (for CI)
/// makes a machine that cannot run it fail the suite instead of skipping it.
enum SuiteRequirements {
    /// Why the suite cannot run here, or `nil` when it can.
    static let unmet: String? = {
        if ProcessInfo.processInfo.environment["HIVED_SYSTEMD_SUITE"] == "skip" {
            return "HIVED_SYSTEMD_SUITE=skip"
        }
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

    /// Whether the suite runs: requirements met, or required by `HIVED_SYSTEMD_SUITE=require`
    /// (then the suite fails with ``unmet`` as its reason).
    static var shouldRun: Bool {
        unmet == nil || ProcessInfo.processInfo.environment["HIVED_SYSTEMD_SUITE"] == "require"
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
