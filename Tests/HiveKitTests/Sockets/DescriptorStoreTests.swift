import Foundation
import HiveKit
import TestSupport
import Testing

@Suite("the descriptor store: store, restore, remove, by module")
struct DescriptorStoreTests {
    @Test("a module stores under its own name, MODULE/NAME, and removes what it stored")
    func storeAndRemove() async throws {
        let pair = try SocketPair()
        let store = FakeDescriptorStore()
        let names = Box<[String]>()
        let hive = try makeSocketHive(
            [(SocketModule { context in
                try await context.sockets.store(pair.passed, as: "listener")
                names.set(context.sockets.storedNames)
                context.sockets.removeStored("listener")
                context.sockets.removeStored("never-stored")
            }, ModuleDescriptor(name: "echo"))],
            store: store)
        try await hive.start()
        #expect(names.get == ["listener"])
        #expect(store.recorded == [.store("echo/listener"), .remove("echo/listener")])
        #expect(!pair.isPassedClosed, "the module keeps its own descriptor")
        close(pair.passed)
    }

    @Test("without a store, storing is an error naming the module and the reason")
    func unavailable() async throws {
        let pair = try SocketPair()
        let failures = Box<[HiveError]>()
        let hive = try makeSocketHive(
            [(SocketModule { context in
                var errors: [HiveError] = []
                do { try await context.sockets.store(pair.passed, as: "listener") } catch let error as HiveError { errors.append(error) }
                do { _ = try await context.sockets.storeCapacity() } catch let error as HiveError { errors.append(error) }
                failures.set(errors)
            }, ModuleDescriptor(name: "echo"))])
        try await hive.start()
        let errors = try #require(failures.get)
        #expect(errors.map(\.code) == [.unavailable, .unavailable])
        #expect(errors.first?.description == "module 'echo': cannot store 'listener': this hive has no descriptor store")
        close(pair.passed)
    }

    @Test("a store that says it is unavailable: the module is told why")
    func storeSaysWhy() async throws {
        let pair = try SocketPair()
        let failure = Box<HiveError>()
        let store = FakeDescriptorStore(unavailable: "no NOTIFY_SOCKET")
        let hive = try makeSocketHive(
            [(SocketModule { context in
                do { try await context.sockets.store(pair.passed, as: "listener") } catch let error as HiveError { failure.set(error) }
            }, ModuleDescriptor(name: "echo"))],
            store: store)
        try await hive.start()
        #expect(failure.get?.description
            == "module 'echo': cannot store 'listener': the descriptor store is unavailable: no NOTIFY_SOCKET")
        #expect(store.recorded.isEmpty)
        close(pair.passed)
    }

    @Test("a full store refuses more, counting every module's descriptors")
    func full() async throws {
        let pair = try SocketPair()
        let failure = Box<HiveError>()
        let store = FakeDescriptorStore(capacity: 2)
        let hive = try makeSocketHive(
            [(SocketModule { context in
                try await context.sockets.store(pair.passed, as: "one")
             }, ModuleDescriptor(name: "a", priority: 1)),
             (SocketModule { context in
                try await context.sockets.store(pair.passed, as: "two")
                do { try await context.sockets.store(pair.passed, as: "three") } catch let error as HiveError { failure.set(error) }
             }, ModuleDescriptor(name: "b"))],
            store: store)
        try await hive.start()
        #expect(failure.get?.message == "cannot store 'three': the descriptor store is full (2 of 2)")
        #expect(store.recorded == [.store("a/one"), .store("b/two")])
        close(pair.passed)
    }

    @Test("names are escaped into one valid FDNAME, and a name too long is refused")
    func escapedNames() async throws {
        let pair = try SocketPair()
        let store = FakeDescriptorStore()
        let failure = Box<HiveError>()
        let hive = try makeSocketHive(
            [(SocketModule { context in
                try await context.sockets.store(pair.passed, as: "conn 7%")
                do {
                    try await context.sockets.store(pair.passed, as: String(repeating: "x", count: 250))
                } catch let error as HiveError { failure.set(error) }
            }, ModuleDescriptor(name: "web/api:1"))],
            store: store)
        try await hive.start()
        #expect(store.recorded == [.store("web%2Fapi%3A1/conn%207%25")])
        #expect(failure.get?.code == .invalidParameter)
        close(pair.passed)
    }

    @Test("a module finds what it stored before the restart, by name; others do not see it")
    func restored() async throws {
        let listener = try SocketPair()
        let connection = try SocketPair()
        let seen = Box<(echo: [String], other: [String], taken: Int32?, stored: [String])>()
        let store = FakeDescriptorStore()
        let hive = try makeSocketHive(
            [(SocketModule { context in
                #expect(context.sockets.takeRestored("listener") == nil)
                seen.set(([], context.sockets.restoredNames, nil, []))
             }, ModuleDescriptor(name: "other", priority: 1)),
             (SocketModule { context in
                let names = context.sockets.restoredNames
                let taken = context.sockets.takeRestored("listener")
                seen.set((names, seen.get?.other ?? [], taken, context.sockets.storedNames))
             }, ModuleDescriptor(name: "echo"))],
            passed: [PassedDescriptor(descriptor: listener.passed, name: "echo/listener"),
                     PassedDescriptor(descriptor: connection.passed, name: "echo/connection.9")],
            store: store)
        try await hive.start()
        #expect(seen.get?.other == [])
        #expect(seen.get?.echo == ["listener", "connection.9"])
        #expect(seen.get?.taken == listener.passed)
        #expect(seen.get?.stored == ["connection.9", "listener"], "restored descriptors are still in the store")
        #expect(!listener.isPassedClosed)
        #expect(connection.isPassedClosed, "not taken back: closed")
        #expect(store.recorded == [.remove("echo/connection.9")], "and removed from the store")
        close(listener.passed)
    }

    @Test("after a failed start, stored descriptors nobody took are closed but stay in the store")
    func failedStartKeepsStore() async throws {
        let stored = try SocketPair()
        let store = FakeDescriptorStore()
        let hive = try makeSocketHive(
            [(SocketModule { _ in throw TestFailure("broken") }, ModuleDescriptor(name: "echo"))],
            passed: [PassedDescriptor(descriptor: stored.passed, name: "echo/listener")], store: store)
        await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(stored.isPassedClosed)
        #expect(store.recorded.isEmpty, "a start that succeeds later may still want it")
    }

    @Test("a module leaving a running hive removes everything it stored; a stop of the hive removes nothing")
    func removalAndStop() async throws {
        let pair = try SocketPair()
        let store = FakeDescriptorStore()
        let storing = SocketModule { context in
            try await context.sockets.store(pair.passed, as: "listener")
            try await context.sockets.store(pair.passed, as: "connection.1")
        }
        let hive = try makeSocketHive(
            [(storing, ModuleDescriptor(name: "leaving")), (storing, ModuleDescriptor(name: "staying"))],
            store: store)
        try await hive.start()
        try await hive.send(.ready)
        try await hive.unregister(named: "leaving")
        let afterRemoval = store.recorded
        #expect(afterRemoval.filter { if case .remove = $0 { true } else { false } }
            == [.remove("leaving/connection.1"), .remove("leaving/listener")])
        await hive.stop()
        #expect(store.recorded == afterRemoval, "the service manager keeps the store for a restart")
        close(pair.passed)
    }
}
