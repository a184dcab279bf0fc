import Foundation
import Testing

/// Memory pressure under systemd 252 as the packaged, hardened unit runs hived.
///
/// systemd 252 sets no `MEMORY_PRESSURE_WATCH`, so hived arms its own PSI trigger. Here
/// (cgroup v1 memory controller, read-only in the container) the service's
/// `memory.pressure` on the unified hierarchy exists but belongs to root, so the `hived`
/// user falls back to `/proc/pressure/memory`, which the unit leaves visible. No unit in
/// the container can be given `MemoryHigh=`/`MemoryMax=` (the memory controller is not
/// on the unified hierarchy and its v1 files are read-only), so a real stall of hived's
/// own cgroup cannot be provoked here; the FIFO and socket forms of the protocol are
/// tested at process level (MemoryPressureTests).
extension HivedUnderSystemdTests {
    @Test("as the hived user, hived arms a PSI trigger on /proc/pressure/memory (its cgroup's file belongs to root)")
    func armsTheSystemWidePsiTrigger() async throws {
        let hived = try hived
        try await hived.prepare(config: Self.config("""
              - name: frugal
                type: probe
                settings: {path: /var/lib/hived/frugal.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        var messages: [String] = []
        let armed = try await eventually(timeout: .seconds(15)) {
            messages = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
            return messages.contains { $0.hasPrefix("watching memory pressure: ") }
        }
        let line = messages.first { $0.hasPrefix("watching memory pressure: ") } ?? ""
        #expect(armed, "\(messages)")
        #expect(line.hasPrefix("watching memory pressure: /proc/pressure/memory with trigger 'some 200000 2000000'"), "\(line)")
        #expect(line.contains("/hived.service/memory.pressure: Permission denied") || !line.contains("("), "\(line)")
        // The trigger is the kernel's: the PSI file shows hived's open descriptor on it.
        let pid = try await hived.property("MainPID")
        let fds = try await hived.container.check(["sh", "-c", "ls -l /proc/\(pid)/fd"]).stdout
        #expect(fds.contains("/proc/pressure/memory"), "\(fds)")
    }
}
