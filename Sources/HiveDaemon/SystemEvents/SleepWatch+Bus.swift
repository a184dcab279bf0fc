import HiveKit
import Logging
#if canImport(Glibc)
import Glibc
#endif

extension SleepWatch {
    /// How long logind may take to answer `Inhibit`.
    static let callTimeout: Duration = .seconds(25)

    /// The watch's thread: connect, subscribe, ask for the lock, then serve the bus until
    /// it is lost or ``stop()``.
    func run(notice: @escaping Notice) {
        defer { finish() }
        let bus: SystemBus
        do {
            bus = try SystemBus.openSystem(description: who)
        } catch {
            logger.info("system sleep not followed: no system bus (\(error))")
            return
        }
        /// logind's unique name: the sender of the `Inhibit` reply, then of
        /// `NameOwnerChanged` when logind restarts.
        var logind: String?
        /// Set when logind refuses or is missing: the watch ends.
        var givenUp = false
        var granted = false

        func inhibit() throws(SystemdError) {
            try bus.call(
                Self.login1, path: Self.login1Path, interface: Self.manager, member: "Inhibit",
                arguments: ["sleep", who, Self.why, "delay"], timeout: Self.callTimeout
            ) { [self] reply in
                if let error = reply.error {
                    if granted {
                        logger.warning("logind refused a new delay lock after resume (\(error)); the next sleep will not wait for background")
                    } else {
                        logger.info("system sleep not followed: logind gave no delay lock (\(error))")
                        givenUp = true
                    }
                    return
                }
                guard let lock = reply.readFileDescriptor() else {
                    logger.warning("logind's Inhibit reply held no file descriptor")
                    return
                }
                if let sender = reply.sender { logind = sender }
                if !granted { logger.debug("holding a delay lock for sleep from logind (\(logind ?? "?"))") }
                granted = true
                hold(lock)
            }
        }

        do {
            let rule = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                + "member='NameOwnerChanged',arg0='\(Self.login1)'"
            try bus.addMatch(rule) { message in
                guard message.readString() == Self.login1, message.readString() != nil,
                    let owner = message.readString()
                else { return }
                logind = owner.isEmpty ? nil : owner
            }
            try bus.matchSignal(
                sender: Self.login1, path: Self.login1Path, interface: Self.manager, member: "PrepareForSleep"
            ) { [self] message in
                guard let sender = message.sender, sender == logind else {
                    logger.debug("ignored PrepareForSleep from \(message.sender ?? "?"): logind is \(logind ?? "unknown")")
                    return
                }
                guard let entering = message.readBool() else { return }
                prepareForSleep(entering)
                notice(entering)
                if !entering {
                    do { try inhibit() } catch { logger.warning("cannot ask logind for a new delay lock: \(error)") }
                }
            }
            try inhibit()
        } catch {
            logger.info("system sleep not followed: \(error)")
            return
        }
        serve(bus, givenUp: { givenUp })
    }

    /// Polls the bus and the wakeup until the watch gives up, the bus is lost or
    /// ``stop()``.
    private func serve(_ bus: SystemBus, givenUp: () -> Bool) {
        while !isStopped {
            do {
                try bus.process()
            } catch {
                logger.info("system sleep no longer followed: lost the system bus (\(error))")
                return
            }
            if givenUp() { return }
            var fds = [pollfd(fd: bus.fileDescriptor, events: bus.pollEvents, revents: 0)]
            if let wakeup = wakeupDescriptor { fds.append(pollfd(fd: wakeup, events: Int16(POLLIN), revents: 0)) }
            let result = poll(&fds, nfds_t(fds.count), Self.milliseconds(until: bus.timeout))
            if result < 0 && errno != EINTR {
                logger.warning("system sleep no longer followed: poll failed (errno \(errno))")
                return
            }
            if fds.count > 1, fds[1].revents != 0 { drainWakeup() }
        }
    }

    /// `poll(2)`'s timeout for a `CLOCK_MONOTONIC` deadline in nanoseconds: -1 for none,
    /// rounded up to whole milliseconds.
    static func milliseconds(until deadline: UInt64?) -> Int32 {
        guard let deadline else { return -1 }
        let now = MonotonicClock.nanoseconds()
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }
}
