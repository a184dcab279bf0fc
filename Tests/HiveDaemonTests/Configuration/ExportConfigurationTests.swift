@testable import HiveDaemon
import HiveKit
import Testing

/// A module entry's `export:` lists the routes and actions calls from outside the process
/// may reach.
@Suite struct ExportConfigurationTests {
    @Test func aModuleExportsRoutesAndActionsByPatternAndName() throws {
        let configuration = try parseConfiguration("""
            modules:
              - name: heartbeat
                type: demo
                export:
                  routes: ["hive://heartbeat/status", "/beats(/:format)"]
                  actions: [beats]
              - {name: quiet, type: demo}
              - {name: empty, type: demo, export: {}}
            """, catalog: testCatalog())
        let descriptors = configuration.modules
        #expect(descriptors[0].exportedRoutes == ["hive://heartbeat/status", "/beats(/:format)"])
        #expect(descriptors[0].exportedActions == ["beats"])
        #expect(descriptors[1].exportedRoutes.isEmpty && descriptors[1].exportedActions.isEmpty, "nothing unless said")
        #expect(descriptors[2].exportedRoutes.isEmpty && descriptors[2].exportedActions.isEmpty)
    }

    @Test(arguments: [
        ("export: {routes: [\"/a/*/b\"]}", 4, "modules[0].export.routes[0]: malformed route pattern '/a/*/b': '*' must be the last segment"),
        ("export: {actions: [\"\"]}", 4, "modules[0].export.actions[0]: must not be empty"),
        ("export: {verbs: [x]}", 4, "modules[0].export.verbs: unknown key; expected routes, actions"),
        ("export: [beats]", 4, "modules[0].export: expected a map with routes and actions, got a list"),
        ("export: {routes: beats}", 4, "modules[0].export.routes: expected a list of route patterns, got 'beats'"),
    ])
    func badExportsNameTheirLine(entry: String, line: Int, message: String) throws {
        let text = "modules:\n  - name: heartbeat\n    type: demo\n    \(entry)\n"
        let error = try #require(configurationError(text, catalog: testCatalog()))
        #expect(error.location?.line == line)
        #expect(error.description.contains(message), "\(error)")
    }
}
