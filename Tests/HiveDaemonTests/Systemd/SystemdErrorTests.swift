import Glibc
@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct SystemdErrorTests {
    @Test func negativeResultBecomesTypedError() {
        #expect(throws: SystemdError(function: "sd_notify", errno: ENOENT)) {
            try SystemdError.check(-ENOENT, "sd_notify")
        }
    }

    @Test func nonNegativeResultPassesThrough() throws {
        #expect(try SystemdError.check(0, "sd_notify") == 0)
        #expect(try SystemdError.check(3, "sd_listen_fds") == 3)
    }

    @Test func descriptionNamesFunctionReasonAndErrno() {
        let error = SystemdError(function: "sd_notify", errno: ECONNREFUSED)
        #expect(error.description == "sd_notify: Connection refused (errno \(ECONNREFUSED))")
    }

    @Test func carriesErrnoThroughHiveError() {
        let error = HiveError(.handlerFailed, "notify failed", underlying: SystemdError(function: "sd_notify", errno: ENOENT))
        #expect(error.errnoValue == ENOENT)
    }
}
