import Foundation
import HiveKit
import Synchronization
import TestSupport

/// A connected pair of Unix stream sockets: `passed` goes to the hive, `peer` stays with
/// the test and tells whether `passed` was closed (a closed peer reads as end of file),
/// which holds even if another test reuses the descriptor number meanwhile.
final class SocketPair: Sendable {
    let passed: Int32
    let peer: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw TestFailure("socketpair: errno \(errno)")
        }
        passed = fds[0]
        peer = fds[1]
    }

    /// Whether `passed` was closed by whoever owned it.
    var isPassedClosed: Bool {
        var byte: UInt8 = 0
        return recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    deinit { close(peer) }
}

/// A descriptor store that records what it is asked, for the hive's side of the protocol.
final class FakeDescriptorStore: DescriptorStore {
    enum Call: Equatable { case store(String), remove(String) }

    private let calls = Mutex<[Call]>([])
    private let size: Result<Int, TestFailure>

    init(capacity: Int = 16) { size = .success(capacity) }
    init(unavailable reason: String) { size = .failure(TestFailure(reason)) }

    var recorded: [Call] { calls.withLock { $0 } }

    func capacity() async throws -> Int { try size.get() }
    func store(_ descriptor: Int32, name: String) throws {
        guard fcntl(descriptor, F_GETFD) >= 0 else { throw TestFailure("bad descriptor \(descriptor)") }
        calls.withLock { $0.append(.store(name)) }
    }
    func remove(name: String) { calls.withLock { $0.append(.remove(name)) } }
}

/// A module whose setup and init run `body` with the context, keeping what it returns.
struct SocketModule: Module {
    let onSetup: @Sendable (ModuleContext) async throws -> Void
    var onInit: @Sendable (ModuleContext) async throws -> Void = { _ in }

    func setup(_ context: ModuleContext) async throws { try await onSetup(context) }
    func initialize(_ context: ModuleContext) async throws { try await onInit(context) }
}

/// A value a module's hook hands back to the test.
final class Box<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    var get: Value? { value.withLock { $0 } }
}

/// A hive with `passed` descriptors and `store`, logging into `logs`.
func makeSocketHive(
    _ modules: [(module: any Module, descriptor: ModuleDescriptor)], passed: [PassedDescriptor] = [], store: (any DescriptorStore)? = nil,
    logs: LogStore = LogStore()
) throws -> Hive {
    try Hive(
        HiveConfiguration(
            environment: .testing, logger: logs.logger, passedDescriptors: passed, descriptorStore: store),
        modules: modules)
}
