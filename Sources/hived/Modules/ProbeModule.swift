import HiveKit
#if canImport(Glibc)
import Glibc
#endif

/// The `probe` module: records every event it receives as one JSON line, and fails or
/// stalls (or blocks its thread) on chosen events, to rehearse failure handling under
/// systemd; its calls `rehearse` (an action, and the route `hive://NAME/rehearse`) do the
/// same for calls from outside the process (see ``registerCalls(_:)``).
///
/// A line looks like `{"module":"store","event":"init","params":{},"ts":1732360000.123456}`;
/// custom events add `"name":NAME`; `params` holds the event's parameters (a custom
/// event's, or `reason`/`source` of `background`, `foreground` and `memoryWarning`). The event is
/// recorded when it arrives, before any stall or failure, and logged (in the journal with
/// `HIVE_MODULE` and `HIVE_EVENT`).
///
/// ## Configuration keys
/// - `path` (string, optional): the file to append lines to; created if missing. Without
///   it nothing is written. A relative path is taken in the module's
///   ``ModuleContext/stateDirectory`` (`$STATE_DIRECTORY`'s first entry, which systemd sets
///   from `StateDirectory=`: `/var/lib/hived` for the packaged unit), or in the current
///   directory when that is unset.
/// - `fail_on` (list of event names): events whose hook throws; `custom:NAME` fails only
///   that custom event, `custom` every one; `validateReload` refuses the new settings of
///   a reload (the reload is then aborted).
/// - `stall_on` (map of event name to duration): events whose hook sleeps that long first
///   (`Task.sleep`: the thread is free meanwhile, and cancellation ends the sleep).
/// - `block_on` (map of event name to duration): events whose hook blocks its thread that
///   long (`nanosleep`), as a blocking `close`, a semaphore or a C library call would:
///   it holds one thread of the cooperative pool and ignores cancellation.
/// - `stall_until` (map of event name to path): events whose hook waits until that file
///   exists, so a test holds a stall open exactly as long as it needs and then releases
///   it by creating the file; like `stall_on`, cancellation ends the wait (as when a
///   `terminate` or `teardown` past its budget is abandoned).
/// - `build_until` (path): building the module waits until that file exists, holding its
///   thread, as a module whose set-up hangs on a stuck mount would; a `build` line is
///   recorded first when it has to wait. A module is built when a configuration naming
///   it is checked or read (at start, for a reload, by `check-config`), and when it is
///   added, so a test holds a configuration read open with it.
///
/// Settings are read at each event, so a reload changes them.
struct ProbeModule: Module {
    /// The error a probe throws when told to fail, or when it cannot write its file.
    struct Failure: Error, ErrnoCarrying, CustomStringConvertible {
        let description: String
        let errno: Int32
    }

    /// Checks the settings as a configuration file gives them: a string path,
    /// event names in `fail_on`, `stall_on`, `block_on` and `stall_until`, durations in
    /// `stall_on` and `block_on`, paths in `stall_until`.
    static func validate(_ settings: Settings) throws(HiveError) {
        _ = try settings.string("path")
        if try settings.string("build_until")?.isEmpty == true { throw settings.error("build_until", "needs a file path") }
        for name in try settings.strings("fail_on") ?? [] { try checkEventName(name, in: "fail_on", settings) }
        for key in ["stall_on", "block_on"] {
            guard let durations = try settings.settings(key) else { continue }
            for name in durations.values.keys.sorted() {
                try checkEventName(name, in: key, settings)
                guard try durations.duration(name) != nil else { throw durations.error(name, "needs a duration") }
            }
        }
        if let releases = try settings.settings("stall_until") {
            for name in releases.values.keys.sorted() {
                try checkEventName(name, in: "stall_until", settings)
                guard try releases.string(name)?.isEmpty == false else { throw releases.error(name, "needs a file path") }
            }
        }
    }

    /// Waits until the file `build_until` names exists, holding the calling thread (the
    /// factory's, which builds the module); records a `build` line first if it must wait.
    /// A factory has no context: the state directory is `$STATE_DIRECTORY`'s first entry,
    /// read here, as the daemon read it at start.
    static func waitUntilBuildable(_ descriptor: ModuleDescriptor) throws {
        let state = getenv("STATE_DIRECTORY").map { String(cString: $0) }.flatMap { $0.split(separator: ":").first }.map(String.init)
        guard let release = try descriptor.settings.string("build_until").map({ resolve($0, in: state) }),
            access(release, F_OK) != 0
        else { return }
        if let path = try descriptor.settings.string("path") {
            var json = JSONLine()
            json.field("module", descriptor.name)
            json.field("event", "build")
            json.object("params", [:])
            json.raw("ts", timestamp())
            try append(json.finished(), to: resolve(path, in: state))
        }
        FileAppearance.block(until: release)
    }

