import MenuConfigLoading
import MenuCore
import Testing

/// The spec-side helpers for `children-cmd` groups and the loader entry that reads a
/// command's output.
@Suite struct DynamicChildrenTests {
    static let config = """
        menu:
          - id: net
            title: Networks
            children-cmd: list-networks
            refresh: 1.5s
          - id: other
            title: Other
            children:
              - id: deep
                title: Deep
                children-cmd: list-deep
        """

    private func load() throws -> MenuConfig {
        try ConfigLoader.load(text: Self.config, file: "menu.yaml").get()
    }

    @Test func aGroupWithOnlyAChildrenCommandIsAGroup() throws {
        let config = try load()
        #expect(config.menus[0].kind == .group)
        #expect(config.menus[0].childrenCommand == "list-networks")
        #expect(config.menus[0].children.isEmpty)
        #expect(config.menus[0].refresh == .milliseconds(1500))
        #expect(config.menus[1].children[0].refresh == nil)
    }

    /// What a command prints may refresh too; the model knows which groups do.
    @Test func refreshingGroupsAreFoundByPathAlsoInsideFilledChildren() throws {
        let printed = try ConfigLoader.loadNodes(
            bytes: Array("- title: Hosts\n  children-cmd: list-hosts\n  refresh: 2m\n".utf8), file: "cmd"
        ).get()
        let model = MenuModel(config: try load().fillingChildren { $0 == "net" ? printed : [.loadingRow] })
        #expect(model.refreshingGroupsByPath == ["net": .milliseconds(1500), "net/hosts": .seconds(120)])
    }

    @Test func childrenCommandsAreFoundByPathAlsoInsideFilledChildren() throws {
        let config = try load()
        #expect(config.childrenCommands == ["net": "list-networks", "other/deep": "list-deep"])
        var nested = NodeSpec(id: "more", kind: .group, title: TitleTemplate(literal: "More"))
        nested.childrenCommand = "list-more"
        let filled = config.fillingChildren { $0 == "net" ? [nested] : [.loadingRow] }
        #expect(filled.childrenCommands["net/more"] == "list-more")
    }

    @Test func fillingReplacesOnlyCommandGroupsChildren() throws {
        let filled = try load().fillingChildren { path in [.errorRow(path)] }
        let model = MenuModel(config: filled)
        #expect(
            model.tree().map(\.path) == ["net", "net/error", "other", "other/deep", "other/deep/error"])
        #expect(try model.get("net/error").title == "Error: net")
    }

    @Test func loadNodesReadsABareListWithPlacesInErrors() throws {
        let nodes = try ConfigLoader.loadNodes(
            bytes: Array("- title: Home\n  exec: nm home\n- title: Cafe\n".utf8), file: "cmd"
        ).get()
        #expect(nodes.map(\.id) == ["home", "cafe"])
        #expect(nodes[0].exec == "nm home")

        switch ConfigLoader.loadNodes(bytes: Array("- title: A\n  tilte: B\n".utf8), file: "cmd") {
        case .success: Issue.record("a misspelt key was accepted")
        case .failure(let errors):
            #expect(
                errors.errors.map(\.description) == ["cmd:2:3: unknown key 'tilte' (did you mean 'title'?)"])
        }
        switch ConfigLoader.loadNodes(bytes: Array("menu: []\n".utf8), file: "cmd") {
        case .success: Issue.record("a config was taken for a list of nodes")
        case .failure(let errors):
            #expect(errors.errors.first?.description.hasPrefix("cmd:1:1: expected a list of nodes") == true)
        }
    }
}
