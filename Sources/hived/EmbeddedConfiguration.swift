/// The configuration a bare `hived` runs when no file is given and
/// /etc/hived/hived.yaml does not exist: demo modules that log what they receive.
enum EmbeddedConfiguration {
    static let yaml = """
        # hived's embedded default: demo modules that show the lifecycle in the log.
        # Try: kill -HUP (reload), -TSTP / -CONT (background / foreground),
        # -USR1 (custom:stats: the reporter resolves a service and performs an action),
        # -USR2 (custom:rotate: it opens a route), -TERM (stop). With a control socket:
        # hived ctl open hive://heartbeat/status, hived ctl perform heartbeat beats (both
        # exported below); heartbeat's reset route and action stay private to the daemon.
        environment: development
        log: {level: info, target: auto}
        budgets: {event: 5s, stop: 30s}
        signals: {SIGUSR1: "custom:stats", SIGUSR2: "custom:rotate"}
        modules:
          - name: config
            type: echo
            level: basic
            priority: 100
            settings: {message: "basic level, priority 100: first up, last down"}
          - name: heartbeat
            type: heartbeat
            async: true
            settings: {interval: 5s}
            export: {routes: ["hive://heartbeat/status"], actions: [beats]}
          - name: api
            type: echo
            priority: 10
            settings: {message: "normal level, priority 10"}
          - name: reporter
            type: reporter
        services:
          - {service: WallClock, implementation: SystemClock}
        """
}
