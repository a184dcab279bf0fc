import Foundation
import TestSupport
import Testing

/// A reload never applies a file that is being written: a writer working in place (an
/// editor, `cat > file`) changes the configuration during each of hived's reads, and the
/// reload is refused, naming the file, while the running modules stay as they were.
///
/// The writer is a preloaded library in hived itself, so it writes during the read every
/// time rather than by chance: while the file named by `WRITER_ARMED` exists, each read of
/// the file `WRITER_TARGET` that reaches its end appends a comment to it.
@Suite struct InPlaceWriterTests {
    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>

        ssize_t read(int fd, void *buffer, size_t count) {
            static ssize_t (*next)(int, void *, size_t);
            if (!next) next = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
            ssize_t result = next(fd, buffer, count);
            const char *armed = getenv("WRITER_ARMED"), *target = getenv("WRITER_TARGET");
            if (result != 0 || !armed || !target || access(armed, F_OK) != 0) return result;
            char link[64], path[4096];
            snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
            ssize_t length = readlink(link, path, sizeof path - 1);
            if (length <= 0) return result;
            path[length] = 0;
            if (strcmp(path, target) != 0) return result;
            int writer = open(target, O_WRONLY | O_APPEND | O_CLOEXEC);
            if (writer >= 0) { (void)!write(writer, "# more\\n", 7); close(writer); }
            return result;
        }
        """

    @Test func aFileWrittenDuringEveryReadIsRefusedAndAppliesOnceTheWriterIsDone() async throws {
        let directory = try TestDirectory()
        let library = try await SharedLibrary.compile(Self.source, name: "writer", in: directory)

        let events = directory.file("events")
        let path = try directory.write("hived.yaml", """
            modules:
              - {name: a, type: probe, settings: {path: \(events)}}
              - {name: b, type: probe, settings: {path: \(events)}}
            """)
        let armed = directory.file("armed")
        let hived = try HivedProcess(
            ["run", "--config", path], in: directory,
            environment: ["LD_PRELOAD": library, "WRITER_ARMED": armed, "WRITER_TARGET": path])
        let ready = try await hived.waitForReady()

        // Removing b, written in place during every read: refused, b still runs.
        try directory.write("hived.yaml", "modules: [{name: a, type: probe, settings: {path: \(events)}}]\n")
        try directory.write("armed", "")
        hived.signal(SIGHUP)
        let refused = try await hived.waitForReady(after: ready + 1)
        let status = try #require(hived.notify?.messages[refused])
        #expect(status.contains(
            "STATUS=reload failed, previous configuration still running: \(path): cannot read configuration file: "
                + "file changed while reading (3 tries)"), "\(status)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("# more\n# more\n# more\n"),
                "the writer wrote during each of the three reads")
        #expect(!(try ProbeFile(path: events).events.contains("b.teardown")))

        // The writer done, the same file is a snapshot and applies.
        unlink(armed)
        hived.signal(SIGHUP)
        let applied = try await hived.waitForReady(after: refused + 1)
        #expect(hived.notify?.messages[applied].contains("removed b") == true, "\(hived.notify?.messages ?? [])")
        hived.signal(SIGTERM)
        #expect(try await hived.exitStatus() == 0)
        #expect(try ProbeFile(path: events).events == [
            "a.setup", "b.setup", "a.init", "b.init", "a.ready", "b.ready",
            "b.terminate", "b.teardown", "b.unmount", "a.reload", "a.terminate", "a.teardown",
        ])
    }
}
