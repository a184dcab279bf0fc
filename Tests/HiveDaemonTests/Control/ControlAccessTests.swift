@testable import HiveDaemon
import Testing

@Suite struct ControlAccessTests {
    let access = ControlAccess(ownUID: 998, groupID: 1001)

    @Test func rootTheDaemonsUserAndGroupMembersAreServed() {
        #expect(access.allows(PeerCredentials(pid: 1, uid: 0, gid: 0, groups: [])))
        #expect(access.allows(PeerCredentials(pid: 1, uid: 998, gid: 998, groups: [])))
        #expect(access.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1001, groups: [])), "primary group")
        #expect(access.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27, 1001])), "supplementary group")
    }

    @Test func everyoneElseIsRefused() {
        #expect(!access.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27])))
        let noGroup = ControlAccess(ownUID: 998, groupID: nil)
        #expect(!noGroup.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1001, groups: [1001])))
    }

    @Test func groupsResolveByNameOrNumber() {
        #expect(ControlAccess.groupID(named: "root") == 0)
        #expect(ControlAccess.groupID(named: "4242") == 4242)
        #expect(ControlAccess.groupID(named: "no-such-group-here") == nil)
    }
}
