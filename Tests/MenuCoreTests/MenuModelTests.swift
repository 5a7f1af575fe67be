import TestSupport
import Testing

@testable import MenuCore

@Suite struct ExpansionTests {
    func paths(_ m: MenuModel) -> [String] { m.rows().map(\.path) }

    @Test func startsWithTopLevelMenusOnly() {
        let m = MenuFixtures.desktop
        #expect(paths(m) == ["apps", "power", "settings"])
        #expect(m.rowCount == 3)
    }

    @Test func expandInsertsChildrenAfterTheGroup() throws {
        let m = MenuFixtures.desktop
        let change = try m.expand("power")
        #expect(change.splices == [Splice(start: 2, removed: 0, inserted: 2)])
        #expect(m.paths(of: change.expansionChanged) == ["power"])
        #expect(paths(m) == ["apps", "power", "power/session", "power/system", "settings"])
    }

    @Test func collapseKeepsDescendantFlagsForReExpansion() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power")
        _ = try m.expand("power/system")
        let closing = try m.collapse("power")
        #expect(closing.splices == [Splice(start: 2, removed: 4, inserted: 0)])
        #expect(paths(m) == ["apps", "power", "settings"])
        _ = try m.expand("power")
        #expect(
            paths(m) == [
                "apps", "power", "power/session", "power/system", "power/system/reboot", "power/system/off",
                "settings",
            ])
    }

    @Test func exclusiveGroupClosesTheOpenSibling() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power")
        _ = try m.expand("power/session")
        let change = try m.expand("power/system")
        #expect(
            paths(m) == [
                "apps", "power", "power/session", "power/system", "power/system/reboot", "power/system/off",
                "settings",
            ])
        #expect(m.paths(of: change.expansionChanged) == ["power/session", "power/system"])
        #expect(
            change.splices == [
                Splice(start: 3, removed: 2, inserted: 0), Splice(start: 4, removed: 0, inserted: 2),
            ])
    }

    @Test func expandToOpensAncestorsAndRespectsExclusive() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power/session")
        _ = try m.expandTo("power/system/reboot")
        #expect(m.isExpanded(m.tree.node(at: "power")!))
        #expect(!m.isExpanded(m.tree.node(at: "power/session")!))
        #expect(try m.get("power/system/reboot").index == 4)
    }

    @Test func expandAllOpensOneBranchOfExclusiveGroups() throws {
        let m = MenuFixtures.desktop
        _ = try m.expandAll()
        #expect(m.isExpanded(m.tree.node(at: "power/session")!))
        #expect(!m.isExpanded(m.tree.node(at: "power/system")!))
        _ = try m.collapseAll()
        #expect(paths(m) == ["apps", "power", "settings"])
    }

    @Test func recursiveToggleOpensAndClosesTheSubtree() throws {
        let m = MenuFixtures.desktop
        _ = try m.toggle("settings", recursive: true)
        #expect(m.isExpanded(m.tree.node(at: "settings/theme")!))
        _ = try m.toggle("settings", recursive: true)
        #expect(!m.isExpanded(m.tree.node(at: "settings/theme")!))
    }

    @Test func expandingALeafIsAnErrorAndChangesNothing() throws {
        let m = MenuFixtures.desktop
        #expect(throws: MenuError.notExpandable("apps/term")) { try m.expand("apps/term") }
        #expect(throws: MenuError.noSuchNode("nope")) { try m.expand("nope") }
        #expect(paths(m) == ["apps", "power", "settings"])
    }

    @Test func expandingAnEmptyGroupShowsNothing() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("settings")
        let change = try m.expand("settings/name")
        #expect(change.splices.isEmpty)
        #expect(m.paths(of: change.expansionChanged) == ["settings/name"])
    }

    @Test func hiddenNodeExpansionChangesFlagButNoRows() throws {
        let m = MenuFixtures.desktop
        let change = try m.expand("power/session")
        #expect(change.splices.isEmpty)
        #expect(m.paths(of: change.expansionChanged) == ["power/session"])
    }
}

