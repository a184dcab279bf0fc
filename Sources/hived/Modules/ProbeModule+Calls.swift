import HiveKit

extension ProbeModule {
    /// A result JSON cannot carry, for `opaque=true`.
    struct Opaque: Sendable {}

    /// Registers the probe's calls, to rehearse calls from outside the process (private
    /// unless the configuration exports them): the action `rehearse` and, when the
    /// module's name can be a URL's host, the route `hive://NAME/rehearse`. Both do as
    /// their parameters say: `stall=DURATION` sleeps that long first (cancellation ends
    /// the sleep and the call, recorded as a `call-cancelled` line); `fail=MESSAGE`
    /// throws that message; `opaque=true` returns a value JSON cannot carry; otherwise the
    /// parameters come back. Each call is recorded as a `call` line.
    func registerCalls(_ context: ModuleContext) throws {
        let (module, settings, state) = (context.moduleName, context.settings, context.stateDirectory)
        try context.mediator.register("rehearse") { request in
            let parameters = request.parameters.compactMapValues { $0 as? String }
            return try await Self.rehearse(parameters, module: module, path: settings.string("path").map { Self.resolve($0, in: state) })
        }
        guard module.utf8.allSatisfy(Self.isHostByte) else { return }
        try context.router.register("hive://\(module)/rehearse", producing: (any Sendable).self) { request in
            var parameters = request.extras.compactMapValues { $0 as? String }
            parameters.merge(request.parameters) { _, url in url }
            return try await Self.rehearse(parameters, module: module, path: settings.string("path").map { Self.resolve($0, in: state) })
        }
    }

    /// Whether `byte` may be in a URL's host as the probe's route has it: an ASCII letter
    /// or digit, `-`, `.` or `_`. Checked byte by byte: classifying a name's characters
    /// costs far more, for every probe at start-up.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func rehearse(_ parameters: [String: String], module: String, path: String?) async throws -> any Sendable {
        let record = { (event: String) throws in
            guard let path else { return }
            var json = JSONLine()
            json.field("module", module)
            json.field("event", event)
            json.field("name", "rehearse")
            json.object("params", parameters)
            json.raw("ts", timestamp())
            try append(json.finished(), to: path)
        }
        try record("call")
        if let stall = parameters["stall"].flatMap(Duration.init(parsing:)) {
            do {
                try await Task.sleep(for: stall)
            } catch {
                try record("call-cancelled")
                throw error
            }
        }
        if let message = parameters["fail"] { throw Failure(description: message, errno: 0) }
        if parameters["opaque"] == "true" { return Opaque() }
        return parameters
    }
}
