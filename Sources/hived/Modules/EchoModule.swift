import HiveKit

/// The `echo` demo module: logs every event it receives, with its settings' `message`.
///
/// ## Configuration keys
/// - `message` (string, optional): added to every log line.
struct EchoModule: Module {
    /// Checks that `message`, if given, is a string.
    static func validate(_ settings: Settings) throws(HiveError) {
        _ = try settings.string("message")
    }

    func setup(_ context: ModuleContext) async throws { try echo(context) }
    func initialize(_ context: ModuleContext) async throws { try echo(context) }
    func ready(_ context: ModuleContext) async throws { try echo(context) }
    func background(_ context: ModuleContext) async throws { try echo(context) }
    func foreground(_ context: ModuleContext) async throws { try echo(context) }
    func reload(_ context: ModuleContext) async throws { try echo(context) }
    func memoryWarning(_ context: ModuleContext) async throws { try echo(context) }
    func custom(_ context: ModuleContext) async throws { try echo(context) }
    func terminate(_ context: ModuleContext) async throws { try echo(context) }
    func teardown(_ context: ModuleContext) async throws { try echo(context) }
    func unmount(_ context: ModuleContext) async throws { try echo(context) }

    private func echo(_ context: ModuleContext) throws {
        let message = try context.settings.string("message").map { " (\($0))" } ?? ""
        // The event is the line's own (`[api] ready: received`); a custom event's name is not.
        let what = context.customEventName.map { "received '\($0)'" } ?? "received"
        context.logger.info("\(what)\(message)")
    }
}
