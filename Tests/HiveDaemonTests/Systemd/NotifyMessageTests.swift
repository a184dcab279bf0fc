@testable import HiveDaemon
import HiveKit
import Testing

@Suite struct NotifyMessageTests {
    @Test func readyWithAndWithoutStatus() {
        #expect(NotifyMessage.ready().text == "READY=1")
        #expect(NotifyMessage.ready(status: "3 modules running").text == "READY=1\nSTATUS=3 modules running")
    }

    @Test func reloadingCarriesMonotonicTimestampInTheSameMessage() {
        let message = NotifyMessage.reloading(status: "reloading", monotonicMicroseconds: 123_456)
        #expect(message.text == "RELOADING=1\nMONOTONIC_USEC=123456\nSTATUS=reloading")
    }

    @Test func stoppingStatusWatchdog() {
        #expect(NotifyMessage.stopping().text == "STOPPING=1")
        #expect(NotifyMessage.stopping(status: "stopping").text == "STOPPING=1\nSTATUS=stopping")
        #expect(NotifyMessage.status("suspended").text == "STATUS=suspended")
        #expect(NotifyMessage.watchdog.text == "WATCHDOG=1")
    }

    @Test func statusNewlinesBecomeSpaces() {
        #expect(NotifyMessage.status("bad\nconfig\r\nhere").text == "STATUS=bad config here")
    }

    @Test func extendTimeoutInMicrosecondsRoundedUp() {
        #expect(NotifyMessage.extendTimeout(by: .seconds(5)).text == "EXTEND_TIMEOUT_USEC=5000000")
        #expect(NotifyMessage.extendTimeout(by: .milliseconds(1500)).text == "EXTEND_TIMEOUT_USEC=1500000")
        #expect(NotifyMessage.extendTimeout(by: .nanoseconds(1)).text == "EXTEND_TIMEOUT_USEC=1")
        #expect(NotifyMessage.extendTimeout(by: .seconds(-1)).text == "EXTEND_TIMEOUT_USEC=0")
    }

    @Test func errnoWithStatusFirst() {
        #expect(NotifyMessage.errno(2).text == "ERRNO=2")
        #expect(NotifyMessage.errno(13, status: "module 'store' failed init").text
            == "STATUS=module 'store' failed init\nERRNO=13")
    }

    @Test func appendingJoinsWithNewline() {
        let message = NotifyMessage.ready().appending(.status("ok")).appending(status: nil)
        #expect(message.text == "READY=1\nSTATUS=ok")
    }
}
