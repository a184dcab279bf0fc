import Foundation
import Testing

/// Whether this machine can boot each systemd release of the real-systemd suite, and if not,
/// why.
///
/// Every release needs root (the suite mounts an overlay and boots a container),
/// systemd-nspawn (Debian package systemd-container), nsenter, overlayfs and dpkg. systemd
/// 252 is this machine's own (`/lib/systemd/systemd`); systemd 257 is made with debootstrap
/// (once, then cached) and booted with cgroup v2, so it needs debootstrap, flock and unshare
/// and a cgroup v2 hierarchy on this machine.
///
/// The suite runs only in its own test process (``TestProcess/systemd``: `scripts/test`
/// starts it); there, whether a machine that cannot boot a release skips its checks or
/// fails them is decided here, in code: with `CI` set (to
/// anything but empty) or `HIVED_SYSTEMD_SUITE=require` every release is required and fails,
/// naming what is missing; elsewhere it skips, saying why. `HIVED_SYSTEMD_SUITE=skip` skips
/// the suite on purpose, even on CI, and `HIVED_SYSTEMD_RELEASES` (e.g. `252`) boots only
/// the releases it names.
enum SuiteRequirements {
    /// What to do with the suite, or with one release's checks.
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

    /// The decision for `release` under `environment` on a machine that lacks `unmet`:
    /// skipped when `HIVED_SYSTEMD_RELEASES` leaves it out, else as ``decision(environment:unmet:)``.
    static func decision(for release: SystemdRelease, environment: [String: String], unmet: String?) -> Decision {
        if let chosen = environment["HIVED_SYSTEMD_RELEASES"], !chosen.isEmpty,
            !chosen.split(whereSeparator: { $0 == " " || $0 == "," }).contains(Substring(release.rawValue))
        {
            return .skip("HIVED_SYSTEMD_RELEASES=\(chosen)")
        }
        return decision(environment: environment, unmet: unmet)
    }

    /// The decision for `release` in this process on this machine.
    static func current(for release: SystemdRelease) -> Decision {
        decisions[release] ?? .run
    }

    private static let decisions: [SystemdRelease: Decision] = Dictionary(
        uniqueKeysWithValues: SystemdRelease.allCases.map { release in
            (release, decision(for: release, environment: ProcessInfo.processInfo.environment, unmet: missing(for: release)))
        })

    /// Why `release` must not boot here (skipped or failed), or `nil` when it boots.
    static func unmet(for release: SystemdRelease) -> String? {
        switch current(for: release) {
        case .run: nil
        case .skip(let reason), .fail(let reason): reason
        }
    }

    /// Whether `release`'s checks run: requirements met, or required (then they fail at
    /// once with ``unmet(for:)`` as their reason).
    static func shouldRun(for release: SystemdRelease) -> Bool {
        if case .skip = current(for: release) { return false }
        return true
    }

    /// Whether the suite runs at all: some release's checks run.
    static var shouldRun: Bool { !SystemdRelease.selected.isEmpty }

    /// The skip message Swift Testing shows, naming each release skipped and why.
    static var comment: Comment {
        let skipped = SystemdRelease.allCases.compactMap { release in
            unmet(for: release).map { "\(release.testDescription): \($0)" }
        }
        return Comment(rawValue: "skipped: \(skipped.isEmpty ? "nothing missing" : skipped.joined(separator: "; "))")
    }

    /// What this machine lacks to boot `release`, or `nil` when it has everything.
    static func missing(for release: SystemdRelease) -> String? {
        var missing: [String] = []
        if geteuid() != 0 { missing.append("root (it mounts an overlay and boots a container; run as root or with sudo)") }
        var tools = [("systemd-nspawn", "systemd-container"), ("nsenter", "util-linux"),
                     ("dpkg-deb", "dpkg"), ("mountpoint", "util-linux")]
        if release.debootstrapSuite != nil {
            tools += [("debootstrap", "debootstrap"), ("flock", "util-linux"), ("unshare", "util-linux")]
        }
        for (tool, package) in tools where !onPath(tool) {
            missing.append("\(tool) (apt-get install \(package))")
        }
        if release.debootstrapSuite == nil, !FileManager.default.isExecutableFile(atPath: "/lib/systemd/systemd") {
            missing.append("systemd at /lib/systemd/systemd")
        }
        if release.unifiedCgroups, unifiedHierarchy == nil {
            missing.append("a cgroup v2 hierarchy (/sys/fs/cgroup or /sys/fs/cgroup/unified)")
        }
        let filesystems = (try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8)) ?? ""
        if !filesystems.contains("overlay") { missing.append("overlayfs in the kernel") }
        guard !missing.isEmpty else { return nil }
        return "the real-systemd suite on \(release.testDescription) needs " + missing.joined(separator: ", ")
    }

    /// Where this machine mounts its cgroup v2 hierarchy: `/sys/fs/cgroup` (v2 alone) or
    /// `/sys/fs/cgroup/unified` (beside the v1 controllers); `nil` if nowhere.
    static let unifiedHierarchy: String? = {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        let cgroup2 = Set(mounts.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            return fields.count > 2 && fields[2] == "cgroup2" ? String(fields[1]) : nil
        })
        return ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"].first { cgroup2.contains($0) }
    }()

    private static func onPath(_ tool: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        return directories.contains { directory in
            FileManager.default.isExecutableFile(atPath: directory + "/" + tool)
        }
    }
}
