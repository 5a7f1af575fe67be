import Testing

@testable import MenuCore

/// A change's paths lead back to their nodes: from the last change without a
/// lookup, and from any other path by looking it up.
@Suite struct ChangedNodeTests {
    @Test func theLastChangesPathsAreItsNodes() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power")
        _ = try m.expand("power/session")
        let change = try m.expand("power/system")
        #expect(change.expansionChanged == ["power/session", "power/system"])
        for (k, path) in change.expansionChanged.enumerated() {
            #expect(m.expansionChangedNode(path, at: k) == (try m.node(path)))
        }
        let set = try m.set("settings/volume", "70")
        #expect(set.valueChanged == ["settings/volume"])
        #expect(m.valueChangedNode("settings/volume", at: 0) == (try m.node("settings/volume")))
    }

    @Test func otherPathsAreLookedUp() throws {
        let m = MenuFixtures.desktop
        _ = try m.expand("power")
        _ = try m.expand("power/session")
        _ = try m.expand("power/system")
        // Not the last change's order, nor its paths: each is still its own node.
        #expect(m.expansionChangedNode("power/system", at: 0) == (try m.node("power/system")))
        #expect(m.expansionChangedNode("power/session", at: 1) == (try m.node("power/session")))
        #expect(m.expansionChangedNode("power", at: 0) == (try m.node("power")))
        #expect(m.expansionChangedNode("apps", at: 5) == (try m.node("apps")))
        #expect(m.valueChangedNode("settings/volume", at: 0) == (try m.node("settings/volume")))
        #expect(m.expansionChangedNode("no/such", at: 0) == nil)
    }
}
