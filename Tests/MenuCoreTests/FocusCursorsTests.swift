import MenuCore
import TestSupport
import Testing

/// The focus cursors against the desktop fixture: apps, power (exclusive), settings.
@Suite struct FocusCursorsTests {
    private func moves(_ moves: [NavMove], in menu: String? = nil, model: MenuModel) throws -> [String] {
        var cursors = FocusCursors()
        return try moves.map { try cursors.move($0, in: menu, model: model).focus.path }
    }

    @Test func startsOnTheFirstMenuAndWalksVisibleRows() throws {
        let model = MenuFixtures.desktop
        #expect(try FocusCursors().focus(in: nil, model: model).path == "apps")
        // Without a menu the cursor crosses from one menu into the next.
        #expect(
            try moves([.next, .next, .prev, .first, .last], model: model) == [
                "power", "settings", "power", "apps", "settings",
            ])
    }

    @Test func rightOpensThenEntersAndLeftClosesThenLeaves() throws {
        let model = MenuFixtures.desktop
        var cursors = FocusCursors()
        let opened = try cursors.move(.right, in: "apps", model: model)
        #expect(opened.focus.path == "apps")
        #expect(model.paths(of: opened.change.expansionChanged) == ["apps"])
        #expect(try cursors.move(.right, in: "apps", model: model).focus.path == "apps/term")
        #expect(try cursors.move(.right, in: "apps", model: model).change.isEmpty)
        #expect(try cursors.move(.left, in: "apps", model: model).focus.path == "apps")
        let closed = try cursors.move(.left, in: "apps", model: model)
        #expect(closed.focus.path == "apps")
        #expect(model.paths(of: closed.change.expansionChanged) == ["apps"])
    }

    @Test func aMenuCursorStaysInItsMenu() throws {
        let model = MenuFixtures.desktop
        #expect(
            try moves([.next, .prev, .prev, .child, .next, .next, .last], in: "apps", model: model)
                == ["apps", "apps", "apps", "apps/term", "apps/web", "apps/web", "apps/web"])
    }

    @Test func hiddenFocusFallsBackToItsVisibleAncestor() throws {
        let model = MenuFixtures.desktop
        var cursors = FocusCursors()
        _ = try cursors.focus(on: "power/system/reboot", model: model)
        _ = try model.collapse("power")
        #expect(try cursors.focus(in: "power", model: model).path == "power")
        #expect(try cursors.focus(in: nil, model: model).menu == "power")
    }

    @Test func activateActsOnTheFocusedNode() throws {
        let model = MenuFixtures.desktop
        var cursors = FocusCursors()
        _ = try cursors.focus(on: "apps/term", model: model)
        let outcome = try cursors.move(.activate, in: nil, model: model)
        #expect(outcome.activation?.path == "apps/term")
        #expect(outcome.activation?.activation == .run(command: "xterm"))
    }

    /// `open` focuses a node with its ancestors open, and opens a closed group or
    /// choice too, in one change; a leaf or an open group is only focused.
    @Test func openFocusesAndOpensGroupsAndChoices() throws {
        let model = MenuFixtures.desktop
        var cursors = FocusCursors()
        let group = try cursors.open("power/session", model: model)
        #expect(group.focus.path == "power/session")
        #expect(model.paths(of: group.change.expansionChanged) == ["power", "power/session"])
        #expect(try cursors.open("power/session", model: model).change.isEmpty)
        let choice = try cursors.open("settings/theme", model: model)
        #expect(model.paths(of: choice.change.expansionChanged) == ["settings", "settings/theme"])
        let leaf = try cursors.open("apps/term", model: model)
        #expect(leaf.focus.path == "apps/term")
        #expect(model.paths(of: leaf.change.expansionChanged) == ["apps"])
        #expect(try cursors.focus(in: nil, model: model).path == "apps/term")
        #expect(throws: MenuError.noSuchNode("apps/nope")) { try cursors.open("apps/nope", model: model) }
    }

    @Test func onlyTopLevelMenusHaveCursors() {
        #expect(throws: MenuError.notAMenu("apps/term")) {
            try FocusCursors().focus(in: "apps/term", model: MenuFixtures.desktop)
        }
    }
}
