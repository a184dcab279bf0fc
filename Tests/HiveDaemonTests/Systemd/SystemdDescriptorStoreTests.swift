import Glibc
@testable import HiveDaemon
import HiveKit
import Logging
import TestSupport
import Testing

extension ProcessEnvironmentSuite {
    @Suite struct SystemdDescriptorStoreTests {
        private func makeStore(notifySocket: String?, fdstore: String?) -> SystemdDescriptorStore {
            let environment = SystemdEnvironment(notifySocket: notifySocket, fileDescriptorStoreMaximum: fdstore)
            return SystemdDescriptorStore(
                notifier: SystemdNotifier(environment: environment), environment: environment,
                logger: Logger(label: "hived"))
        }

        @Test func noNotifySocketMeansNoStore() async throws {
            let store = makeStore(notifySocket: nil, fdstore: "16")
            let error = await #expect(throws: (any Error).self) { try await store.capacity() }
            #expect("\(error.map { "\($0)" } ?? "")".contains("no NOTIFY_SOCKET"))
        }

        @Test func fdstoreGivesTheSizeOrSaysThereIsNone() async throws {
            #expect(try await makeStore(notifySocket: "/run/systemd/notify", fdstore: "16").capacity() == 16)
            let none = makeStore(notifySocket: "/run/systemd/notify", fdstore: "0")
            let error = await #expect(throws: (any Error).self) { try await none.capacity() }
            #expect("\(error.map { "\($0)" } ?? "")".contains("FileDescriptorStoreMax="))
            let garbage = makeStore(notifySocket: "/run/systemd/notify", fdstore: "lots")
            await #expect(throws: (any Error).self) { try await garbage.capacity() }
        }

        /// What a store's ``SystemdDescriptorStore/capacity()`` answered.
        enum StoreAnswer: Equatable {
            case size(Int)
            case error(String)

            var error: String? { if case .error(let text) = self { text } else { nil } }
        }

        /// The answer of a store with `NOTIFY_SOCKET` and no `FDSTORE` (systemd 252), which asks
        /// the service manager on `bus` (as both the system and the user bus).
        private func answer(on bus: String) async -> StoreAnswer {
            let names = ["DBUS_SYSTEM_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS"]
            let saved = names.map { getenv($0).map { String(cString: $0) } }
            for name in names { setenv(name, bus, 1) }
            defer {
                for (name, value) in zip(names, saved) {
                    if let value { setenv(name, value, 1) } else { unsetenv(name) }
                }
            }
            do {
                return .size(try await makeStore(notifySocket: "/run/systemd/notify", fdstore: nil).capacity())
            } catch {
                return .error("\(error)")
            }
        }

