import Foundation
import TestSupport
import Testing

/// `MemoryPressureWatch=` under systemd 257, as the packaged unit runs hived (the setting left
/// at `auto`).
///
/// With cgroup v2 systemd sets `MEMORY_PRESSURE_WATCH` to the service's own
/// `memory.pressure`, hands the file to the service's user and keeps it writable under
/// `ProtectControlGroups=`, and `MEMORY_PRESSURE_WRITE` to the trigger its
/// `MemoryPressureThresholdSec=` makes; hived arms exactly that. The container's cgroup v2
/// hierarchy has no memory controller on this machine (its v1 memory controller is the
/// machine's), so no `MemoryHigh=` can make hived itself stall; instead ``MemoryThrasher``,
/// limited by a v1 memory cgroup, runs its loop inside hived.service's cgroup v2 directory,
/// where the kernel charges its stalls to that `memory.pressure`.
extension HivedUnderSystemdTests {
    @Test("MemoryPressureWatch=: hived watches the memory.pressure file systemd names in MEMORY_PRESSURE_WATCH, as systemd writes it",
          arguments: SystemdRelease.modern)
    func watchesWhatSystemdGives(release: SystemdRelease) async throws {
        let hived = try hived(release)
        try await hived.prepare(config: Self.config("""
              - name: frugal
                type: probe
                settings: {path: /var/lib/hived/frugal.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)
        let pid = try await hived.property("MainPID")
        let environment = try await hived.environment(of: pid)
        let watch = environment["MEMORY_PRESSURE_WATCH"] ?? ""
        #expect(watch == "/sys/fs/cgroup/system.slice/hived.service/memory.pressure", "\(environment)")
        // systemd's default MemoryPressureThresholdSec=: 200 ms of stall in a 2 s window.
        let write = Data(base64Encoded: environment["MEMORY_PRESSURE_WRITE"] ?? "").map { String(decoding: $0, as: UTF8.self) }
        #expect(write == "some 200000 2000000\0", "\(environment)")

        let invocation = try await hived.property("InvocationID")
        var messages: [String] = []
        let armed = try await eventually(timeout: .seconds(15), every: .systemctl) {
            messages = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
            return messages.contains { $0.hasPrefix("watching memory pressure: ") }
        }
        #expect(armed, "\(messages)")
        // The path systemd gave, nothing tried before it, no trigger of hived's own.
        #expect(messages.contains("watching memory pressure: \(watch)"), "\(messages)")
        let owner = try await hived.container.exec(["stat", "-c", "%U", watch])
        #expect(owner.output == "hived", "systemd hands the file to the service's user: \(owner)")
        let fds = try await hived.container.check(["sh", "-c", "ls -l /proc/\(pid)/fd"]).stdout
        #expect(fds.contains(watch), "hived holds the trigger open:\n\(fds)")
    }

    @Test("MemoryPressureWatch=: real pressure in hived's own cgroup reaches every module as memoryWarning, at systemd's MemoryPressureThresholdSec=",
          arguments: SystemdRelease.modern)
    func pressureInItsOwnCgroupWarns(release: SystemdRelease) async throws {
        let hived = try hived(release)
        // The machine-wide stall the thrasher makes (about 60 ms a second) stays under the
        // default 200 ms in 2 s; systemd's threshold, not hived's configuration, decides.
        try await withDropIn(hived, "[Service]\nMemoryPressureThresholdSec=20ms\n") {
            try await hived.prepare(config: """
                environment: testing
                log: {level: debug, target: auto}
                budgets: {event: 10s, stop: 30s}
                memory_pressure: {threshold: 1s, window: 2s, interval: 2s}
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
            let pid = try await hived.property("MainPID")
            let write = try await hived.environment(of: pid)["MEMORY_PRESSURE_WRITE"]
                .flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) }
            #expect(write == "some 20000 2000000\0", "the drop-in's threshold: \(write ?? "none")")
            let cgroup = try #require(try await hived.container.hostCgroup(of: HivedFixture.unit))

            let thrasher = try await MemoryThrasher(joining: cgroup)
            var warned = false
            var failure: (any Error)?
            do {
                warned = try await eventually(timeout: .seconds(60), every: .systemctl) {
                    try hived.probe("pressure").filter { $0.event == "memoryWarning" }.count >= 2
                }
            } catch { failure = error }
            let pressure = (try? String(contentsOfFile: cgroup + "/memory.pressure", encoding: .utf8)) ?? ""
            try await thrasher.stop()
            if let failure { throw failure }

            let warnings = try hived.probe("pressure").filter { $0.event == "memoryWarning" }
            #expect(warned, "no memoryWarning while hived's cgroup stalled on memory: \(pressure)")
            #expect(Set(warnings.map(\.module)) == ["thrifty", "spender"], "\(warnings)")
            #expect(warnings.allSatisfy { $0.params["source"] == "psi" && Double($0.params["some_avg10"] ?? "") != nil },
                    "\(warnings.map(\.params))")
            let invocation = try await hived.property("InvocationID")
            let log = try await hived.container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
            #expect(log.contains { $0.hasPrefix("memory pressure: memoryWarning (some avg10=") }, "\(log)")
        }
    }
}
