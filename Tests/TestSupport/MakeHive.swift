import HiveKit

/// A hive for a test, with HiveConfiguration's default budget (5 s) unless the test names
/// one: the tests that block threads or burn CPU run in a process of their own
/// (BlockingTests), and `scripts/lib/test-processes` runs at most 8 tests at once, so a hook
/// waits for a thread only briefly even beside two CPU hogs.
public func makeHive(
    _ modules: [(module: any Module, descriptor: ModuleDescriptor)],
    budget: Duration = .seconds(5),
    logs: LogStore = LogStore(),
    environment: HiveEnvironment = .testing
) throws -> Hive {
    try Hive(
        HiveConfiguration(environment: environment, defaultBudget: budget, logger: logs.logger),
        modules: modules)
}