        /// Whether this test process runs in a unit of a user's service manager, which the
        /// store asks on the user bus (`sd_pid_get_user_unit`: a cgroup below `user@UID.service`).
        private var inUserUnit: Bool {
            ((try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? "").contains("/user@")
        }

        @Test func withoutFdstoreSystemdIsAskedAndAnyAnswerButASizeIsAnError() async throws {
            let asking = "cannot ask systemd for this unit's FileDescriptorStoreMax="
            // No bus to ask.
            let none = try await FakeServiceManagerBus()
            let open = inUserUnit ? "sd_bus_open_user" : "sd_bus_open_system"
            #expect(await answer(on: "unix:path=\(none.directory)/no-bus")
                == .error("\(asking) (\(open): No such file or directory (errno 2))"))
            // A bus without systemd on it.
            let first = inUserUnit ? "sd_bus_get_property_string(Id)" : "sd_bus_call(GetUnitByPID)"
            let noManager = await answer(on: none.address)
            #expect(noManager.error?.hasPrefix("\(asking) (\(first): ") == true, "\(noManager)")
            // systemd says the unit has no store.
            let zero = try await FakeServiceManagerBus(fileDescriptorStoreMax: 0)
            #expect(await answer(on: zero.address) == .error(
                "fake.service has no FileDescriptorStoreMax= (it is 0); set it in the unit, e.g. with systemctl edit fake.service"))
            // systemd says how large it is: the only answer that is not an error.
            let eight = try await FakeServiceManagerBus(fileDescriptorStoreMax: 8)
            #expect(await answer(on: eight.address) == .size(8))
        }

        @Test func aRegularFileIsStoredWithoutPolling() throws {
            let socket = try NotifySocket()
            var template = Array("/tmp/hived-store-XXXXXX".utf8CString)
            let file = mkstemp(&template)
            #expect(file >= 0)
            unlink(template)
            defer { close(file) }
            try ProcessEnvironmentSuite.with(["NOTIFY_SOCKET": socket.path]) {
                try makeStore(notifySocket: socket.path, fdstore: "4").store(file, name: "echo/unfinished.1")
                let received = try #require(socket.next())
                #expect(received.text == "FDSTORE=1\nFDNAME=echo/unfinished.1\nFDPOLL=0")
                received.descriptors.forEach { close($0) }
            }
        }

        @Test func storeSendsTheDescriptorWithItsNameAndRemoveSendsTheName() throws {
            let socket = try NotifySocket()
            var pair: [Int32] = [-1, -1]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
            defer { pair.forEach { close($0) } }
            try ProcessEnvironmentSuite.with(["NOTIFY_SOCKET": socket.path]) {
                let store = makeStore(notifySocket: socket.path, fdstore: "4")
                try store.store(pair[0], name: "echo/listener")
                let received = try #require(socket.next())
                #expect(received.text == "FDSTORE=1\nFDNAME=echo/listener")
                #expect(received.descriptors.count == 1)
                var sent = stat()
                var arrived = stat()
                fstat(pair[0], &sent)
                fstat(received.descriptors[0], &arrived)
                #expect(sent.st_ino == arrived.st_ino, "the very same socket arrived")
                received.descriptors.forEach { close($0) }
                #expect(fcntl(pair[0], F_GETFD) >= 0, "the sender keeps its own")

                store.remove(name: "echo/listener")
                let removal = try #require(socket.next())
                #expect(removal.text == "FDSTOREREMOVE=1\nFDNAME=echo/listener")
                #expect(removal.descriptors.isEmpty)
            }
        }
    }

    @Suite struct PassedDescriptorCaptureTests {
        @Test func listenFDsForThisProcessAreReadWithTheirNames() throws {
            // sd_listen_fds marks descriptors 3 and 4 close-on-exec and fails on a closed one;
            // the test runner usually has them open, else /dev/null stands in. Never through
            // dup2: another test's thread may have taken the number since the check, and
            // dup2 would silently replace its descriptor (a soak saw a notify socket vanish).
            var standIns: [Int32] = []
            for fd: Int32 in 3...4 where fcntl(fd, F_GETFD) < 0 {
                let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
                if null == fd { standIns.append(fd) } else if null >= 0 { close(null) }
            }
            #expect(fcntl(3, F_GETFD) >= 0 && fcntl(4, F_GETFD) >= 0, "descriptors 3 and 4 are open")
            defer { standIns.forEach { close($0) } }
            let environment = try ProcessEnvironmentSuite.with([
                "LISTEN_PID": "\(getpid())", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "web:echo/listener",
            ]) { SystemdEnvironment.capture() }
            #expect(environment.passedDescriptors == [
                PassedDescriptor(descriptor: 3, name: "web"), PassedDescriptor(descriptor: 4, name: "echo/listener"),
            ])
            #expect(environment.passedDescriptorsError == nil)
            #expect(environment.listenFDNames == "web:echo/listener")
        }

        @Test func listenFDsForAnotherProcessAreIgnored() throws {
            let environment = try ProcessEnvironmentSuite.with([
                "LISTEN_PID": "\(getpid() + 1)", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "web",
            ]) { SystemdEnvironment.capture() }
            #expect(environment.passedDescriptors.isEmpty)
            #expect(environment.passedDescriptorsError == nil)
            #expect(environment.listenFDs == "1", "kept, so the daemon can say what it ignored")
        }

        @Test func tooFewNamesAreAnError() throws {
            let environment = try ProcessEnvironmentSuite.with([
                "LISTEN_PID": "\(getpid())", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "web",
            ]) { SystemdEnvironment.capture() }
            #expect(environment.passedDescriptors.isEmpty)
            #expect(environment.passedDescriptorsError?.errno == EINVAL)
        }

        @Test func fdstoreIsCapturedAndKeptFromChildren() throws {
            let environment = try ProcessEnvironmentSuite.with(["FDSTORE": "64"]) { SystemdEnvironment.capture() }
            #expect(environment.fileDescriptorStoreMaximum == "64")
            #expect(SystemdEnvironment.childEnvironment(from: ["FDSTORE": "64", "LISTEN_FDNAMES": "web", "PATH": "/bin"])
                == ["PATH": "/bin"])
        }
    }
}