@Suite struct RowTests {
    @Test func rowsCarryPositionDepthAndState() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("settings")
        let theme = try m.get("settings/theme")
        #expect(theme.index == 4)
        #expect(theme.depth == 1)
        #expect(theme.position == 1)
        #expect(theme.siblings == 7)
        #expect(theme.expanded == false)
        #expect(theme.value == "Light")
        #expect(theme.title == "Theme: Light")
        #expect(try m.row(at: 4).path == "settings/theme")
        #expect(throws: MenuError.noSuchRow(99)) { try m.row(at: 99) }
    }

    @Test func subtreeRowsIgnoreTheRootsAncestors() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power/system")
        let rows = try m.rows(under: "power/system")
        #expect(rows.map(\.path) == ["power/system", "power/system/reboot", "power/system/off"])
        #expect(rows.allSatisfy { $0.index == nil })
    }

    @Test func treeListsHiddenNodesWithoutIndex() throws {
        let m = MenuFixtures.desktop
        let all = try m.tree(under: "apps")
        #expect(all.map(\.path) == ["apps", "apps/term", "apps/web"])
        #expect(all.map(\.index) == [0, nil, nil])
    }

    @Test func windowOfRows() throws {
        let m = MenuFixtures.desktop
        _ = try m.expandAll()
        let all = m.rows()
        #expect(m.rows(in: 3..<7) == Array(all[3..<7]))
        #expect(m.rows(in: 0..<1000).count == all.count)
    }

    @Test func templatesReadOtherNodesValues() throws {
        let m = MenuFixtures.desktop
        #expect(try m.get("settings/name").title == "Ada Lovelace")
        _ = try m.set("settings/first", "Grace")
        #expect(try m.get("settings/name").title == "Grace Lovelace")
        let first = m.tree.node(at: "settings/first")!
        #expect(m.readers(of: first) == [m.tree.node(at: "settings/name")!])
    }
}

@Suite struct ValueTests {
    @Test func setValidatesByKind() throws {
        let m = MenuFixtures.desktop
        #expect(try m.paths(of: m.set("settings/wifi", "on").valueChanged) == ["settings/wifi"])
        #expect(try m.get("settings/wifi").value == "on")
        #expect(try m.paths(of: m.set("settings/wifi", "false").valueChanged) == ["settings/wifi"])
        #expect(throws: MenuError.self) { try m.set("settings/wifi", "maybe") }
        #expect(try m.paths(of: m.set("settings/volume", "60").valueChanged) == ["settings/volume"])
        #expect(throws: MenuError.self) { try m.set("settings/volume", "61") }
        #expect(throws: MenuError.self) { try m.set("settings/volume", "105") }
        #expect(throws: MenuError.self) { try m.set("settings/theme", "Blue") }
        #expect(throws: MenuError.self) { try m.set("settings/when", "2023-02-29") }
        _ = try m.set("settings/when", "2024-02-29")
        #expect(throws: MenuError.self) { try m.set("settings/first", String(repeating: "x", count: 17)) }
        #expect(throws: MenuError.notAValue("apps")) { try m.set("apps", "1") }
        #expect(try m.get("settings/volume").value == "60")
    }

    @Test func valueByPathIsTheRowsValueWithoutTheRow() throws {
        let m = MenuFixtures.desktop
        _ = try m.set("settings/volume", "60")
        for row in m.tree() {
            #expect(m.value(path: row.path)?.description == row.value, "\(row.path)")
            #expect(m.isExpanded(path: row.path) == (row.expanded ?? false), "\(row.path)")
        }
        #expect(m.value(path: "settings/volume") == .number(60))
        #expect(m.value(path: "no/such/node") == nil)
        #expect(!m.isExpanded(path: "no/such/node"))
    }

    @Test func settingTheSameValueChangesNothing() throws {
        let m = MenuFixtures.desktop
        #expect(try m.set("settings/volume", "50").isEmpty)
    }

