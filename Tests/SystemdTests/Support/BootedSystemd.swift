import TestSupport
import Testing

/// A suite trait that boots one systemd container per release the run selects
/// (``SystemdRelease/selected``), installs hived from its Debian package into each, runs the
/// suite's tests with ``HivedFixture/booted`` set, and stops every container and removes
/// every trace afterwards, whatever happened.
///
/// A release that cannot be booted (a requirement missing while required, a failed boot or
/// installation) fails its own tests with the reason; the other release's still run.
struct BootedSystemd: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let package = try await HivedFixture.buildPackage()
        var booted: [SystemdRelease: Result<HivedFixture, TestFailure>] = [:]
        var containers: [SystemdContainer] = []
        for release in SystemdRelease.selected {
            if let unmet = SuiteRequirements.unmet(for: release) {
                booted[release] = .failure(TestFailure(unmet))
                continue
            }
            do {
                let lower = try await HivedFixture.rootFileSystem(for: release, package: package)
                let container = try await SystemdContainer.boot(release, lower: lower)
                containers.append(container)
                booted[release] = .success(try await HivedFixture.install(package, in: container))
            } catch {
                booted[release] = .failure(error as? TestFailure ?? TestFailure("\(release.testDescription): \(error)"))
            }
        }
        var failure: (any Error)?
        do {
            try await HivedFixture.$booted.withValue(booted) { try await function() }
        } catch { failure = error }
        for container in containers { await container.shutdown() }
        if let failure { throw failure }
    }
}

extension Trait where Self == BootedSystemd {
    /// Boots systemd in a throw-away container per release for the suite, with hived's
    /// package installed.
    static var bootedSystemd: Self { BootedSystemd() }
}
