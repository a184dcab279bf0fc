import Testing

/// A suite trait that boots one systemd container for the whole suite, installs hived
/// from its Debian package into it, runs the suite's tests with ``HivedFixture/current``
/// set, and stops the container and removes every trace afterwards, whatever happened.
struct BootedSystemd: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if let unmet = SuiteRequirements.unmet { throw SuiteFailure(unmet) }
        let package = try await HivedFixture.buildPackage()
        let container = try await SystemdContainer.boot()
        do {
            let fixture = try await HivedFixture.install(package, in: container)
            try await HivedFixture.$current.withValue(fixture) { try await function() }
        } catch {
            await container.shutdown()
            throw error
        }
        await container.shutdown()
    }
}

extension Trait where Self == BootedSystemd {
    /// Boots systemd in a throw-away container for the suite, with hived's package installed.
    static var bootedSystemd: Self { BootedSystemd() }
}
