import FoundationEssentials
import HiveKit

/// How `ctl` prints replies for people.
enum CtlText {
    static func status(_ status: DaemonAPI.Status) -> String {
        let active = status.modules.count { $0.state == "active" }
        var lines = [
            "● \(status.name) \(status.version), pid \(status.pid)",
            "   phase: \(status.phase), up \(duration(status.uptimeMicroseconds))",
            " modules: \(status.modules.count) (\(active) active)",
        ]
        let rows = status.modules.map { module in
            [module.name, module.type ?? "(code)", module.level, "\(module.priority)", module.isAsync ? "async" : "sync", module.state]
        }
        lines += table(rows, indent: "   ")
        for stall in status.stalled {
            lines.append(
                " stalled: \(stall.module) in \(stall.event) for \(duration(stall.elapsedMicroseconds)) (budget \(duration(stall.budgetMicroseconds)))")
        }
        return lines.joined(separator: "\n")
    }

    static func blame(_ profile: DaemonAPI.Profile) -> String {
        let rows = profile.blame.map { timing in
            var what = "\(timing.module).\(timing.event)"
            var notes: [String] = []
            if timing.calls != 1 { notes.append("\(timing.calls) calls, longest \(duration(timing.longestMicroseconds))") }
            if timing.failures > 0 { notes.append("\(timing.failures) failed") }
            if !notes.isEmpty { what += " (\(notes.joined(separator: ", ")))" }
            return [duration(timing.totalMicroseconds), what]
        }
        return table(rows, rightAligned: [0]).joined(separator: "\n")
    }

    static func profile(_ profile: DaemonAPI.Profile) -> String {
        func rows(_ timings: [DaemonAPI.Timing]) -> [String] {
            table(timings.map { [$0.event, $0.module, duration($0.totalMicroseconds), $0.failures > 0 ? "failed" : ""] }, indent: "  ")
        }
        let total = profile.criticalPath.reduce(0) { $0 + $1.totalMicroseconds }
        return (["start-up calls, in the order they ran:"] + rows(profile.startup)
            + ["critical path (\(duration(total))):"] + rows(profile.criticalPath)).joined(separator: "\n")
    }

    static func events(_ profile: DaemonAPI.Profile) -> String {
        var order: [String] = []
        var totals: [String: (calls: Int, micros: Int, failures: Int)] = [:]
        for timing in profile.blame {
            if totals[timing.event] == nil { order.append(timing.event) }
            let old = totals[timing.event] ?? (0, 0, 0)
            totals[timing.event] = (old.calls + timing.calls, old.micros + timing.totalMicroseconds, old.failures + timing.failures)
        }
        let rows = EventKind.allCases.map(\.name).filter { totals[$0] != nil }.map { event in
            let total = totals[event]!
            return [event, "\(total.calls) handler call\(total.calls == 1 ? "" : "s")", duration(total.micros),
                total.failures > 0 ? "\(total.failures) failed" : ""]
        }
        return table([["EVENT", "CALLS", "TIME", ""]] + rows).joined(separator: "\n")
    }

    static func notice(_ notice: DaemonAPI.Notice) -> String {
        let event = notice.name.map { "custom:\($0)" } ?? notice.event
        let time = notice.durationMicroseconds.map { " \(duration($0))" } ?? ""
        let failed = notice.failed == true ? " FAILED" : ""
        if let module = notice.module { return "  \(module).\(event)\(time)\(failed)" }
        return "\(event) delivered\(time)\(failed) [\(notice.phase)]"
    }

    static func delivery(_ delivery: DaemonAPI.Delivery, name: String) -> String {
        var lines = ["custom:\(name) delivered to \(delivery.delivered) module\(delivery.delivered == 1 ? "" : "s")"]
        for failure in delivery.failures { lines.append("  failed: module '\(failure.module)' (\(failure.event)): \(failure.message)") }
        return lines.joined(separator: "\n")
    }

