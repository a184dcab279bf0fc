import Foundation
import HiveKit
import TestSupport
import Testing

@Suite("passed sockets: take by name, unclaimed ones closed when start-up ends")
struct PassedSocketTests {
    @Test("a module takes a passed socket by name in setup and keeps it open after start-up")
    func takeByName() async throws {
        let web = try SocketPair()
        let other = try SocketPair()
        let taken = Box<Int32>()
        let hive = try makeSocketHive(
            [(SocketModule { context in
                #expect(context.sockets.available == ["web", "other"])
                taken.set(try context.sockets.take("web"))
            }, ModuleDescriptor(name: "api"))],
            passed: [PassedDescriptor(descriptor: web.passed, name: "web"),
                     PassedDescriptor(descriptor: other.passed, name: "other")])
        try await hive.start()
        #expect(taken.get == web.passed)
        #expect(!web.isPassedClosed, "the module owns it now")
        #expect(other.isPassedClosed, "nobody took 'other'")
        #expect(hive.unclaimedSocketNames.isEmpty)
        close(web.passed)
    }

    @Test("an unclaimed socket is logged by name when it is closed")
    func unclaimedIsLogged() async throws {
        let extra = try SocketPair()
        let logs = LogStore()
        let hive = try makeSocketHive(
            [(SocketModule { _ in }, ModuleDescriptor(name: "idle"))],
            passed: [PassedDescriptor(descriptor: extra.passed, name: "extra")], logs: logs)
        try await hive.start()
        #expect(extra.isPassedClosed)
        let record = logs.all.first { $0.message.contains("'extra'") }
        #expect(record?.level == .warning, "\(logs.all.map(\.message))")
        #expect(record?.message.contains("no module took it") == true)
    }

    @Test("a name that was not passed fails setup, naming the module, the name and what was passed")
    func missingNameIsAnError() async throws {
        let web = try SocketPair()
        let hive = try makeSocketHive(
            [(SocketModule { context in _ = try context.sockets.take("admin") }, ModuleDescriptor(name: "api"))],
            passed: [PassedDescriptor(descriptor: web.passed, name: "web")])
        let error = await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(error?.module == "api")
        let cause = try #require(error?.underlying as? HiveError)
        #expect(cause.code == .unavailable)
        #expect(cause.description == "module 'api': no socket named 'admin' was passed (passed: web)")
        #expect(web.isPassedClosed, "a failed start still closes what nobody took")
    }

    @Test("with nothing passed the error says so")
    func nothingPassed() async throws {
        let hive = try makeSocketHive(
            [(SocketModule { context in _ = try context.sockets.take("web") }, ModuleDescriptor(name: "api"))])
        let error = await #expect(throws: HiveError.self) { try await hive.start() }
        #expect((error?.underlying as? HiveError)?.message == "no socket named 'web' was passed (none was passed)")
    }

    @Test("a socket taken by one module is refused to the next, naming who has it")
    func takenTwice() async throws {
        let web = try SocketPair()
        let hive = try makeSocketHive(
            [(SocketModule { context in _ = try context.sockets.take("web") },
                ModuleDescriptor(name: "first", priority: 10)),
             (SocketModule { context in _ = try context.sockets.take("web") }, ModuleDescriptor(name: "second"))],
            passed: [PassedDescriptor(descriptor: web.passed, name: "web")])
        let error = await #expect(throws: HiveError.self) { try await hive.start() }
        #expect(error?.module == "second")
        #expect((error?.underlying as? HiveError)?.message == "socket 'web' was already taken by module 'first'")
        close(web.passed)
    }

    @Test("takeAll takes every socket passed under one name")
    func takeAll() async throws {
        let one = try SocketPair()
        let two = try SocketPair()
        let taken = Box<[Int32]>()
        let hive = try makeSocketHive(
            [(SocketModule { context in taken.set(try context.sockets.takeAll("web")) },
                ModuleDescriptor(name: "api"))],
            passed: [PassedDescriptor(descriptor: one.passed, name: "web"),
                     PassedDescriptor(descriptor: two.passed, name: "web")])
        try await hive.start()
        #expect(taken.get == [one.passed, two.passed])
        #expect(!one.isPassedClosed && !two.isPassedClosed)
        close(one.passed)
        close(two.passed)
    }

    @Test("after start-up nothing can be taken any more, and the error says why")
    func tooLate() async throws {
        let web = try SocketPair()
        let hive = try makeSocketHive(
            [(SocketModule(onSetup: { _ in }, onInit: { _ in }), ModuleDescriptor(name: "late"))],
            passed: [PassedDescriptor(descriptor: web.passed, name: "web")])
        try await hive.start()
        let late = Box<HiveError>()
        try await hive.register(SocketModule { context in
            do { _ = try context.sockets.take("web") } catch let error as HiveError { late.set(error) }
        }, as: ModuleDescriptor(name: "joiner"))
        #expect(late.get?.message.contains("only in setup or init") == true, "\(String(describing: late.get))")
        #expect(web.isPassedClosed)
    }
}
