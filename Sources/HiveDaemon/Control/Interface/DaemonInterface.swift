/// The Varlink interfaces the control socket serves, as their descriptions
/// (`org.varlink.service.GetInterfaceDescription` returns these texts).
enum DaemonInterface {
    /// `io.hivekit.Daemon`.
    static let name = "io.hivekit.Daemon"

    /// `org.varlink.service`, which every Varlink service implements.
    static let serviceName = "org.varlink.service"

    /// The description of `io.hivekit.Daemon`; HiveDaemon's article on the control interface
    /// quotes it.
    static let description = """
        # The control interface of a daemon built on HiveKit (hived or your own): its modules and
        # their state, the time profiler, custom events, reloads, the log level, what
        # modules offer each other and the routes and actions they export, a stream of
        # events, and metrics.
        interface io.hivekit.Daemon

        # A registered module, in start order.
        type Module (
          name: string,
          # The catalog type that built it; null for a module registered in code.
          type: ?string,
          # basic or normal.
          level: string,
          priority: int,
          async: bool,
          # registered, setUp, active, failed or tornDown.
          state: string
        )

        # A hook running past its time budget.
        type Stall (module: string, event: string, elapsed_usec: int, budget_usec: int)

        # The time profiler's figures for one module and event.
        type Timing (
          module: string,
          event: string,
          calls: int,
          total_usec: int,
          longest_usec: int,
          failures: int
        )

        # A hook that threw or was abandoned.
        type Failure (module: string, event: string, message: string)

        # A route; owner is the module that registered it (null: the daemon itself);
        # scheme is its table's (null: the global table); exported says whether
        # OpenURL may reach it.
        type Route (
          pattern: string,
          priority: int,
          owner: ?string,
          scheme: ?string,
          exported: bool
        )

        # An action; its target is the module that registered it, or one of its target
        # types (module.Target); urls says whether a URL may perform it, exported
        # whether PerformAction may.
        type Action (target: string, action: string, owner: string, urls: bool, exported: bool)

        # A service registration; lifetime is singleton or transient; implementation is
        # the catalog name it came from (null: a factory registered in code).
        type Service (
          service: string,
          name: ?string,
          lifetime: string,
          owner: ?string,
          implementation: ?string
        )

        # The daemon and its modules. phase is the hive's: created, starting,
        # initialized, running, suspended, terminating, stopped or failed.
        method GetStatus() -> (
          name: string,
          version: string,
          pid: int,
          phase: string,
          uptime_usec: int,
          modules: []Module,
          stalled: []Stall
        )

        # Start-up calls in the order they ran, every (module, event) by time spent
        # (longest first), and the calls start-up waited for.
        method GetProfile() -> (startup: []Timing, blame: []Timing, critical_path: []Timing)

        # Delivers custom(name, parameters) to every module; answers once all handled it.
        # name: 1 to 255 bytes; parameters: at most 64, of at most 16384 bytes in all
        # (keys and values), else LimitExceeded.
        method SendEvent(name: string, parameters: ?[string]string) -> (
          delivered: int,
          failures: []Failure
        )

        # Re-reads and applies the configuration file, as SIGHUP does (same
        # notifications to systemd); answers once the reload is done.
        method Reload() -> (added: []string, removed: []string, changed: []string, reloaded: int)

        # Sets the log level: trace, debug, info, notice, warning, error or critical.
        method SetLogLevel(level: string) -> ()

        # What modules registered, with the owner module.
        method ListRoutes() -> (routes: []Route)
        method ListActions() -> (actions: []Action)
        method ListServices() -> (services: []Service)

        # Call with more: one reply per handler outcome and, once its handlers'
        # replies are sent, one per delivered event (module is null), also for events
        # delivered only to modules joining or leaving; during a reload the reload
        # event's reply comes last. Until the client hangs up; a client that falls
        # 4096 replies behind is dropped. Names in replies are cut at 255 bytes.
        method Subscribe() -> (
          event: string,
          name: ?string,
          module: ?string,
          phase: string,
          duration_usec: ?int,
          failed: ?bool
        )

        # The daemon's metrics in the Prometheus text format.
        method GetMetrics() -> (text: string)

        # Opens url as a module's call would, on a task of its own (it waits behind no
        # event), trying only exported routes; parameters reach the handler beside the
        # URL's own. handled is false when every matching exported route declined;
        # result is what a producing route returned (strings, numbers, booleans, arrays,
        # maps). Past the event budget the call fails and its task is cancelled.
        method OpenURL(url: string, parameters: ?[string]string) -> (handled: bool, result: ?object)

        # Performs action of target (a module, or module.Target) if it is exported, as
        # OpenURL runs a route; result is what the action returned.
        method PerformAction(target: string, action: string, parameters: ?[string]string) -> (
          result: ?object
        )

        # The configuration file is invalid; nothing changed.
        error ConfigurationInvalid (file: string, line: ?int, message: string)

        # The reload was aborted while it was prepared (an added module's setup or
        # init failed, or a kept module refused its new settings); nothing changed.
        error ReloadFailed (module: string, event: string, message: string)

        # The hive does not take the event or call now (it is stopping, or has not
        # started); event names the event, or OpenURL or PerformAction.
        error EventRefused (event: string, message: string)

        # No route matches the URL; there is no such target or action.
        error NotFound (message: string)

        # The route or action exists but is not exported: only the daemon's own modules
        # may call it.
        error NotExported (message: string)

        # The handler threw (message is its error), ran past the event budget, or
        # returned what JSON cannot carry; module is the handler's.
        error CallFailed (module: ?string, message: string)

        # The caller is not root, the daemon's user or a member of control.group.
        error PermissionDenied ()

        # A parameter is over its limit (limit: in bytes, or a count); nothing was done.
        error LimitExceeded (parameter: string, limit: int, message: string)

        # The connection was turned away before any call was read, and closed: every
        # client slot is taken, or the daemon is out of file descriptors. Nothing was done.
        error Unavailable (message: string)

        """

    /// The description of `org.varlink.service`.
    static let serviceDescription = """
        # The Varlink service interface: every Varlink service implements it.
        interface org.varlink.service

        # The service and the interfaces it implements.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # The description of an interface the service implements.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found.
        error MethodNotFound (method: string)

        # The interface defines the method, but the service does not implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # The caller may not call this method.
        error PermissionDenied ()

        # The method must be called with more: true.
        error ExpectedMore ()

        """
}
