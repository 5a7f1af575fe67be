import TestSupport
import Testing

@testable import MenuCore

/// A snapshot is what a reload's job and a state write read off the loop: it must
/// describe the model exactly, and the revision must tell when it no longer does.
@Suite struct ModelSnapshotTests {
    @Test func aModelFromASnapshotHasTheSameRowsAndState() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power")
        _ = try m.expand("power/system")
        _ = try m.set("settings/volume", "75")
        let copy = MenuModel(m.snapshot())
        #expect(copy.rows().map(\.path) == m.rows().map(\.path))
        #expect(copy.exportState() == m.exportState())
        #expect(copy.revision == m.revision)
    }

    @Test func everyChangeRaisesTheRevisionAndNothingElseDoes() throws {
        let m = MenuFixtures.desktop
        var last = m.revision
        func raised() -> Bool {
            defer { last = m.revision }
            return m.revision != last
        }
        _ = m.rows()
        _ = try m.get("settings/volume")
        #expect(!raised())
        _ = try m.toggle("apps")
        #expect(raised())
        _ = try m.set("settings/volume", "20")
        #expect(raised())
        _ = try m.set("settings/volume", "20")
        #expect(!raised(), "a value set to what it was is no change")
        _ = try m.replaceChildren(of: "apps", with: [MenuFixtures.item("mail")], filling: { _ in [] })
        #expect(raised())
    }

    @Test func aSnapshotStaysAsItWasWhenTheModelChanges() throws {
        let m = MenuFixtures.desktop
        let before = m.snapshot()
        _ = try m.expand("settings")
        _ = try m.set("settings/volume", "20")
        #expect(before.exportState() == [])
        #expect(MenuModel(before).rowCount == 3)
        #expect(m.snapshot().exportState().count == 2)
    }
}