    @Test func activatePicksAnOptionAndCollapsesTheChoice() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("settings")
        _ = try m.expand("settings/theme")
        #expect(try m.get("settings/theme/Dark").selected == false)
        let (change, what) = try m.activate("settings/theme/Dark")
        #expect(what == .picked)
        #expect(m.paths(of: change.valueChanged) == ["settings/theme"])
        #expect(m.paths(of: change.expansionChanged) == ["settings/theme"])
        #expect(change.splices == [Splice(start: 5, removed: 2, inserted: 0)])
        #expect(try m.get("settings/theme").title == "Theme: Dark")
        #expect(try m.get("settings/theme/Dark").selected == true)
    }

    @Test func activateByKind() throws {
        let m = MenuFixtures.desktop
        #expect(try m.activate("settings/wifi").1 == .flipped)
        #expect(try m.get("settings/wifi").value == "on")
        #expect(try m.activate("apps").1 == .toggled)
        #expect(try m.activate("apps/term").1 == .run(command: "xterm"))
        #expect(throws: MenuError.notActivatable("settings/volume")) { try m.activate("settings/volume") }
    }
}

@Suite struct BatchTests {
    @Test func batchAppliesAllAtOnce() throws {
        let m = MenuFixtures.desktop
        let change = try m.batch { m in
            _ = try m.expand("apps")
            _ = try m.set("settings/volume", "10")
        }
        #expect(m.paths(of: change.expansionChanged) == ["apps"])
        #expect(m.paths(of: change.valueChanged) == ["settings/volume"])
        #expect(change.splices == [Splice(start: 1, removed: 0, inserted: 2)])
    }

    @Test func failingBatchChangesNothing() throws {
        let m = MenuFixtures.desktop
        let before = m.tree()
        #expect(throws: MenuError.self) {
            try m.batch { m in
                _ = try m.expand("power/system")
                _ = try m.expand("power")
                _ = try m.set("settings/volume", "10")
                _ = try m.expand("apps/term")
            }
        }
        #expect(m.tree() == before)
        // The exclusive bookkeeping was restored too: opening a sibling still works.
        _ = try m.expand("power")
        _ = try m.expand("power/session")
        _ = try m.expand("power/system")
        #expect(!m.isExpanded(m.tree.node(at: "power/session")!))
    }
}

@Suite struct StateTests {
    @Test func exportImportRoundTrip() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power/system")
        _ = try m.expand("power")
        _ = try m.set("settings/volume", "25")
        _ = try m.activate("settings/theme/Dark")
        let state = m.exportState()
        #expect(
            state.map(\.description) == [
                "power expanded=true", "power/system expanded=true", "settings/theme value=Dark",
                "settings/volume value=25",
            ])
        let fresh = MenuFixtures.desktop
        let (change, dropped) = fresh.importState(state)
        #expect(dropped.isEmpty)
        #expect(change.splices == [Splice(start: 2, removed: 0, inserted: 4)])
        #expect(fresh.tree() == m.tree())
    }

    @Test func importDropsWhatNoLongerFits() {
        let m = MenuFixtures.desktop
        let (_, dropped) = m.importState([
            StateEntry(path: "gone", field: .expanded(true)),
            StateEntry(path: "apps/term", field: .expanded(true)),
            StateEntry(path: "settings/volume", field: .value("7")),
            StateEntry(path: "apps", field: .value("x")),
            StateEntry(path: "settings/volume", field: .value("35")),
        ])
        #expect(dropped.map(\.entry.path) == ["gone", "apps/term", "settings/volume", "apps"])
        #expect(m.value(of: m.tree.node(at: "settings/volume")!) == .number(35))
    }

    @Test func importKeepsExclusiveGroupsExclusive() throws {
        let m = MenuFixtures.desktop
        m.importState([
            StateEntry(path: "power/session", field: .expanded(true)),
            StateEntry(path: "power/system", field: .expanded(true)),
        ])
        let open = ["power/session", "power/system"].filter { m.isExpanded(m.tree.node(at: $0)!) }
        #expect(open == ["power/system"])
    }
}
