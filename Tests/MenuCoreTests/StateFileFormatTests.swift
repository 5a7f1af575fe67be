import TestSupport
import Testing

@testable import MenuCore

@Suite struct StateFileFormatTests {
    @Test func roundTripsEveryField() throws {
        let entries = [
            StateEntry(path: "power", field: .expanded(true)),
            StateEntry(path: "apps", field: .expanded(false)),
            StateEntry(path: "display/volume", field: .value("60")),
            StateEntry(path: "misc/greeting", field: .value(" hello  world ")),
            StateEntry(path: "misc/empty", field: .value("")),
        ]
        let text = StateFileFormat.encode(entries)
        #expect(text.hasPrefix("# menud state 1\nexpanded power\ncollapsed apps\nvalue display/volume 60\n"))
        #expect(try StateFileFormat.decode(text).get() == entries)
    }

    @Test func modelStateSurvivesTheFile() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power")
        _ = try m.set("settings/first", "Grace Brewster")
        let fresh = MenuFixtures.desktop
        fresh.importState(try StateFileFormat.decode(StateFileFormat.encode(m.exportState())).get())
        #expect(fresh.tree() == m.tree())
    }

    @Test func rejectsDamage() throws {
        #expect(throws: StateFileFormat.Problem(line: 1, message: "missing header '# menud state 1'")) {
            try StateFileFormat.decode("expanded power\n").get()
        }
        #expect(throws: StateFileFormat.Problem.self) {
            try StateFileFormat.decode("# menud state 1\nexpanded\n").get()
        }
        #expect(throws: StateFileFormat.Problem.self) {
            try StateFileFormat.decode("# menud state 1\nfrobnicate power\n").get()
        }
        #expect(throws: StateFileFormat.Problem.self) {
            try StateFileFormat.decode("# menud state 1\nexpanded power extra\n").get()
        }
        #expect(try StateFileFormat.decode("# menud state 1\n\n# note\r\nexpanded a\r\n").get().count == 1)
    }
}
