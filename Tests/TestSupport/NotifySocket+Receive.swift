import Foundation

extension NotifySocket {
    /// Reads one datagram with its `SCM_TIMESTAMPNS` time and `SCM_RIGHTS` descriptors
    /// (made close-on-exec); nil once the socket is shut down.
    static func receive(_ fd: Int32) -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Room for a timestamp and a few hundred descriptors; UInt64 keeps cmsghdr aligned.
        var control = [UInt64](repeating: 0, count: 256)
        while true {
            var controlLength = 0
            let count = buffer.withUnsafeMutableBytes { data in
                control.withUnsafeMutableBytes { controlBytes in
                    var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var header = msghdr()
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        header.msg_control = controlBytes.baseAddress
                        header.msg_controllen = controlBytes.count
                        let count = recvmsg(fd, &header, Int32(MSG_CMSG_CLOEXEC))
                        controlLength = Int(header.msg_controllen)
                        return count
                    }
                }
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            let (time, descriptors) = control.withUnsafeBytes { parse(UnsafeRawBufferPointer(rebasing: $0[..<controlLength])) }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            return Datagram(text: text, received: time ?? realtimeNow(), descriptors: descriptors)
        }
    }

    /// The `SCM_TIMESTAMPNS` time and the `SCM_RIGHTS` descriptors among the control
    /// messages in `control`.
    private static func parse(_ control: UnsafeRawBufferPointer) -> (Duration?, [Int32]) {
        let headerSize = MemoryLayout<cmsghdr>.stride
        var time: Duration?
        var descriptors: [Int32] = []
        var offset = 0
        while offset + headerSize <= control.count {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(header.cmsg_len)
            guard length >= headerSize, offset + length <= control.count else { break }
            if header.cmsg_level == SOL_SOCKET && header.cmsg_type == SCM_TIMESTAMPNS {
                let stamp = control.loadUnaligned(fromByteOffset: offset + headerSize, as: timespec.self)
                time = .seconds(stamp.tv_sec) + .nanoseconds(stamp.tv_nsec)
            } else if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                for index in 0..<(length - headerSize) / 4 {
                    descriptors.append(control.loadUnaligned(fromByteOffset: offset + headerSize + 4 * index, as: Int32.self))
                }
            }
            offset += (length + 7) & ~7
        }
        return (time, descriptors)
    }
}
