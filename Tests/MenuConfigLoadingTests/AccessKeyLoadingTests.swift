import MenuConfigLoading
import MenuCore
import Testing

/// `key:` as the loader reads it: from a config and from what a `children-cmd`
/// command prints, whose keys are checked as a config's are.
@Suite struct AccessKeyLoadingTests {
    @Test func explicitKeysLoadAndOthersComeFromTheTitle() throws {
        let config = try ConfigLoader.load(
            text: """
                menu:
                  - title: Network
                    children:
                      - title: Wi-Fi
                      - title: Wired
                        key: W
                      - title: VPN
                        key: 7
                """, file: "menu.yaml"
        ).get()
        #expect(config.menus[0].children.map(\.key) == [nil, "w", "7"])
        let tree = MenuTree(config: config)
        let network = try #require(tree.node(at: "network"))
        #expect(tree.children(network).map { tree.key($0) } == ["i", "w", "7"])
        #expect(tree.key(network) == "n")
    }

    @Test func aCommandsDuplicateKeyIsOneErrorForItsOutput() {
        let printed = Array("- title: Home\n  key: h\n- title: Hotel\n  key: H\n".utf8)
        switch ConfigLoader.loadNodes(bytes: printed, file: "list-networks") {
        case .success(let nodes):
            Issue.record("loaded \(nodes.map(\.id))")
        case .failure(let failure):
            #expect(
                failure.errors.map { "\($0.file):\($0.mark.line):\($0.mark.column): \($0.message)" } == [
                    "list-networks:4:8: key 'h' is taken: sibling 'home' (line 2) has it already"
                ])
        }
    }
}
