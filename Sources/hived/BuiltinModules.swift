import HiveKit

/// The module types every hived configuration can name, besides those declared with
/// annotations (`reporter`).
enum BuiltinModules {
    /// `probe` (records events as JSON lines; fails or stalls on demand), `echo-server`
    /// (a line echo server that survives restarts: socket activation and the descriptor
    /// store), and the demos `echo` (logs events) and `heartbeat` (beats while running;
    /// offers an action and a route), each taking only the settings it lists.
    static let catalog: ModuleCatalog = {
        var catalog = ModuleCatalog()
        catalog.register("probe", settings: ["path", "fail_on", "stall_on", "block_on", "stall_until", "build_until"]) { descriptor in
            try ProbeModule.validate(descriptor.settings)
            try ProbeModule.waitUntilBuildable(descriptor)
            return ProbeModule()
        }
        catalog.register("echo", settings: ["message"]) { descriptor in
            try EchoModule.validate(descriptor.settings)
            return EchoModule()
        }
        catalog.register("echo-server", settings: ["socket", "listen"]) { descriptor in
            _ = try EchoServerModule.listener(descriptor.settings)
            return EchoServerModule()
        }
        catalog.register("heartbeat", settings: ["interval"]) { descriptor in
            try HeartbeatModule.validate(descriptor.settings)
            return HeartbeatModule()
        }
        return catalog
    }()
}
