import TestSupport
import Testing

@testable import MenuCore

/// A `children-cmd` group keeps room for its children (MenuTree+Vacancy.swift): a
/// splice that fits moves no other node, one that does not moves the rest once and
/// leaves room again, and the room is never a node, a row or a path.
@Suite struct VacancyTests {
    private func items(_ n: Int) -> [NodeSpec] { (0..<n).map { MenuFixtures.item("i\($0)") } }

    private func model() -> MenuModel {
        var net = MenuFixtures.group("net", [])
        net.childrenCommand = "list-networks"
        let specs = [net, MenuFixtures.group("after", expanded: true, [MenuFixtures.item("leaf")])]
        return MenuModel(
            config: MenuConfig(file: "t.yaml", menus: specs).fillingChildren { _ in [.loadingRow] })
    }

    private func splice(_ model: MenuModel, _ children: [NodeSpec]) throws {
        _ = try model.replaceChildren(of: "net", with: children, filling: { _ in [.loadingRow] })
    }

    @Test func childrenThatFitMoveNoOtherNode() throws {
        let m = model()
        let after = try #require(m.tree.node(at: "after/leaf"))
        try splice(m, items(2))
        #expect(m.tree.node(at: "after/leaf") == after)
        _ = try m.expand("net")
        #expect(m.rows().map(\.path) == ["net", "net/i0", "net/i1", "after", "after/leaf"])
        #expect(m.tree().map(\.path) == ["net", "net/i0", "net/i1", "after", "after/leaf"])
        #expect(m.nodeCount == 5)
        #expect(try m.get("net").children == 2)

        // More than the room: the rest moves once, and has room for as many again.
        try splice(m, items(MenuTree.vacancyReserve + 5))
        let moved = try #require(m.tree.node(at: "after/leaf"))
        #expect(moved > after)
        #expect(m.rowCount == MenuTree.vacancyReserve + 5 + 3)
        try splice(m, items(2 * (MenuTree.vacancyReserve + 5)))
        #expect(m.tree.node(at: "after/leaf") == moved)
        try splice(m, [.loadingRow])
        #expect(m.tree.node(at: "after/leaf") == moved)
        #expect(m.rows().map(\.path) == ["net", "net/loading", "after", "after/leaf"])
        #expect(m.nodeCount == 4)
    }

    @Test func theRoomIsNeverARowOrAPath() throws {
        let m = model()
        try splice(m, [])
        _ = try m.expand("net")
        #expect(m.rows().map(\.path) == ["net", "after", "after/leaf"])
        #expect(m.tree.node(at: "net/loading") == nil)
        #expect(try m.row(at: 1).path == "after")
        #expect(try m.get("net").children == 0)
        // Moving into the group finds no child to move to.
        var cursors = FocusCursors()
        _ = try cursors.focus(on: "net", model: m)
        #expect(try cursors.move(.child, in: nil, model: m).focus.path == "net")
    }
}
