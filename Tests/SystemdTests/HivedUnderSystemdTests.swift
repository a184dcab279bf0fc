import Foundation
import TestSupport
import Testing

/// hived under real systemd 252 (Debian 12) and 257 (Debian 13), each booted in a
/// throw-away container (see ``SystemdContainer``) with hived installed from its Debian
/// package: readiness, reload, stop order, failures, the watchdog and signals, as an
/// operator sees them through `systemctl` and `journalctl`.
///
/// Every check takes the release as its argument (``SystemdRelease``) and runs on each; the
/// checks of what only newer systemd offers (`Type=notify-reload`, `varlinkctl`,
/// `MemoryPressureWatch=`, `FileDescriptorStorePreserve=`) take the modern releases alone.
/// One container per release serves every test (booting is the slow part), so the tests
/// run one at a time and each starts from a stopped hived with its own configuration; a
/// check that mostly waits on systemd's timers runs on every release at once instead
/// (``onEveryReleaseAtOnce(_:)``).
@Suite(
    "hived under real systemd",
    .serialized,
    .runsIn(.systemd),
    .enabled(if: SuiteRequirements.shouldRun, SuiteRequirements.comment),
    .bootedSystemd
)
struct HivedUnderSystemdTests {
    /// The fixture ``BootedSystemd`` set up for `release`; throws why there is none.
    func hived(_ release: SystemdRelease) throws -> HivedFixture {
        try HivedFixture.fixture(for: release)
    }

    /// Runs `check` on every selected release at the same time, for a check whose time is
    /// mostly systemd's timers: each release has a container of its own, and the suite runs
    /// nothing else meanwhile. Its expectations name the release; an error one release's
    /// check throws is recorded naming it and does not cut the other's short.
    func onEveryReleaseAtOnce(_ check: @escaping @Sendable (SystemdRelease) async throws -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for release in SystemdRelease.selected {
                group.addTask {
                    do { try await check(release) } catch { Issue.record(error, "\(release)") }
                }
            }
        }
    }

    /// A configuration whose modules are probes writing to /var/lib/hived/FILE.jsonl.
    static func config(signals: String = "{}", _ modules: String) -> String {
        """
        environment: testing
        log: {level: debug, target: auto}
        budgets: {event: 10s, stop: 30s}
        signals: \(signals)
        modules:
        \(modules)
        """
    }

    @Test("dpkg -i installs the package, enables hived and leaves it active", arguments: SystemdRelease.selected)
    func packageInstallStartsService(release: SystemdRelease) async throws {
        let hived = try hived(release)
        #expect(hived.installation.status == 0, "\(hived.installation)")
        #expect(hived.activeAfterInstall == "active", "\(hived.statusAfterInstall)")
        #expect(hived.statusAfterInstall.stdout.contains("Active: active (running)"), "\(hived.statusAfterInstall)")
        #expect(try await hived.systemctl("is-enabled").output == "enabled")

        let container = hived.container
        let conffiles = try await container.check(["dpkg-query", "-W", "-f=${Conffiles}", "hived"]).stdout
        #expect(conffiles.contains("/etc/hived/hived.yaml"))
        // logind grants the hived user its delay lock for sleep only through polkit.
        let recommends = try await container.check(["dpkg-query", "-W", "-f=${Recommends}", "hived"]).stdout
        #expect(recommends.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains("polkitd"),
                "Recommends: \(recommends)")
        let user = try await container.exec(["id", "-u", "hived"])
        #expect(user.status == 0 && user.output != "0", "the hived system user: \(user)")
        // The units where Debian 13's merged /usr expects them, which 252 reads too.
        let files = try await container.check(["dpkg", "-L", "hived"]).stdout.split(separator: "\n").map(String.init)
        #expect(files.contains("/usr/lib/systemd/system/hived.service") && files.contains("/usr/lib/systemd/system/hived.socket"),
                "\(files)")
        #expect(!files.contains { $0.hasPrefix("/lib/") }, "\(files)")
        // 252 names it by /lib/systemd/system, which it searches first: on a merged /usr the same file.
        let fragment = try await hived.property("FragmentPath")
        #expect(try await container.exec(["readlink", "-f", fragment]).output == "/usr/lib/systemd/system/hived.service",
                "\(fragment)")
        let ldd = try await container.check(["ldd", "/usr/bin/hived"]).stdout
        #expect(!ldd.lowercased().contains("swift"), "the packaged binary needs no Swift library:\n\(ldd)")
    }

    @Test("the unit passes systemd-analyze verify with no warnings and scores at most 2.0", arguments: SystemdRelease.selected)
    func unitIsCleanAndHardened(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let verify = try await hived.container.exec(["systemd-analyze", "verify", HivedFixture.unit])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout.isEmpty && verify.stderr.isEmpty, "systemd-analyze verify warned: \(verify)")

        let security = try await hived.container.exec(["systemd-analyze", "security", "--no-pager", HivedFixture.unit])
        // "→ Overall exposure level for hived.service: 1.1 OK :-)"
        let score = security.stdout.firstMatch(of: /exposure level for hived\.service: ([0-9.]+)/)
            .flatMap { Double($0.1) }
        let exposure = try #require(score, "no overall exposure level in: \(security)")
        #expect(exposure <= 2.0, "\(security.stdout)")
        // The service really runs as the unprivileged user the unit names.
        try await hived.prepare(config: Self.config("""
              - name: plain
                type: probe
            """))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")
        #expect(pid != "0" && !pid.isEmpty, "hived runs")
        let owner = try await hived.container.exec(["ps", "-o", "user=", "-p", pid]).output
        #expect(owner == "hived")
    }
}
