import TestSupport
import Testing

@testable import MenuCore

/// Changes name nodes by number; told as one (``Change/followed(by:)``) or carried
/// into a reloaded model (``Change/renumbered(_:)``), they still name the nodes
/// they changed.
@Suite struct ChangeCompositionTests {
    @Test func aChangesNodesAreNumbersInTreeOrder() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power")
        let change = try m.batch { m in
            _ = try m.expand("power/system")
            _ = try m.expand("apps")
            _ = try m.set("settings/volume", "70")
        }
        #expect(change.expansionChanged == [try m.node("apps"), try m.node("power/system")])
        #expect(change.valueChanged == [try m.node("settings/volume")])
        #expect(change.nodeSplices.isEmpty)
    }

    @Test func nodesAfterSplicedChildrenAreCarriedToTheirNewNumbers() throws {
        let m = MenuFixtures.desktop
        let opened = try m.expand("settings")
        let volume = try m.set("settings/volume", "70")
        // Two children become four: every node after `apps` moves.
        let (spliced, _) = try m.replaceChildren(
            of: "apps",
            with: ["mail", "news", "chat", "maps"].map { MenuFixtures.item($0) }, filling: { _ in [] })
        #expect(spliced.nodeSplices.count == 1)
        let told = opened.followed(by: volume).followed(by: spliced)
        #expect(m.paths(of: told.expansionChanged) == ["settings"])
        #expect(m.paths(of: told.valueChanged) == ["settings/volume"])
    }

    @Test func nodesInReplacedChildrenAreLeftOut() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("settings")
        let volume = try m.set("settings/volume", "70")
        let (spliced, _) = try m.replaceChildren(
            of: "settings", with: [MenuFixtures.toggle("wifi")], filling: { _ in [] })
        #expect(volume.followed(by: spliced).valueChanged.isEmpty)
    }

    @Test func aChangeIsCarriedIntoAReloadedModelByPath() throws {
        let m = MenuFixtures.desktop
        let change = try m.expand("power")
        // `power` is the first menu in the new config, and `apps` is gone.
        let next = MenuFixtures.model([
            MenuFixtures.group("power", [MenuFixtures.item("off")]),
            MenuFixtures.group("settings", [MenuFixtures.toggle("wifi")]),
        ])
        let apps = try m.expand("apps")
        let carried = change.followed(by: apps).renumbered { next.node(samePathAs: $0, in: m) }
        #expect(next.paths(of: carried.expansionChanged) == ["power"])
        #expect(carried.expansionChanged == [0])
    }

    /// A splice names the group whose children it replaced, carried through the
    /// splices after it; a group replaced with its parent's children is left out.
    @Test func splicedGroupsAreTheGroupsWhoseChildrenWereReplaced() throws {
        let m = MenuFixtures.desktop
        let (apps, _) = try m.replaceChildren(
            of: "apps", with: ["mail", "news", "chat"].map { MenuFixtures.item($0) }, filling: { _ in [] })
        #expect(m.paths(of: apps.splicedGroups) == ["apps"])
        // `settings` comes after `apps`: its number moves when `apps` grows again.
        let (settings, _) = try m.replaceChildren(
            of: "settings", with: [MenuFixtures.toggle("wifi")], filling: { _ in [] })
        let (again, _) = try m.replaceChildren(
            of: "apps", with: ["a", "b", "c", "d", "e"].map { MenuFixtures.item($0) }, filling: { _ in [] })
        let both = settings.followed(by: again)
        #expect(m.paths(of: both.splicedGroups) == ["apps", "settings"])
        #expect(m.paths(of: apps.followed(by: again).splicedGroups) == ["apps"])
        #expect(try MenuFixtures.desktop.expand("power").splicedGroups.isEmpty)
    }

    @Test func aGroupReplacedWithItsParentsChildrenIsLeftOut() throws {
        let m = MenuFixtures.model([
            MenuFixtures.group("top", [MenuFixtures.group("inner", [MenuFixtures.item("x")])])
        ])
        let (inner, _) = try m.replaceChildren(
            of: "top/inner", with: [MenuFixtures.item("y")], filling: { _ in [] })
        let (top, _) = try m.replaceChildren(
            of: "top", with: [MenuFixtures.group("inner", [MenuFixtures.item("z")])], filling: { _ in [] })
        #expect(m.paths(of: inner.followed(by: top).splicedGroups) == ["top"])
    }
}
