import MenuCore
import Testing

/// Access keys (MenuTree+Keys.swift): a node's `key:`, else the first free letter of
/// its title, and `nav key`, which activates the focused group's child with one.
@Suite struct AccessKeyTests {
    private func node(_ id: String, title: String, key: Character? = nil, kind: NodeKind = .item) -> NodeSpec
    {
        NodeSpec(id: id, kind: kind, title: TitleTemplate(parsing: title), key: key)
    }

    private func keys(_ model: MenuModel, under path: String? = nil) throws -> [String] {
        let tree = model.tree
        let nodes = try path.map { Array(tree.children(try model.node($0))) } ?? tree.topLevel
        return nodes.map { "\(tree.id($0))=\(tree.key($0).map(String.init) ?? "-")" }
    }

    @Test func eachTakesTheFirstLetterOfItsTitleNotTakenBefore() throws {
        let model = MenuFixtures.model([
            MenuFixtures.group(
                "g",
                [
                    node("a", title: "Save"), node("b", title: "Save as"), node("c", title: "sSa"),
                    node("d", title: "Écran 2"), node("e", title: "--- 42 ---"),
                ])
        ])
        // `s`, then `a` of "Save as", then the second `s` is taken so `a` is too:
        // nothing of "sSa" is left. Accents drop, and digits count.
        #expect(try keys(model, under: "g") == ["a=s", "b=a", "c=-", "d=e", "e=4"])
        #expect(try model.get("g/a").key == "s")
        #expect(try model.get("g/c").key == nil)
    }

    @Test func explicitKeysComeFirstAndIgnoreCase() throws {
        let model = MenuFixtures.model([
            MenuFixtures.group(
                "g",
                [
                    node("wifi", title: "Wi-Fi"), node("wired", title: "Wired", key: "W"),
                    node("vpn", title: "VPN", key: "1"),
                ])
        ])
        // `Wired` claims `w` although `Wi-Fi` comes first, which then takes `i`.
        #expect(try keys(model, under: "g") == ["wifi=i", "wired=w", "vpn=1"])
        #expect(model.tree.child(of: try model.node("g"), key: "W") == (try model.node("g/wired")))
        #expect(model.tree.child(of: try model.node("g"), key: "x") == nil)
    }

    @Test func placeholdersDoNotGiveKeys() throws {
        let model = MenuFixtures.model([
            MenuFixtures.group("g", [MenuFixtures.toggle("t"), node("v", title: "{value}", kind: .toggle)])
        ])
        #expect(try keys(model, under: "g") == ["t=t", "v=-"])
    }

    @Test func topLevelMenusAreSiblings() throws {
        let model = MenuFixtures.desktop
        #expect(try keys(model) == ["apps=a", "power=p", "settings=s"])
        #expect(try keys(model, under: "power") == ["session=s", "system=y"])
    }

    @Test func splicedChildrenGetKeysAmongThemselves() throws {
        let config = MenuConfig(
            file: "t.yaml",
            menus: [
                NodeSpec(
                    id: "net", kind: .group, title: TitleTemplate(literal: "Networks"),
                    childrenCommand: "list"),
                node("other", title: "Other"),
            ])
        let model = MenuModel(config: config.fillingChildren { _ in [.loadingRow] })
        _ = try model.replaceChildren(
            of: "net",
            with: [
                node("home", title: "Home"), node("hotel", title: "Hotel"),
                node("cafe", title: "Cafe", key: "h"),
            ],
            filling: { _ in [] })
        #expect(try keys(model, under: "net") == ["home=o", "hotel=t", "cafe=h"])
        #expect(try keys(model) == ["net=n", "other=o"])
        // Spliced again with fewer, the keys are worked out anew.
        _ = try model.replaceChildren(of: "net", with: [node("hotel", title: "Hotel")], filling: { _ in [] })
        #expect(try keys(model, under: "net") == ["hotel=h"])
        #expect(try model.get("net/hotel").key == "h")
    }

    @Test func navKeyActivatesTheFocusedGroupsChild() throws {
        let model = MenuFixtures.desktop
        var cursors = FocusCursors()
        // Focus on a closed group: its child opens, and the focus follows.
        let opened = try cursors.activate(key: "S", in: "power", model: model)
        #expect(opened.focus.path == "power/session")
        #expect(model.isExpanded(path: "power/session"))
        #expect(model.isExpanded(path: "power"))
        #expect(opened.activation?.activation == .toggled)
        // Now on a group that has children: its own child with `l`.
        let ran = try cursors.activate(key: "l", in: "power", model: model)
        #expect(ran.focus.path == "power/session/lock")
        #expect(ran.activation?.path == "power/session/lock")
        // On an item, its siblings: `logout` is `o`, `lock` took `l`.
        #expect(
            try cursors.activate(key: "o", in: "power", model: model).focus.path == "power/session/logout")
        #expect(throws: MenuError.noSuchKey(group: "power/session", key: "z")) {
            try cursors.activate(key: "Z", in: "power", model: model)
        }
    }

    @Test func navKeyFlipsAToggle() throws {
        let model = MenuFixtures.model([
            MenuFixtures.group("s", expanded: true, [MenuFixtures.toggle("wifi")])
        ])
        var cursors = FocusCursors()
        let flipped = try cursors.activate(key: "w", in: nil, model: model)
        #expect(flipped.activation?.activation == .flipped)
        #expect(model.value(path: "s/wifi") == .toggle(true))
        #expect(model.paths(of: flipped.change.valueChanged) == ["s/wifi"])
    }
}
