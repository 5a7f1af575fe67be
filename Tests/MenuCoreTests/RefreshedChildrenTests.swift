import MenuCore
import TestSupport
import Testing

/// A `children-cmd` group whose command ran again while it was open (`refresh`): its
/// children are replaced by ``MenuModel/replaceChildren(of:with:filling:)`` while
/// they show, and only what differs reaches a view.
@Suite struct RefreshedChildrenTests {
    /// Networks, a group whose children a command printed (a toggle and a group of
    /// its own among them), open, after a top-level item.
    static func children(_ extra: [NodeSpec] = []) -> [NodeSpec] {
        [
            MenuFixtures.item("home"),
            MenuFixtures.toggle("metered"),
            MenuFixtures.group("cafe", [MenuFixtures.item("forget"), MenuFixtures.item("share")]),
        ] + extra
    }

    static func model() throws -> MenuModel {
        var nets = MenuFixtures.group("nets")
        nets.childrenCommand = "list-networks"
        nets.refresh = .seconds(2)
        let model = MenuFixtures.model([MenuFixtures.item("first"), nets])
        _ = try model.expand("nets")
        _ = try model.replaceChildren(of: "nets", with: children(), filling: { _ in [] })
        return model
    }

    @Test func theSameChildrenChangeNothingAViewSees() throws {
        let model = try Self.model()
        _ = try model.set("nets/metered", "on")
        _ = try model.expand("nets/cafe")
        let rows = model.rows()
        let (change, dropped) = try model.replaceChildren(
            of: "nets", with: Self.children(), filling: { _ in [] })
        #expect(change.splices.isEmpty)
        #expect(change.expansionChanged.isEmpty)
        #expect(change.valueChanged.isEmpty)
        #expect(change.isEmpty)
        #expect(dropped.isEmpty)
        #expect(model.rows() == rows)
    }

    @Test func anAddedChildIsOneInsertedRow() throws {
        let model = try Self.model()
        let (change, _) = try model.replaceChildren(
            of: "nets", with: Self.children([MenuFixtures.item("library")]), filling: { _ in [] })
        // Rows: first, nets, home, metered, cafe, library.
        #expect(change.splices == [Splice(start: 5, removed: 0, inserted: 1)])
        #expect(change.expansionChanged.isEmpty && change.valueChanged.isEmpty)
    }

    @Test func aChildThatShowsSomethingElseIsItsRowReplaced() throws {
        let model = try Self.model()
        var children = Self.children()
        children[0].title = TitleTemplate(literal: "Home (5 GHz)")
        let (change, _) = try model.replaceChildren(of: "nets", with: children, filling: { _ in [] })
        #expect(change.splices == [Splice(start: 2, removed: 1, inserted: 1)])
        #expect(try model.get("nets/home").title == "Home (5 GHz)")
    }

    /// Expansion and values are kept by path; a child that is gone takes its rows
    /// with it, and the focus on a child that stays does not move.
    @Test func stateAndFocusStayWithTheChildrenThatStay() throws {
        let model = try Self.model()
        _ = try model.set("nets/metered", "on")
        _ = try model.expand("nets/cafe")
        var cursors = FocusCursors()
        _ = try cursors.focus(on: "nets/cafe/share", model: model)
        let share = try model.node("nets/cafe/share")
        let printed = [MenuFixtures.item("library")] + Self.children().filter { $0.id != "home" }
        let (change, _) = try model.replaceChildren(of: "nets", with: printed, filling: { _ in [] })
        // As the daemon does after a splice: the focused node, in the slots it
        // replaced, is carried to its path.
        cursors.renumber(
            Renumbering(moves: change.nodeSplices, carried: [share: try model.node("nets/cafe/share")]))
        #expect(
            model.rows().map(\.path) == [
                "first", "nets", "nets/library", "nets/metered", "nets/cafe", "nets/cafe/forget",
                "nets/cafe/share",
            ])
        #expect(change.splices == [Splice(start: 2, removed: 1, inserted: 1)])
        #expect(change.expansionChanged.isEmpty && change.valueChanged.isEmpty)
        #expect(model.value(path: "nets/metered") == .toggle(true))
        #expect(model.isExpanded(path: "nets/cafe"))
        #expect(try cursors.focus(in: "nets", model: model).path == "nets/cafe/share")
        #expect(model.refreshingGroupsByPath == ["nets": .seconds(2)])
    }

    /// A failed refresh keeps the children and adds one error row, whose id does not
    /// clash with a child's.
    @Test func anErrorRowFollowsTheChildrenWithAnIdOfItsOwn() throws {
        let model = try Self.model()
        let kept = Self.children()
        let (change, _) = try model.replaceChildren(
            of: "nets", with: NodeSpec.appendingErrorRow("exited with status 1", to: kept),
            filling: { _ in [] })
        #expect(change.splices == [Splice(start: 5, removed: 0, inserted: 1)])
        #expect(try model.get("nets/error").title == "Error: exited with status 1")

        let clashing = kept + [MenuFixtures.item("error"), MenuFixtures.item("error-2")]
        #expect(
            NodeSpec.appendingErrorRow("why", to: clashing).map(\.id).suffix(3) == [
                "error", "error-2", "error-3",
            ])
    }
}
