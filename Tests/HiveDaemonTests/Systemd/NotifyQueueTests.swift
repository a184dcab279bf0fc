import Glibc
@testable import HiveDaemon
import Testing

@Suite struct NotifyQueueTests {
    private func drained(_ queue: NotifyQueue) -> [String] {
        var queue = queue
        var texts: [String] = []
        while let message = queue.next() { texts.append(message.text) }
        return texts
    }

    @Test func stateMessagesKeepTheirOrderAndWatchdogAndStatusCoalesce() {
        var queue = NotifyQueue()
        queue.add(.status("starting"))
        queue.add(.watchdog)
        queue.add(.watchdog)
        queue.add(.ready(status: "running"))
        queue.add(.status("a"))
        queue.add(.extendTimeout(by: .seconds(1)))
        queue.add(.stopping())
        queue.add(.status("b"))
        queue.add(.extendTimeout(by: .seconds(2)))
        #expect(drained(queue) == [
            "WATCHDOG=1", "READY=1\nSTATUS=running", "STOPPING=1", "STATUS=b", "EXTEND_TIMEOUT_USEC=2000000",
        ])
        #expect(queue.coalesced == 4)
    }

    @Test func aReloadStormCollapsesWholeReloadsButNeverTheLastStates() {
        var queue = NotifyQueue()
        queue.add(.ready(status: "running"))
        for index in 0..<1_000 {
            queue.add(.reloading(status: "reloading", monotonicMicroseconds: UInt64(index)))
            queue.add(.ready(status: "reloaded \(index)"))
        }
        queue.add(.stopping())
        let texts = drained(queue)
        #expect(texts.count <= NotifyQueue.stateLimit + 1)
        #expect(texts.first == "READY=1\nSTATUS=running")
        #expect(texts.last == "STOPPING=1")
        #expect(texts.dropLast().last == "READY=1\nSTATUS=reloaded 999")
        // Every RELOADING=1 left is followed by its READY=1.
        for (index, text) in texts.enumerated() where text.hasPrefix("RELOADING=1") {
            #expect(texts[index + 1].hasPrefix("READY=1"))
        }
    }

    @Test func aRemovalTakesOutTheStoreOfItsNameStillWaitingAndClosesItsDescriptor() throws {
        var queue = NotifyQueue()
        func store(_ name: String) throws -> (NotifyMessage, Int32) {
            var message = NotifyMessage.storeDescriptors(name: name)
            let copy = open("/dev/null", O_RDONLY | O_CLOEXEC)
            try #require(copy >= 0)
            message.descriptors = [copy]
            return (message, copy)
        }
        let (sent, sentCopy) = try store("echo/connection.1")
        queue.add(sent)
        #expect(queue.next()?.storedName == "echo/connection.1", "taken by the writer: sent, or being sent")
        let (first, firstCopy) = try store("echo/connection.2")
        let (second, secondCopy) = try store("echo/connection.3")
        queue.add(first)
        queue.add(second)
        queue.add(.removeStoredDescriptors(name: "echo/connection.2"))
        queue.add(.removeStoredDescriptors(name: "echo/connection.1"))
        #expect(drained(queue) == [
            "FDSTORE=1\nFDNAME=echo/connection.3",
            "FDSTOREREMOVE=1\nFDNAME=echo/connection.2",
            "FDSTOREREMOVE=1\nFDNAME=echo/connection.1",
        ], "the waiting store of connection.2 is gone; the removals are kept")
        #expect(fcntl(firstCopy, F_GETFD) == -1, "the cancelled store's copy is closed")
        #expect(fcntl(secondCopy, F_GETFD) >= 0 && fcntl(sentCopy, F_GETFD) >= 0, "the others' are not")
        #expect(queue.coalesced == 1)
        close(secondCopy)
        close(sentCopy)
    }
}