    static func reload(_ result: DaemonAPI.ReloadResult) -> String {
        var parts = ["reloaded \(result.reloaded) module\(result.reloaded == 1 ? "" : "s")"]
        if !result.added.isEmpty { parts.append("added \(result.added.joined(separator: ", "))") }
        if !result.removed.isEmpty { parts.append("removed \(result.removed.joined(separator: ", "))") }
        if !result.changed.isEmpty { parts.append("changed \(result.changed.joined(separator: ", "))") }
        return parts.joined(separator: "; ")
    }

    static func routes(_ routes: DaemonAPI.Routes) -> String {
        table([["PATTERN", "SCHEME", "PRIORITY", "OWNER", "EXPORTED"]] + routes.routes.map {
            [$0.pattern, $0.scheme ?? "(global)", "\($0.priority)", $0.owner ?? "-", $0.exported ? "yes" : "no"]
        })
            .joined(separator: "\n")
    }

    static func actions(_ actions: DaemonAPI.Actions) -> String {
        table([["TARGET", "ACTION", "OWNER", "URLS", "EXPORTED"]] + actions.actions.map {
            [$0.target, $0.action, $0.owner, $0.acceptsURLs ? "yes" : "no", $0.exported ? "yes" : "no"]
        })
            .joined(separator: "\n")
    }

    /// `OpenURL`'s reply when a route handled the URL: its result, if it has one.
    static func opened(_ result: DaemonAPI.OpenURLResult, url: String) -> String {
        guard result.handled else { return "" }
        return result.result?.printed ?? "\(url): handled"
    }

    static func services(_ services: DaemonAPI.Services) -> String {
        table([["SERVICE", "NAME", "LIFETIME", "IMPLEMENTATION", "OWNER"]] + services.services.map {
            [$0.service, $0.name ?? "-", $0.lifetime, $0.implementation ?? "-", $0.owner ?? "-"]
        }).joined(separator: "\n")
    }

    /// An error reply as a line: `FILE:LINE: message` for an invalid configuration.
    /// `error` is the reply's error as the interface defines it (`nil`: one it does not
    /// define); `name` and `parameters` are what the reply said.
    static func error(_ error: VarlinkError?, name: String, parameters: VarlinkError.Parameters, path: String) -> String {
        switch error {
        case .configurationInvalid(let file, let line, let message):
            return "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
        case .reloadFailed(let module, let event, let message):
            return "reload failed: \(module.isEmpty ? "" : "module '\(module)' (\(event)): ")\(message)"
        case .permissionDenied:
            return "\(path): permission denied: only root, the daemon's user and members of control.group may use it"
        case .invalidParameter(let parameter):
            return "invalid parameter: \(parameter)"
        case .limitExceeded(_, _, let message):
            return "over the limit: \(message)"
        case .unavailable(let message):
            return "\(path): the daemon turned the connection away: \(message); try again"
        case .notFound(let message):
            return "not found: \(message)"
        case .notExported(let message):
            return "not exported: \(message)"
        case .callFailed(let module, let message):
            return "failed: \(module.map { "module '\($0)': " } ?? "")\(message)"
        case .interfaceNotFound, .methodNotFound, .expectedMore, .eventRefused, nil:
            let detail = parameters.message ?? parameters.method ?? parameters.interface ?? ""
            return "\(path): \(name)\(detail.isEmpty ? "" : ": \(detail)")"
        }
    }

    /// `850µs`, `12.5ms`, `3.2s`, `4m 12s`, `2h 5m`.
    static func duration(_ microseconds: Int) -> String {
        let seconds = microseconds / 1_000_000
        if seconds >= 3600 { return "\(seconds / 3600)h \(seconds % 3600 / 60)m" }
        if seconds >= 60 { return "\(seconds / 60)m \(seconds % 60)s" }
        return Duration.microseconds(microseconds).shortDescription
    }

    /// Rows as columns padded to their widest cell.
    static func table(_ rows: [[String]], indent: String = "", rightAligned: Set<Int> = []) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            let cells = row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? padding + cell : cell + (index == row.count - 1 ? "" : padding)
            }
            return indent + cells.joined(separator: "  ")
        }.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
    }
}
