import Glibc
@testable import HiveDaemon
import HiveKit
import Logging
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

        @Test func withoutFdstoreSystemdIsAskedAndAnyAnswerButASizeIsAnError() async throws {
            // Not a service of a systemd with a bus here (or one without a store): either
            // way the error names FileDescriptorStoreMax=, never a silent yes.
            let store = makeStore(notifySocket: "/run/systemd/notify", fdstore: nil)
            do {
                let size = try await store.capacity()
                Issue.record("this test process has a descriptor store of \(size)?")
            } catch {
                #expect("\(error)".contains("FileDescriptorStoreMax="), "\(error)")
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
                let received = try #require(socket.receiveWithDescriptors())
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
                let removal = try #require(socket.receiveWithDescriptors())
                #expect(removal.text == "FDSTOREREMOVE=1\nFDNAME=echo/listener")
                #expect(removal.descriptors.isEmpty)
            }
        }
    }

    @Suite struct PassedDescriptorCaptureTests {
        @Test func listenFDsForThisProcessAreReadWithTheirNames() throws {
            // sd_listen_fds marks descriptors 3 and 4 close-on-exec and fails on a closed one;
            // the test runner usually has them open, else /dev/null stands in.
            var standIns: [Int32] = []
            for fd: Int32 in 3...4 where fcntl(fd, F_GETFD) < 0 {
                let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
                if null != fd { dup2(null, fd); close(null) }
                standIns.append(fd)
            }
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
