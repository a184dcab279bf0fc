import Foundation
import TestSupport
import Testing

extension HivedUnderSystemdTests {
    @Test("dpkg -r stops hived, --purge removes its configuration and state, reinstalling starts it again", arguments: SystemdRelease.selected)
    func removePurgeReinstall(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let container = hived.container
        try await hived.prepare(config: Self.config("""
              - name: doomed
                type: probe
                settings: {path: /var/lib/hived/doomed.jsonl}
            """))
        #expect(try await hived.systemctl("start").status == 0)

        let remove = try await container.exec(["dpkg", "-r", "hived"], timeout: .seconds(180))
        #expect(remove.status == 0, "\(remove)")
        #expect(try await hived.property("ActiveState") == "inactive", "removing stops the service")
        #expect(try hived.steps("doomed").contains("doomed.teardown"), "stopped the orderly way")
        #expect(container.read("/usr/bin/hived") == nil)
        #expect(container.read(HivedFixture.configPath) != nil, "dpkg -r keeps the conffile")

        let purge = try await container.exec(["dpkg", "--purge", "hived"], timeout: .seconds(180))
        #expect(purge.status == 0, "\(purge)")
        #expect(container.read(HivedFixture.configPath) == nil, "purge removes the configuration")
        #expect(!FileManager.default.fileExists(atPath: container.hostPath(HivedFixture.stateDirectory)),
                "purge removes /var/lib/hived")

        let install = try await container.exec(["dpkg", "-i", hived.packageInside], timeout: .seconds(300))
        #expect(install.status == 0, "\(install)")
        #expect(try await hived.systemctl("is-active").output == "active")
        #expect(try await hived.systemctl("is-enabled").output == "enabled")
        #expect(container.read(HivedFixture.configPath)?.contains("type: probe") == true, "the default configuration is back")
    }

    @Test("an upgrade from a package with its units in /lib/systemd/system keeps them, now in /usr/lib/systemd/system, enabled and running",
          arguments: SystemdRelease.selected)
    func upgradeMovesTheUnitsToUsr(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let container = hived.container
        #expect(try await container.exec(["dpkg", "--purge", "hived"], timeout: .seconds(180)).status == 0)
        // The same package, as built before the units moved: version 0.0.1, units in /lib.
        let old = "/var/cache/hived-suite/hived-lib-layout.deb"
        try await container.check(["sh", "-euc", """
            work=$(mktemp -d)
            dpkg-deb -R "$1" "$work/root"
            mkdir -p "$work/root/lib/systemd"
            mv "$work/root/usr/lib/systemd/system" "$work/root/lib/systemd/system"
            rmdir "$work/root/usr/lib/systemd"
            sed -i 's/^Version: .*/Version: 0.0.1/' "$work/root/DEBIAN/control"
            sed -i 's| usr/lib/systemd/system/| lib/systemd/system/|' "$work/root/DEBIAN/md5sums"
            dpkg-deb --root-owner-group -Znone -b "$work/root" "$2" >/dev/null
            rm -rf "$work"
            """, "build-old", hived.packageInside, old])
        let first = try await container.exec(["dpkg", "-i", old], timeout: .seconds(300))
        #expect(first.status == 0, "\(first)")
        let listed = try await container.check(["dpkg", "-L", "hived"]).stdout
        #expect(listed.contains("\n/lib/systemd/system/hived.service\n"), "\(listed)")

        let upgrade = try await container.exec(["dpkg", "-i", hived.packageInside], timeout: .seconds(300))
        #expect(upgrade.status == 0, "\(upgrade)")
        for unit in ["hived.service", "hived.socket"] {
            let path = "/usr/lib/systemd/system/" + unit
            #expect(try await container.exec(["test", "-f", path]).status == 0, "\(path) is gone after the upgrade")
            #expect(try await container.exec(["dpkg", "-S", path]).output == "hived: \(path)")
        }
        let fragment = try await hived.property("FragmentPath")
        #expect(try await container.exec(["readlink", "-f", fragment]).output == "/usr/lib/systemd/system/hived.service",
                "\(fragment)")
        #expect(try await hived.systemctl("is-active").output == "active")
        #expect(try await hived.systemctl("is-enabled").output == "enabled")
        #expect(try await container.exec(["dpkg-query", "-W", "-f=${Version}", "hived"]).output != "0.0.1")
    }

    @Test("the documented socket-activation steps work on a fresh install: hived.socket listens, hived starts at the first connection",
          arguments: SystemdRelease.selected)
    func socketActivationSteps(release: SystemdRelease) async throws {
        let hived = try hived(release)
        let container = hived.container
        // A fresh install, which starts hived.service.
        #expect(try await container.exec(["dpkg", "--purge", "hived"], timeout: .seconds(180)).status == 0)
        let install = try await container.exec(["dpkg", "-i", hived.packageInside], timeout: .seconds(300))
        #expect(install.status == 0, "\(install)")
        #expect(try await hived.systemctl("is-active").output == "active")

        // What the operator types into the editors: an address of its own (the container
        // shares this machine's network, and other copies of the suite may run) and a module
        // that takes the socket by name.
        let port = try LineSocket.freePort()
        try container.write("[Socket]\nListenStream=\nListenStream=127.0.0.1:\(port)\n", to: "/root/suite-socket.conf")
        try container.write(Self.echoConfig("{socket: echo}"), to: "/root/suite-hived.yaml")
        // An editor that writes FILE into the file it is given last (systemd 257 passes a
        // +LINE argument before it).
        try container.write("#!/bin/sh\nfile=$1\nshift\nfor last; do :; done\ncp \"$file\" \"$last\"\n",
                            to: "/root/suite-editor", mode: 0o755)
        let sudoedit = #"sudoedit() { /root/suite-editor /root/suite-hived.yaml "$@"; }; "#
        var failure: (any Error)?
        do {
            let steps = try OperatorDocumentation.commands("socketActivationSteps")
            #expect(steps.contains("systemctl enable --now hived.socket"), "\(steps)")
            for step in steps {
                // `systemctl edit` edits only on a terminal: script(1) gives it one.
                let result = try await container.exec([
                    "env", "SYSTEMD_EDITOR=/root/suite-editor /root/suite-socket.conf", "SHELL=/bin/sh",
                    "script", "--quiet", "--return", "--command", sudoedit + step, "/dev/null",
                ])
                #expect(result.status == 0, "documented step `\(step)`: \(result)")
            }
            #expect(try await hived.systemctl("is-active").output == "inactive", "hived waits for its first client")
            #expect(try await container.systemctl("is-active", "hived.socket").output == "active")
            #expect(try await container.systemctl("is-enabled", "hived.socket").output == "enabled")
            let client = try LineSocket.connect(port: port).get()
            defer { close(client) }
            #expect(LineSocket.echo("wake up", on: client) == "wake up")
            #expect(try await eventually(timeout: .seconds(30), every: .systemctl) { try await hived.property("ActiveState") == "active" })
            let invocation = try await hived.property("InvocationID")
            let journal = try await container.journal(invocation: invocation).compactMap { $0["MESSAGE"] }
            #expect(journal.contains("received 1 descriptor from systemd: 'echo' (fd 3)"), "\(journal)")
        } catch { failure = error }
        try await container.systemctl("disable", "--now", "hived.socket", HivedFixture.unit)
        try await container.check(["rm", "-rf", "/etc/systemd/system/hived.socket.d"])
        try await container.check(["systemctl", "daemon-reload"])
        try await container.systemctl("reset-failed", "hived.socket", HivedFixture.unit)
        try await container.check(["systemctl", "enable", HivedFixture.unit])
        if let failure { throw failure }
    }
}
