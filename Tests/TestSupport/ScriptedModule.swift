import HiveKit

/// A module that records `name.event` for every hook and behaves as scripted.
public struct ScriptedModule: Module {
    /// Where it records its hooks.
    public let recorder: Recorder
    /// What it does per event besides recording it.
    public var behaviors: [EventKind: Behavior] = [:]
    /// Count concurrent hooks (for the "sync modules never overlap" test).
    public var tracksOverlap = false

    /// A module recording into `recorder`, behaving as `behaviors` say.
    public init(_ recorder: Recorder, _ behaviors: [EventKind: Behavior] = [:], tracksOverlap: Bool = false) {
        self.recorder = recorder
        self.behaviors = behaviors
        self.tracksOverlap = tracksOverlap
    }

    private func hook(_ context: ModuleContext) async throws {
        recorder.append("\(context.moduleName).\(context.event.kind)")
        if tracksOverlap { recorder.enter("\(context.event.kind)") }
        defer { if tracksOverlap { recorder.leave("\(context.event.kind)") } }
        switch behaviors[context.event.kind] {
        case nil: if tracksOverlap { await Task.yield(); try? await Task.sleep(for: .milliseconds(2)) }
        case .fail(let text)?: throw TestFailure(text)
        case .sleep(let duration)?: try await Task.sleep(for: duration)
        case .hang(let duration)?: await waitIgnoringCancellation(for: duration)
        case .run(let body)?: try await body(context)
        }
    }

    /// Records, then behaves as scripted.
    public func setup(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func initialize(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func ready(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func background(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func foreground(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func reload(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func memoryWarning(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func custom(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func terminate(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func teardown(_ context: ModuleContext) async throws { try await hook(context) }
    /// Records, then behaves as scripted.
    public func unmount(_ context: ModuleContext) async throws { try await hook(context) }
}
