import Foundation
import HiveKit
import Testing

// The code of HiveDaemon.docc/SocketsThatOutliveTheProcess.md, compiled and run: every
// block of the article is this file's text (DocumentationCodeTests checks that).

/// Serves the socket systemd passes as `web`, and keeps every client's connection across
/// restarts of the process in the descriptor store.
actor WebServer: Module {
    private var listener: Int32 = -1
    private var connections: [String: Int32] = [:]

    func setup(_ context: ModuleContext) async throws {
        listener = try context.sockets.take("web")          // hived.socket's FileDescriptorName=web
    }

    func initialize(_ context: ModuleContext) async throws {
        for name in context.sockets.restoredNames where name.hasPrefix("connection.") {
            if let fd = context.sockets.takeRestored(name) { connections[name] = fd }   // from before the restart
        }
    }

    /// A client was accepted: systemd keeps a duplicate, so it outlives a restart.
    func accepted(_ client: Int32, id: Int, _ context: ModuleContext) async throws {
        try await context.sockets.store(client, as: "connection.\(id)")
        connections["connection.\(id)"] = client
    }

    /// The client left: systemd closes its copy, the module its own.
    func closed(id: Int, _ context: ModuleContext) {
        context.sockets.removeStored("connection.\(id)")
        if let fd = connections.removeValue(forKey: "connection.\(id)") { close(fd) }
    }

    /// The connections the module holds, by name.
    var names: [String] { connections.keys.sorted() }
}

@Suite struct SocketsArticleTests {
    @Test func theServerTakesItsSocketResumesItsConnectionsAndStoresNewOnes() async throws {
        let web = try SocketPair(), old = try SocketPair(), new = try SocketPair()
        let store = FakeDescriptorStore()
        let server = WebServer()
        let context = Box<ModuleContext>()
        let hive = try makeSocketHive(
            [(SocketModule(onSetup: { try await server.setup($0) }, onInit: { ctx in
                try await server.initialize(ctx)
                context.set(ctx)
            }), ModuleDescriptor(name: "web"))],
            passed: [PassedDescriptor(descriptor: web.passed, name: "web"),
                     PassedDescriptor(descriptor: old.passed, name: "web/connection.7")],
            store: store)
        try await hive.start()
        #expect(await server.names == ["connection.7"])
        let ctx = try #require(context.get)
        try await server.accepted(dup(new.passed), id: 8, ctx)
        #expect(await server.names == ["connection.7", "connection.8"])
        await server.closed(id: 7, ctx)
        #expect(old.isPassedClosed)
        #expect(await server.names == ["connection.8"])
        #expect(store.recorded == [.store("web/connection.8"), .remove("web/connection.7")], "the module's names, in the store")
        await hive.stop()
    }
}
