import HiveKit

/// The `reporter` type, declared with an annotation rather than in hived's catalog code.
@used @section("hivekit_annotations") let reporterModule: HiveAnnotation = { HiveAnnotations.module(ReporterModule.self, name: "reporter") }

/// The `reporter` demo module: calls other modules without importing them.
///
/// On `custom:stats` it resolves the `WallClock` service (when configured) and performs the
/// `heartbeat.beats` action, and logs both; on `custom:rotate` it opens
/// `hive://heartbeat/reset`.
///
/// ## Configuration keys
/// None.
struct ReporterModule: ConfigurableModule {
    init(_ descriptor: ModuleDescriptor) {}

    func custom(_ context: ModuleContext) async throws {
        switch context.customEventName {
        case "stats":
            let time = context.services.isAvailable(WallClock.self)
                ? try context.services.resolve(WallClock.self).timeOfDay() : "now"
            let beats = try await context.mediator.perform(target: "heartbeat", action: "beats", as: Int.self)
            context.logger.info("at \(time) the heartbeat has beaten \(beats) times")
        case "rotate":
            let handled = try await context.router.open("hive://heartbeat/reset")
            context.logger.info(handled ? "heartbeat reset" : "nobody handles hive://heartbeat/reset")
        default:
            break
        }
    }
}
