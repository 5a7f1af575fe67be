import PropertyBased
import TestSupport
import Testing

@testable import MenuCore

@Suite struct RowDiffTests {
    @Test func sameOrderGivesOneSplicePerRun() {
        let old = ["a", "b", "c", "d"]
        let new = ["a", "x", "c", "d", "y"]
        let s = RowDiff.splices(from: old, to: new)
        #expect(s == [Splice(start: 1, removed: 1, inserted: 1), Splice(start: 4, removed: 0, inserted: 1)])
        #expect(replay(s, on: old, new: new) == new)
    }

    @Test func movedRowsGiveOneSpliceBetweenPrefixAndSuffix() {
        let old = ["a", "b", "c", "d", "e"]
        let new = ["a", "d", "c", "b", "e"]
        #expect(RowDiff.splices(from: old, to: new) == [Splice(start: 1, removed: 3, inserted: 3)])
    }

    @Test func identicalListsGiveNoSplice() {
        #expect(RowDiff.splices(from: ["a", "b"], to: ["a", "b"]).isEmpty)
    }

    @Test func aRowThatShowsSomethingElseIsReplaced() {
        let old = ["a", "b", "c", "d"]
        let new = ["a", "b", "c", "d", "e"]
        #expect(
            RowDiff.splices(from: old, to: new, replacing: ["b", "c"]) == [
                Splice(start: 1, removed: 2, inserted: 2), Splice(start: 4, removed: 0, inserted: 1),
            ])
        #expect(RowDiff.splices(from: old, to: old, replacing: []).isEmpty)
    }

    @Test func splicesAlwaysRebuildTheNewList() async {
        let rows = Gen.int(in: 0...12).array(of: 0...12)
        await propertyCheck(count: 300, input: rows, rows) { a, b in
            // Distinct rows, as paths are.
            var seen = Set<Int>()
            let old = a.filter { seen.insert($0).inserted }.map(String.init)
            seen = []
            let new = b.filter { seen.insert($0).inserted }.map(String.init)
            #expect(replay(RowDiff.splices(from: old, to: new), on: old, new: new) == new)
        }
    }
}

@Suite struct ReloadTests {
    @Test func userStateSurvivesAReloadWhereItStillFits() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power")
        _ = try m.expand("apps")
        _ = try m.set("settings/volume", "20")
        let next = MenuFixtures.model([
            MenuFixtures.group("apps", [MenuFixtures.item("web")]),
            MenuFixtures.group(
                "power", exclusive: true, [MenuFixtures.group("system", [MenuFixtures.item("off")])]),
            MenuFixtures.group("settings", [MenuFixtures.range("volume", 0, 100, step: 10, value: 50)]),
        ])
        let (change, dropped) = m.carryState(into: next)
        #expect(next.rows().map(\.path) == ["apps", "apps/web", "power", "power/system", "settings"])
        // 20 is on the new step of 10; it is kept.
        #expect(next.value(of: next.tree.node(at: "settings/volume")!) == .number(20))
        #expect(dropped.isEmpty)
        #expect(
            change.splices == [
                Splice(start: 1, removed: 1, inserted: 0), Splice(start: 3, removed: 1, inserted: 0),
            ])
        #expect(change.valueChanged.isEmpty)
    }

    @Test func invalidKeptValuesAreDropped() throws {
        let m = MenuFixtures.desktop
        _ = try m.set("settings/volume", "25")
        let next = MenuFixtures.model([
            MenuFixtures.group("settings", [MenuFixtures.range("volume", 0, 100, step: 10, value: 50)])
        ])
        let (change, dropped) = m.carryState(into: next)
        #expect(dropped.map(\.entry.path) == ["settings/volume"])
        #expect(next.value(of: next.tree.node(at: "settings/volume")!) == .number(50))
        #expect(next.paths(of: change.valueChanged) == ["settings/volume"])
    }
}
