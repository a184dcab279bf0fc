/// The parameters and replies of `io.hivekit.Daemon`, as JSON objects: what the daemon
/// encodes and `ctl` decodes. Field names are the interface's (see
/// ``DaemonInterface/description``); fields may be added, never renamed.
enum DaemonAPI {
    /// No parameters, or an empty reply.
    struct Empty: Codable, Sendable {}

    /// A registered module.
    struct Module: Codable, Sendable {
        let name: String
        let type: String?
        let level: String
        let priority: Int
        let isAsync: Bool
        let state: String

        enum CodingKeys: String, CodingKey {
            case name, type, level, priority, isAsync = "async", state
        }
    }

    /// A hook running past its budget.
    struct Stall: Codable, Sendable {
        let module: String
        let event: String
        let elapsedMicroseconds: Int
        let budgetMicroseconds: Int

        enum CodingKeys: String, CodingKey {
            case module, event, elapsedMicroseconds = "elapsed_usec", budgetMicroseconds = "budget_usec"
        }
    }

    /// `GetStatus`.
    struct Status: Codable, Sendable {
        let name: String
        let version: String
        let pid: Int
        let phase: String
        let uptimeMicroseconds: Int
        let modules: [Module]
        let stalled: [Stall]

        enum CodingKeys: String, CodingKey {
            case name, version, pid, phase, uptimeMicroseconds = "uptime_usec", modules, stalled
        }
    }

    /// The profiler's figures for one module and event.
    struct Timing: Codable, Sendable {
        let module: String
        let event: String
        let calls: Int
        let totalMicroseconds: Int
        let longestMicroseconds: Int
        let failures: Int

        enum CodingKeys: String, CodingKey {
            case module, event, calls, totalMicroseconds = "total_usec", longestMicroseconds = "longest_usec", failures
        }
    }

    /// `GetProfile`.
    struct Profile: Codable, Sendable {
        let startup: [Timing]
        let blame: [Timing]
        let criticalPath: [Timing]

        enum CodingKeys: String, CodingKey {
            case startup, blame, criticalPath = "critical_path"
        }
    }

    /// `SendEvent`'s parameters.
    struct SendEventParameters: Codable, Sendable {
        let name: String
        let parameters: [String: String]?
    }

    /// A hook that threw or was abandoned.
    struct Failure: Codable, Sendable {
        let module: String
        let event: String
        let message: String
    }

    /// `SendEvent`'s reply.
    struct Delivery: Codable, Sendable {
        let delivered: Int
        let failures: [Failure]
    }

    /// `Reload`'s reply.
    struct ReloadResult: Codable, Sendable {
        let added: [String]
        let removed: [String]
        let changed: [String]
        let reloaded: Int
    }

    /// `SetLogLevel`'s parameters.
    struct LogLevel: Codable, Sendable {
        let level: String
    }

    /// A registered route.
    struct Route: Codable, Sendable {
        let pattern: String
        let priority: Int
        let owner: String?
        let scheme: String?
        let exported: Bool
    }

    /// `ListRoutes`.
    struct Routes: Codable, Sendable {
        let routes: [Route]
    }

    /// A registered action.
    struct Action: Codable, Sendable {
        let target: String
        let action: String
        let owner: String
        let acceptsURLs: Bool
        let exported: Bool

        enum CodingKeys: String, CodingKey {
            case target, action, owner, acceptsURLs = "urls", exported
        }
    }

    /// `ListActions`.
    struct Actions: Codable, Sendable {
        let actions: [Action]
    }

    /// `OpenURL`'s parameters.
    struct OpenURLParameters: Codable, Sendable {
        let url: String
        let parameters: [String: String]?
    }

    /// `OpenURL`'s reply.
    struct OpenURLResult: Codable, Sendable {
        let handled: Bool
        let result: JSONValue?
    }

    /// `PerformAction`'s parameters.
    struct PerformActionParameters: Codable, Sendable {
        let target: String
        let action: String
        let parameters: [String: String]?
    }

    /// `PerformAction`'s reply.
    struct PerformActionResult: Codable, Sendable {
        let result: JSONValue?
    }

    /// A registered service.
    struct Service: Codable, Sendable {
        let service: String
        let name: String?
        let lifetime: String
        let owner: String?
        let implementation: String?
    }

    /// `ListServices`.
    struct Services: Codable, Sendable {
        let services: [Service]
    }

    /// One `Subscribe` reply: a delivered event (no `module`) or one handler's outcome.
    struct Notice: Codable, Sendable {
        let event: String
        let name: String?
        let module: String?
        let phase: String
        let durationMicroseconds: Int?
        let failed: Bool?

        enum CodingKeys: String, CodingKey {
            case event, name, module, phase, durationMicroseconds = "duration_usec", failed
        }
    }

    /// `GetMetrics`.
    struct Metrics: Codable, Sendable {
        let text: String
    }

    /// `org.varlink.service.GetInfo`.
    struct Info: Codable, Sendable {
        let vendor: String
        let product: String
        let version: String
        let url: String
        let interfaces: [String]
    }

    /// `org.varlink.service.GetInterfaceDescription`'s parameters.
    struct InterfaceName: Codable, Sendable {
        let interface: String
    }

    /// `org.varlink.service.GetInterfaceDescription`'s reply.
    struct InterfaceDescription: Codable, Sendable {
        let description: String
    }
}
