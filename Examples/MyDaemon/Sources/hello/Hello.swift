import HiveDaemon
import HiveKit

/// Greets once the daemon is ready, counts the custom events it receives, and says how
/// many at the stop.
actor Greeter: Module {
    private var greeting = "hello"
    private var events = 0

    func setup(_ context: ModuleContext) async throws {
        greeting = try context.settings.string("greeting") ?? greeting
    }

    func ready(_ context: ModuleContext) async throws {
        context.logger.info("\(greeting), world")
    }

    func custom(_ context: ModuleContext) async throws {
        events += 1
        context.logger.info("\(context.customEventName ?? "?") is event \(events)")
    }

    func teardown(_ context: ModuleContext) async throws {
        context.logger.info("goodbye after \(events) events")
    }
}

@main
struct Hello: DaemonProgram {
    static let identity = DaemonIdentity(name: "hello", version: "1.0.0")

    static let modules: ModuleCatalog = {
        var catalog = ModuleCatalog()
        catalog.register("greeter", settings: ["greeting"]) { _ in Greeter() }
        return catalog
    }()

    static let embeddedConfiguration: String? = """
        signals: {SIGUSR1: "custom:wave"}
        modules: [{name: greeter, type: greeter, settings: {greeting: hello}}]
        """
}
