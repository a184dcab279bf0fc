import HiveKit

/// The module types every hived configuration can name, besides those declared with
/// annotations (`reporter`).
enum BuiltinModules {
    /// `probe` (records events as JSON lines; fails or stalls on demand), `echo-server`
    /// (a line echo server that survives restarts: socket activation and the descriptor
    /// store), and the demos `echo` (logs events) and `heartbeat` (beats while running;
    /// offers an action and a route).
    static let catalog: ModuleCatalog = {
        var catalog = ModuleCatalog()
        catalog.register("probe") { descriptor in
            try ProbeModule.validate(descriptor.settings)
            try ProbeModule.waitUntilBuildable(descriptor)
            return ProbeModule()
        }
        catalog.register("echo") { descriptor in
            try EchoModule.validate(descriptor.settings)
            return EchoModule()
        }
        catalog.register("echo-server") { descriptor in
            _ = try EchoServerModule.listener(descriptor.settings)
            return EchoServerModule()
        }
        catalog.register("heartbeat") { descriptor in
            try HeartbeatModule.validate(descriptor.settings)
            return HeartbeatModule()
        }
        return catalog
    }()
}
