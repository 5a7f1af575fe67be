import MenuCore
import Testing

/// How node numbers move under a splice, and what follows them.
@Suite struct RenumberingTests {
    /// Nodes after a splice move by what it inserted less what it removed; those in
    /// the slots it replaced are gone unless carried; those before it stay.
    @Test func aSpliceMovesTheNodesAfterItAndDropsThoseItReplaced() {
        let number = Renumbering(moves: [Splice(start: 5, removed: 2, inserted: 4)], carried: [6: 8])
        #expect(number(4) == 4)
        #expect(number(5) == nil)
        #expect(number(6) == 8)
        #expect(number(7) == 9)
        #expect(number(20) == 22)
        #expect([3: "a", 5: "b", 7: "c"].renumbered(number) == [3: "a", 9: "c"])
        #expect([7, 5, 3].renumbered(number) == [9, 3])
        #expect(Renumbering(moves: [], carried: [:]).isIdentity)
    }

    /// Splices one after another: each in the numbering the one before left.
    @Test func splicesApplyInTurn() {
        let number = Renumbering(
            moves: [Splice(start: 10, removed: 1, inserted: 3), Splice(start: 2, removed: 0, inserted: 1)],
            carried: [:])
        #expect(number(1) == 1)
        #expect(number(5) == 6)
        #expect(number(11) == 14)
    }

    /// A reload's renumbering goes by path.
    @Test func aReloadGoesByPath() throws {
        let old = MenuFixtures.desktop
        let new = MenuFixtures.desktop
        _ = try new.expand("power")
        let number = Renumbering(from: old, to: new)
        for n in [0, 3, old.tree.count - 1] {
            #expect(number(n).map { new.path(of: $0) } == old.path(of: n))
        }
    }

    /// A cursor on a node that is gone falls back to its menu; one on a node that
    /// moved follows it.
    @Test func theFocusFollowsItsNodeOrFallsBackToItsMenu() throws {
        let model = MenuFixtures.desktop
        var cursors = FocusCursors()
        _ = try cursors.focus(on: "power/session/lock", model: model)
        let lock = try model.node("power/session/lock")
        let root = try model.node("power")
        cursors.renumber(Renumbering(moves: [Splice(start: root + 1, removed: 0, inserted: 2)], carried: [:]))
        #expect(cursors.focusedNodes == [lock + 2])
        cursors.renumber(Renumbering(moves: [Splice(start: lock + 2, removed: 1, inserted: 0)], carried: [:]))
        #expect(cursors.focusedNodes == [root])
    }
}