    private static func checkEventName(_ name: String, in key: String, _ settings: Settings) throws(HiveError) {
        let isCustom = name.hasPrefix("custom:") && name.count > 7
        guard isCustom || EventKind(name: name) != nil else {
            let known = EventKind.allCases.map(\.name).joined(separator: ", ")
            throw settings.error(key, "names an unknown event \(quoted: name); expected \(known) or custom:NAME")
        }
    }

    func setup(_ context: ModuleContext) async throws {
        try await probe(context)
        try registerCalls(context)
    }
    func initialize(_ context: ModuleContext) async throws { try await probe(context) }
    func ready(_ context: ModuleContext) async throws { try await probe(context) }
    func background(_ context: ModuleContext) async throws { try await probe(context) }
    func foreground(_ context: ModuleContext) async throws { try await probe(context) }
    func reload(_ context: ModuleContext) async throws { try await probe(context) }
    func memoryWarning(_ context: ModuleContext) async throws { try await probe(context) }
    func custom(_ context: ModuleContext) async throws { try await probe(context) }
    func terminate(_ context: ModuleContext) async throws { try await probe(context) }
    func teardown(_ context: ModuleContext) async throws { try await probe(context) }
    func unmount(_ context: ModuleContext) async throws { try await probe(context) }
    func validateReload(_ context: ModuleContext) async throws { try await probe(context, hook: .validateReload) }

    /// Records the event (or, for `validateReload`, the hook), then stalls and fails as
    /// the settings say.
    private func probe(_ context: ModuleContext, hook: EventKind? = nil) async throws {
        let settings = context.settings
        let hook = hook ?? context.event.kind
        if let path = try settings.string("path") {
            try Self.append(Self.line(for: context, hook: hook), to: Self.resolve(path, in: context.stateDirectory))
        }
        context.logger.debug("\(context.customEventName.map { "received '\($0)'" } ?? "received")")
        let names = hook == .validateReload ? [hook.name] : Self.names(of: context.event)
        if let stalls = try settings.settings("stall_on") {
            for name in names {
                if let stall = try stalls.duration(name) {
                    context.logger.notice("stalling for \(stall) as told (stall_on)")
                    try? await Task.sleep(for: stall)
                }
            }
        }
        if let blocks = try settings.settings("block_on") {
            for name in names {
                if let block = try blocks.duration(name) {
                    context.logger.notice("blocking this thread for \(block) as told (block_on)")
                    Self.blockThread(for: block)
                }
            }
        }
        if let releases = try settings.settings("stall_until") {
            for name in names {
                if let release = try releases.string(name) {
                    context.logger.notice("stalling until \(release) exists as told (stall_until)")
                    await FileAppearance.wait(for: release)
                }
            }
        }
        if let failures = try settings.strings("fail_on"), names.contains(where: failures.contains) {
            throw Failure(description: "told to fail (fail_on)", errno: 0)
        }
    }

    /// Sleeps `duration` with `nanosleep`, holding the calling thread, whatever happens.
    static func blockThread(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }

    /// The names that select this event in `fail_on`/`stall_on`: `init`, or `custom` and
    /// `custom:NAME`.
    static func names(of event: HiveEvent) -> [String] {
        if case .custom(let name, _) = event { return ["custom", "custom:\(name)"] }
        return [event.kind.name]
    }

    /// `path`, or, when it is relative, `path` in `directory` (the state directory) if that
    /// is set.
    static func resolve(_ path: String, in directory: String?) -> String {
        guard !path.hasPrefix("/"), let directory, !directory.isEmpty else { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// The JSON line recording `context.event`, or the hook `hook` when it is no event
    /// (`validateReload`).
    static func line(for context: ModuleContext, hook: EventKind) -> String {
        var json = JSONLine()
        json.field("module", context.moduleName)
        json.field("event", hook.name)
        if let name = context.customEventName { json.field("name", name) }
        json.object("params", context.parameters)
        json.raw("ts", timestamp())
        return json.finished()
    }

    /// `CLOCK_REALTIME` as `SECONDS.MICROSECONDS`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return "\(now.tv_sec).\(String(now.tv_nsec / 1000).leftPadded(to: 6))"
    }

    /// Appends `line` with one `write` to a file opened `O_APPEND`, so concurrent
    /// writers never interleave within a line.
    static func append(_ line: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw Failure(description: "cannot open \(path): \(String(cString: strerror(code)))", errno: code)
        }
        defer { close(fd) }
        var line = line
        let written = line.withUTF8 { bytes in write(fd, bytes.baseAddress, bytes.count) }
        guard written >= 0 else {
            let code = errno
            throw Failure(description: "cannot write \(path): \(String(cString: strerror(code)))", errno: code)
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
