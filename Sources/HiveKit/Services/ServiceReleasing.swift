/// A service that holds resources to close explicitly when the hive lets it go.
///
/// A singleton conforming to it has ``release()`` called once its registration goes away:
/// after every module's `teardown` (singletons in reverse order of creation), when the
/// module that registered it is unregistered, or when it is replaced; one still being
/// created at that moment is released once its factory returns. Singletons that do not
/// conform are simply dropped, so their `deinit` runs once nobody else holds them.
public protocol ServiceReleasing: Sendable {
    /// Closes what the service holds; must not throw and should not block for long.
    func release()
}
