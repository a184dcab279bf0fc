import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// A connection to the system bus through sd-bus: the only caller of sd-bus in hived.
///
/// sd-bus objects are not thread-safe, so a `SystemBus` belongs to the one thread that
/// opened it (``SleepWatch``'s). Nothing here blocks: method calls are asynchronous and
/// their replies, like matched signals, reach their handlers from ``process()``, which
/// the owning thread calls when ``fileDescriptor`` is ready (`poll(2)` on
/// ``pollEvents``) or ``timeout`` passed.
final class SystemBus {
    /// A message handed to a handler; valid only while the handler runs.
    struct Message {
        fileprivate let pointer: OpaquePointer

        /// The unique name (`:1.4`) of the connection that sent the message. Wraps
        /// `sd_bus_message_get_sender`.
        var sender: String? { sd_bus_message_get_sender(pointer).map { String(cString: $0) } }

        /// `Name: message` when the message is an error reply, else `nil`. Wraps
        /// `sd_bus_message_get_error`.
        var error: String? {
            guard let error = sd_bus_message_get_error(pointer), sd_bus_error_is_set(error) != 0 else { return nil }
            let name = error.pointee.name.map { String(cString: $0) } ?? "error"
            return error.pointee.message.map { "\(name): \(String(cString: $0))" } ?? name
        }

        /// The next argument as a boolean (`b`). Wraps `sd_bus_message_read_basic`.
        func readBool() -> Bool? {
            var value: Int32 = 0
            return sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "b")), &value) > 0 ? value != 0 : nil
        }

        /// The next argument as a string (`s`). Wraps `sd_bus_message_read_basic`.
        func readString() -> String? {
            var value: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "s")), &value) > 0, let value else { return nil }
            return String(cString: value)
        }

        /// The next argument, a file descriptor (`h`), duplicated (close-on-exec) so it
        /// outlives the message; the caller owns it. Wraps `sd_bus_message_read_basic`.
        func readFileDescriptor() -> Int32? {
            var value: Int32 = -1
            guard sd_bus_message_read_basic(pointer, CChar(UInt8(ascii: "h")), &value) > 0, value >= 0 else {
                return nil
            }
            let copy = fcntl(value, F_DUPFD_CLOEXEC, 3)
            return copy >= 0 ? copy : nil
        }
    }

    /// What a handler is given: the message (a signal, a reply or an error reply).
    typealias Handler = (Message) -> Void

    /// A handler kept alive for as long as sd-bus may call it.
    private final class HandlerBox {
        let handler: Handler
        let once: Bool
        init(_ handler: @escaping Handler, once: Bool) {
            self.handler = handler
            self.once = once
        }
    }

    private let bus: OpaquePointer
    /// Handlers of signal matches: they live as long as the connection.
    private var matches: [HandlerBox] = []

    private init(bus: OpaquePointer) {
        self.bus = bus
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else
    /// `/run/dbus/system_bus_socket`) under `description`; the handshake continues in
    /// ``process()``. Wraps `sd_bus_open_system_with_description`.
    static func openSystem(description: String) throws(SystemdError) -> SystemBus {
        var bus: OpaquePointer?
        try SystemdError.check(sd_bus_open_system_with_description(&bus, description), "sd_bus_open_system")
        guard let bus else { throw SystemdError(function: "sd_bus_open_system", errno: ENOMEM) }
        return SystemBus(bus: bus)
    }

    /// Closes the connection without flushing what is still queued (that could wait on the
    /// bus). Wraps `sd_bus_close_unref`.
    deinit {
        sd_bus_close_unref(bus)
    }

    /// The connection's socket. Wraps `sd_bus_get_fd`.
    var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// The `poll(2)` events to wait for on ``fileDescriptor``. Wraps `sd_bus_get_events`.
    var pollEvents: Int16 {
        let events = sd_bus_get_events(bus)
        return events > 0 ? Int16(truncatingIfNeeded: events) : Int16(POLLIN)
    }

    /// When sd-bus wants ``process()`` called even without input (a method call timing
    /// out), in `CLOCK_MONOTONIC` nanoseconds; `nil` for never. Wraps `sd_bus_get_timeout`.
    var timeout: UInt64? {
        var usec: UInt64 = 0
        guard sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else { return nil }
        return usec.multipliedReportingOverflow(by: 1000).overflow ? nil : usec * 1000
    }

    /// Reads and dispatches everything pending, calling handlers; returns when nothing is
    /// left. Throws when the connection is lost. Wraps `sd_bus_process`.
    func process() throws(SystemdError) {
        while try SystemdError.check(sd_bus_process(bus, nil), "sd_bus_process") > 0 {}
    }

    /// Calls `handler` for every signal `member` of `interface` at `path` from `sender`
    /// (a well-known name: the bus daemon routes only that name's broadcasts here, but a
    /// signal addressed to this connection gets through from anyone, so check
    /// ``Message/sender``). The match is installed asynchronously. Wraps
    /// `sd_bus_match_signal_async`.
    func matchSignal(
        sender: String, path: String, interface: String, member: String, _ handler: @escaping Handler
    ) throws(SystemdError) {
        let box = HandlerBox(handler, once: false)
        let result = sd_bus_match_signal_async(
            bus, nil, sender, path, interface, member,
            { message, userdata, _ in SystemBus.dispatch(message, userdata) }, nil,
            Unmanaged.passUnretained(box).toOpaque())
        try SystemdError.check(result, "sd_bus_match_signal_async")
        matches.append(box)
    }

    /// Calls `handler` for every message matching the D-Bus match `rule`, installed
    /// asynchronously. Wraps `sd_bus_add_match_async`.
    func addMatch(_ rule: String, _ handler: @escaping Handler) throws(SystemdError) {
        let box = HandlerBox(handler, once: false)
        let result = sd_bus_add_match_async(
            bus, nil, rule, { message, userdata, _ in SystemBus.dispatch(message, userdata) }, nil,
            Unmanaged.passUnretained(box).toOpaque())
        try SystemdError.check(result, "sd_bus_add_match_async")
        matches.append(box)
    }

    /// Calls `member` on `destination` with string arguments, without waiting: `handler`
    /// receives the reply or the error (a timeout after `timeout` is an error reply).
    /// Wraps `sd_bus_message_new_method_call`, `sd_bus_message_append_basic` and
    /// `sd_bus_call_async`.
    func call(
        _ destination: String, path: String, interface: String, member: String, arguments: [String],
        timeout: Duration, _ handler: @escaping Handler
    ) throws(SystemdError) {
        var message: OpaquePointer?
        try SystemdError.check(
            sd_bus_message_new_method_call(bus, &message, destination, path, interface, member),
            "sd_bus_message_new_method_call")
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            try SystemdError.check(
                argument.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) },
                "sd_bus_message_append_basic")
        }
        let box = Unmanaged.passRetained(HandlerBox(handler, once: true))
        let microseconds = UInt64(clamping: timeout.nanosecondsClamped / 1000)
        let result = sd_bus_call_async(
            bus, nil, message, { message, userdata, _ in SystemBus.dispatch(message, userdata) },
            box.toOpaque(), microseconds)
        if result < 0 { box.release() }
        try SystemdError.check(result, "sd_bus_call_async")
    }

    /// The one C callback: finds the handler behind `userdata` and runs it.
    private static func dispatch(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) -> Int32 {
        guard let message, let userdata else { return 0 }
        let unmanaged = Unmanaged<HandlerBox>.fromOpaque(userdata)
        let box = unmanaged.takeUnretainedValue()
        if box.once { unmanaged.release() }
        box.handler(Message(pointer: message))
        return 0
    }
}
