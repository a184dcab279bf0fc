import HiveKit

/// A hive for a test. Its default budget (30 s) only bounds hooks whose budget is not
/// what the test is about: the test process's cooperative pool is shared by every test
/// running beside it, and CPU-bound ones (ArgumentParser's first parse in a debug build,
/// building hostile configurations) can keep even a no-op hook waiting seconds for a
/// thread on a loaded 2-core machine (a soak with two CPU hogs saw more than 5 s). Tests
/// of budgets name their own.
public func makeHive(
    _ modules: [(module: any Module, descriptor: ModuleDescriptor)],
    budget: Duration = .seconds(30),
    logs: LogStore = LogStore(),
    environment: HiveEnvironment = .testing
) throws -> Hive {
    try Hive(
        HiveConfiguration(environment: environment, defaultBudget: budget, logger: logs.logger),
        modules: modules)
}
