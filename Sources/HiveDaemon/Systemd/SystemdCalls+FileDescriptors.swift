import CSystemd
import HiveKit

#if canImport(Glibc)
import Glibc
#endif

extension SystemdCalls {
    /// The descriptors passed to this process and their names. Wraps
    /// `sd_listen_fds_with_names(0, &names)`: empty unless `LISTEN_PID` is this process;
    /// marks the descriptors close-on-exec; unsets nothing. Names default to `unknown`
    /// when `LISTEN_FDNAMES` is unset.
    ///
    /// - Throws: ``SystemdError`` when the variables are malformed (`EINVAL`: a count that
    ///   does not parse, or fewer names than descriptors).
    static func listenFDsWithNames() throws(SystemdError) -> [PassedDescriptor] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = try SystemdError.check(sd_listen_fds_with_names(0, &names), "sd_listen_fds_with_names")
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        return (0..<count).map { index in
            let name = names?[Int(index)].map { String(cString: $0) } ?? "unknown"
            return PassedDescriptor(descriptor: SD_LISTEN_FDS_START + index, name: name)
        }
    }

    /// Sends `state` with `descriptors` attached (`SCM_RIGHTS`) to `$NOTIFY_SOCKET`.
    /// Returns > 0 when sent, 0 when `NOTIFY_SOCKET` is unset, `-errno` on failure. Wraps
    /// `sd_pid_notify_with_fds(0, 0, state, fds, n)`: `unset_environment` is always 0.
    static func notify(_ state: String, descriptors: [Int32]) -> Int32 {
        descriptors.withUnsafeBufferPointer { fds in
            state.withCString { sd_pid_notify_with_fds(0, 0, $0, fds.baseAddress, UInt32(fds.count)) }
        }
    }

    /// The unit this process runs in and its `FileDescriptorStoreMax=`, asked of the service
    /// manager that runs it over D-Bus. Blocks the calling thread until the answers come or
    /// `timeoutMicroseconds` pass (per call): call it on a thread of its own.
    ///
    /// A unit of a user's manager is found with `sd_pid_get_user_unit` and asked on the user
    /// bus; a system unit is asked on the system bus with the manager's `GetUnitByPID(0)`
    /// (the caller's unit), since `sd_pid_get_unit` needs `/proc/1`, which
    /// `ProtectProc=invisible` hides. Then `sd_bus_get_property_string` reads the unit's
    /// `Id` and `sd_bus_get_property_trivial` its `FileDescriptorStoreMax`.
    ///
    /// - Throws: ``SystemdError`` naming the call that failed.
    static func fileDescriptorStoreMax(timeoutMicroseconds: UInt64) throws(SystemdError) -> (unit: String, maximum: UInt32) {
        let manager = "org.freedesktop.systemd1"
        var userUnit: UnsafeMutablePointer<CChar>?
        let isUserUnit = sd_pid_get_user_unit(0, &userUnit) >= 0
        defer { free(userUnit) }

        var bus: OpaquePointer?
        try SystemdError.check(
            isUserUnit ? sd_bus_open_user(&bus) : sd_bus_open_system(&bus),
            isUserUnit ? "sd_bus_open_user" : "sd_bus_open_system")
        defer { sd_bus_flush_close_unref(bus) }
        try SystemdError.check(sd_bus_set_method_call_timeout(bus, timeoutMicroseconds), "sd_bus_set_method_call_timeout")
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }

        var path: UnsafeMutablePointer<CChar>?
        defer { free(path) }
        if let userUnit {
            try SystemdError.check(sd_bus_path_encode("/org/freedesktop/systemd1/unit", userUnit, &path), "sd_bus_path_encode")
        } else {
            var call: OpaquePointer?
            var reply: OpaquePointer?
            defer {
                sd_bus_message_unref(call)
                sd_bus_message_unref(reply)
            }
            try SystemdError.check(
                sd_bus_message_new_method_call(
                    bus, &call, manager, "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "GetUnitByPID"),
                "sd_bus_message_new_method_call")
            var pid: UInt32 = 0
            try SystemdError.check(sd_bus_message_append_basic(call, CChar(UInt8(ascii: "u")), &pid), "sd_bus_message_append_basic")
            try SystemdError.check(sd_bus_call(bus, call, 0, &error, &reply), "sd_bus_call(GetUnitByPID)")
            var found: UnsafePointer<CChar>?
            try SystemdError.check(sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "o")), &found), "sd_bus_message_read_basic")
            guard let found else { throw SystemdError(function: "sd_bus_message_read_basic", errno: EBADMSG) }
            path = strdup(found)
        }

        var id: UnsafeMutablePointer<CChar>?
        try SystemdError.check(
            sd_bus_get_property_string(bus, manager, path, "org.freedesktop.systemd1.Unit", "Id", &error, &id),
            "sd_bus_get_property_string(Id)")
        defer { free(id) }
        let unit = id.map { String(cString: $0) } ?? "this unit"
        var maximum: UInt32 = 0
        try SystemdError.check(
            sd_bus_get_property_trivial(
                bus, manager, path, "org.freedesktop.systemd1.Service", "FileDescriptorStoreMax", &error,
                CChar(UInt8(ascii: "u")), &maximum),
            "sd_bus_get_property_trivial(\(unit) FileDescriptorStoreMax)")
        return (unit, maximum)
    }
}
