import Foundation
import TestSupport
import Testing

/// What the user sets below a `children-cmd` group outlives the group's closing:
/// once closed, the group is emptied by the next splice of any group, and its nodes
/// come back when it opens again.
@Suite(.ownThread) struct DynamicGroupStateTests {
    static let config = """
        menu:
          - id: kids
            title: Kids
            children-cmd: "printf -- '- {id: k2, title: K2, type: toggle}\\\\n- {id: mode, title: Mode, type: choice, options: [a, b]}\\\\n'"
          - id: other
            title: Other
            children-cmd: "printf -- '- {id: x, title: X}\\\\n'"
        """

    @Test func aValueSetInAClosedGroupSurvivesASpliceAndComesBack() async throws {
        try await withConfigFile(Self.config) { config in
            try await withDaemon(config: config) { daemon in
                func get(_ path: String) throws -> String {
                    try daemon.menuctl(["--raw", "get", path]).stdout
                }
                #expect(try daemon.menuctl(["expand", "kids"]).status == 0)
                #expect(try daemon.menuctl(["set", "kids/k2", "on"]).status == 0)
                #expect(try daemon.menuctl(["set", "kids/mode", "b"]).status == 0)
                #expect(try daemon.menuctl(["collapse", "kids"]).status == 0)
                // Loading Other splices the menu, which empties the closed Kids.
                #expect(try daemon.menuctl(["expand", "other"]).status == 0)
                let emptied = try get("kids/k2")
                #expect(emptied.isEmpty, "Kids was emptied: \(emptied)")
                #expect(!daemon.log.contains("dropped kids/k2"), "\(daemon.log)")
                // Kept meanwhile in the state file too.
                #expect(try daemon.menuctl(["save"]).status == 0)
                let state = try String(contentsOfFile: daemon.directory.file("state"), encoding: .utf8)
                #expect(state.contains("kids/k2") && state.contains("kids/mode"), "\(state)")

                #expect(try daemon.menuctl(["expand", "kids"]).status == 0)
                #expect(try daemon.value(of: "kids/k2") == "on")
                #expect(try daemon.value(of: "kids/mode") == "b")

                // And a reload in between loses nothing either.
                #expect(try daemon.menuctl(["collapse", "kids"]).status == 0)
                #expect(try daemon.menuctl(["collapse", "other"]).status == 0)
                #expect(try daemon.menuctl(["expand", "other"]).status == 0)
                #expect(try daemon.menuctl(["reload"]).status == 0)
                #expect(try daemon.menuctl(["expand", "kids"]).status == 0)
                #expect(try daemon.value(of: "kids/k2") == "on")
                #expect(try daemon.value(of: "kids/mode") == "b")
            }
        }
    }
}
