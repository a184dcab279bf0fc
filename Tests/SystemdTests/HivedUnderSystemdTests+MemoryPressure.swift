import Foundation
import TestSupport
import Testing

/// Memory pressure under systemd 252 as the packaged, hardened unit runs hived.
///
/// systemd 252 sets no `MEMORY_PRESSURE_WATCH`, so hived arms its own PSI trigger. Here
/// (cgroup v1 memory controller, read-only in the container) the service's
/// `memory.pressure` on the unified hierarchy exists but belongs to root, so the `hived`
/// user falls back to `/proc/pressure/memory`, which the unit leaves visible. No unit in
/// the container can be given `MemoryHigh=`/`MemoryMax=` (the memory controller is not
/// on the unified hierarchy and its v1 files are read-only), so hived's own cgroup cannot
/// be made to stall; but `/proc/pressure/memory` counts every task on the machine, so a
/// stall made outside the container (``MemoryThrasher``) is a real PSI event for the
/// packaged hived. The FIFO and socket forms of the protocol are tested at process level
/// (MemoryPressureTests). systemd 257 hands hived a watch of its own
/// (HivedUnderSystemdTests+MemoryPressureWatch.swift).
extension HivedUnderSystemdTests {
    @Test("as the hived user, hived arms a PSI trigger on /proc/pressure/memory (its cgroup's file belongs to root)",
          arguments: SystemdRelease.legacy)
    func armsTheSystemWidePsiTrigger(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.config("""
              - name: frugal
                type: probe
                settings: {path: /var/lib/hived/frugal.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        var messages: [String] = []
        let armed = try await eventually(timeout: .seconds(15), every: .systemctl) {
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

    @Test("real memory pressure: the kernel's PSI trigger fires and every module gets memoryWarning with source psi and some_avg10",
          arguments: SystemdRelease.legacy)
    func realPressureGivesAMemoryWarning(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: """
            environment: testing
            log: {level: debug, target: auto}
            budgets: {event: 10s, stop: 30s}
            memory_pressure: {threshold: 20ms, window: 2s, interval: 2s}
            modules:
              - name: thrifty
                type: probe
                settings: {path: /var/lib/hived/pressure.jsonl}
              - name: spender
                type: probe
                async: true
                settings: {path: /var/lib/hived/pressure.jsonl}
            """)
        #expect(try await hived.systemctl("start").status == 0)
        let invocation = try await hived.property("InvocationID")
        let armed = try await eventually(timeout: .seconds(15), every: .systemctl) {
            try await hived.container.journal(invocation: invocation).contains {
                ($0["MESSAGE"] ?? "").hasPrefix("watching memory pressure: /proc/pressure/memory with trigger 'some 20000 2000000'")
            }
        }
        #expect(armed, "hived armed its trigger (20 ms of stall in a 2 s window, as the hived user may)")

        let thrasher = try await MemoryThrasher()
        var warned = false
        var failure: (any Error)?
        do {
            warned = try await eventually(timeout: .seconds(60), every: .systemctl) {
                try hived.probe("pressure").filter { $0.event == "memoryWarning" }.count >= 2
            }
        } catch { failure = error }
        let pressure = (try? String(contentsOfFile: "/proc/pressure/memory", encoding: .utf8)) ?? ""
        try await thrasher.stop()
        if let failure { throw failure }

        let warnings = try hived.probe("pressure").filter { $0.event == "memoryWarning" }
        #expect(warned, "no memoryWarning while the machine stalled on memory: \(pressure)")
        #expect(Set(warnings.map(\.module)) == ["thrifty", "spender"], "\(warnings)")
        #expect(warnings.allSatisfy { $0.params["source"] == "psi" && Double($0.params["some_avg10"] ?? "") != nil },
                "\(warnings.map(\.params))")
        let log = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
        #expect(log.contains { $0.hasPrefix("memory pressure: memoryWarning (some avg10=") }, "\(log)")
    }
}
