/// An annotation (BeeHive's `@BeeHiveMod`, `@BeeHiveService`): a function the linker puts
/// in the `hivekit_annotations` ELF section, which HiveKit finds and calls when it scans
/// the program, so that a module type or a service implementation is known by name
/// without any catalog code. Declare one in a single line next to the type:
///
/// ```swift
/// @used @section("hivekit_annotations") let shopModule: HiveAnnotation = { HiveAnnotations.module(ShopModule.self) }
/// @used @section("hivekit_annotations") let systemClock: HiveAnnotation = {
///     HiveAnnotations.service(WallClock.self, implementation: SystemClock.self) { SystemClock() } }
/// ```
///
/// The section name must be written exactly so; `@used` keeps the otherwise unused
/// constant in the binary. The closure must capture nothing (a C function) and do
/// nothing but declare one thing through ``HiveAnnotations``. Swift 6.3 accepts
/// `@used` and `@section` with no compiler flag.
public typealias HiveAnnotation = @convention(c) () -> Void
