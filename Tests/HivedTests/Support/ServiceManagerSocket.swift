import Foundation
import Synchronization
import TestSupport

/// A `NOTIFY_SOCKET` that acts like systemd's for a service with a descriptor store:
/// it collects every datagram, keeps the descriptors sent with `FDSTORE=1` under their
/// `FDNAME=`, and closes and forgets them on `FDSTOREREMOVE=1`, so a test can start the
/// next hived with what the last one stored (in `LISTEN_FDS`), as systemd does at a restart.
final class ServiceManagerSocket: Sendable {
    let path: String
    private let descriptor: Int32
    private let shared = Shared()

    /// The datagrams and the store, shared with the reader thread.
    private final class Shared: Sendable {
        let state = Mutex<(messages: [String], store: [(name: String, descriptor: Int32)])>(([], []))
    }

    init(directory: String) throws {
        path = directory + "/manager.sock"
        descriptor = try UnixAddress.boundDatagramSocket(path)
        let fd = descriptor
        // The reader thread owns the descriptor and closes it when deinit's shutdown ends
        // its recvmsg, so the number is never reused while it still reads.
        Thread { [shared] in
            while let (text, descriptors) = Self.receive(fd) {
                shared.state.withLock { state in
                    state.messages.append(text)
                    Self.apply(text, descriptors, to: &state.store)
                }
            }
            close(fd)
        }.start()
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        shared.state.withLock { $0.store.forEach { close($0.descriptor) } }
    }

    /// Every datagram so far.
    var messages: [String] { shared.state.withLock { $0.messages } }

    /// The names in the store, in the order stored.
    var storedNames: [String] { shared.state.withLock { $0.store.map(\.name) } }

    /// The stored descriptors, duplicated for a child to inherit (close them after spawning).
    func storedDescriptors() -> [(name: String, descriptor: Int32)] {
        shared.state.withLock { $0.store.map { ($0.name, fcntl($0.descriptor, F_DUPFD_CLOEXEC, 3)) } }
    }

    /// Waits until `condition` holds for the stored names; fails after `timeout`.
    func waitForStore(
        timeout: Duration = .seconds(20), _ what: String, _ condition: ([String]) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(storedNames) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("timed out waiting for \(what); store: \(storedNames); messages: \(messages)")
    }

    /// Waits for READY=1 after the first `skip` datagrams.
    func waitForReady(after skip: Int = 0, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if messages.dropFirst(skip).contains(where: { $0.hasPrefix("READY=1") }) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TestFailure("timed out waiting for READY=1; messages: \(messages)")
    }

    /// systemd's store rules: `FDSTORE=1` keeps the descriptors under `FDNAME=` (default
    /// `stored`), `FDSTOREREMOVE=1` closes every one under that name.
    private static func apply(_ text: String, _ descriptors: [Int32], to store: inout [(name: String, descriptor: Int32)]) {
        let fields = Dictionary(
            text.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let equals = line.firstIndex(of: "=") else { return nil }
                return (String(line[..<equals]), String(line[line.index(after: equals)...]))
            }, uniquingKeysWith: { $1 })
        let name = fields["FDNAME"] ?? "stored"
        if fields["FDSTORE"] == "1" {
            store += descriptors.map { (name, $0) }
            return
        }
        descriptors.forEach { close($0) }
        if fields["FDSTOREREMOVE"] == "1" {
            store.filter { $0.name == name }.forEach { close($0.descriptor) }
            store.removeAll { $0.name == name }
        }
    }

    /// One datagram and its `SCM_RIGHTS` descriptors; nil once the socket is shut down.
    private static func receive(_ fd: Int32) -> (String, [Int32])? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var control = [UInt64](repeating: 0, count: 64)
        while true {
            var controlLength = 0
            let count = buffer.withUnsafeMutableBytes { bytes in
                control.withUnsafeMutableBytes { controlBytes in
                    var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
                    return withUnsafeMutablePointer(to: &vector) { vector in
                        var message = msghdr()
                        message.msg_iov = vector
                        message.msg_iovlen = 1
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlBytes.count
                        let count = recvmsg(fd, &message, Int32(MSG_CMSG_CLOEXEC))
                        controlLength = Int(message.msg_controllen)
                        return count
                    }
                }
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            var descriptors: [Int32] = []
            control.withUnsafeBytes { raw in
                // struct cmsghdr: size_t cmsg_len, int cmsg_level, int cmsg_type, then the data.
                let header = MemoryLayout<Int>.size + 8
                var offset = 0
                while offset + header <= controlLength {
                    let length = raw.load(fromByteOffset: offset, as: Int.self)
                    let level = raw.load(fromByteOffset: offset + MemoryLayout<Int>.size, as: Int32.self)
                    let type = raw.load(fromByteOffset: offset + MemoryLayout<Int>.size + 4, as: Int32.self)
                    guard length >= header else { break }
                    if level == SOL_SOCKET, type == Int32(SCM_RIGHTS) {
                        for index in 0..<(length - header) / 4 {
                            descriptors.append(raw.load(fromByteOffset: offset + header + 4 * index, as: Int32.self))
                        }
                    }
                    offset += (length + 7) & ~7
                }
            }
            return (String(decoding: buffer[..<count], as: UTF8.self), descriptors)
        }
    }
}
