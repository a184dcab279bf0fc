import HiveKit

extension HiveDaemon {
    /// Handles one request on the event loop (running, or reloading for a reload).
    func handle(_ request: DaemonRequest, hive: Hive) async {
        switch request {
        case .reload(let callers):
            await reload(hive, answering: callers)
        case .suspend:
            await setSuspended(true, by: .signal, hive: hive)
        case .resume:
            await setSuspended(false, by: .signal, hive: hive)
        case .sleep(let entering):
            await followSleep(entering: entering, hive: hive)
        case .memoryPressure(let someAvg10):
            await warnOfMemoryPressure(someAvg10: someAvg10, hive: hive)
        case .event(let event, .signal(let signal)):
            logger.debug("\(SignalName.name(of: signal)) fires \(event)")
            await deliver(event, to: hive)
        case .event(let event, .control(let caller)):
            await deliver(event, answering: caller, hive: hive)
        }
    }

    /// Delivers a control `SendEvent`'s event and answers how it went: how many modules
    /// received it and which failed, or `EventRefused`.
    private func deliver(_ event: HiveEvent, answering caller: ControlCaller, hive: Hive) async {
        do {
            let report = try await hive.send(event)
            let failures = report.failures.map { failure in
                DaemonAPI.Failure(
                    module: failure.module ?? "", event: failure.event?.description ?? "\(event)",
                    message: failure.message)
            }
            caller.reply(VarlinkCoding.reply(DaemonAPI.Delivery(delivered: report.delivered, failures: failures)))
        } catch {
            caller.reply(VarlinkError.eventRefused(event: "\(event)", message: error.message).encoded)
        }
    }
}
