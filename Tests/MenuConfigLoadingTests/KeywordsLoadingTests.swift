import MenuConfigLoading
import MenuCore
import Testing

/// `keywords:` as the loader reads it: one string or a list, on any node, and
/// what `find` then finds.
@Suite struct KeywordsLoadingTests {
    @Test func aStringOrAListOfStrings() throws {
        let config = try ConfigLoader.load(
            text: """
                menu:
                  - title: Foot
                    exec: foot
                    keywords: terminal shell
                  - title: Dillo
                    exec: dillo
                    keywords: [web, browser]
                """, file: "menu.yaml"
        ).get()
        #expect(config.menus.map(\.keywords) == [["terminal shell"], ["web browser"]])
        let model = MenuModel(config: config)
        #expect(try model.find("browser", limit: 5).map { model.tree.path($0.node) } == ["dillo"])
        #expect(try model.find("shell", limit: 5).map { model.tree.path($0.node) } == ["foot"])
        // Keywords are not shown.
        #expect(model.title(of: try #require(model.tree.node(at: "dillo"))) == "Dillo")
    }

    @Test func anythingElseIsOneErrorAtItsPlace() {
        let text = """
            menu:
              - title: Foot
                keywords: {a: b}
              - title: Dillo
                keywords: [web, [browser]]
            """
        switch ConfigLoader.load(text: text, file: "menu.yaml") {
        case .success:
            Issue.record("loaded")
        case .failure(let failure):
            #expect(
                failure.errors.map { "\($0.mark.line):\($0.mark.column): \($0.message)" } == [
                    "3:15: expected a string, got a mapping", "5:21: expected a string, got a list",
                ])
        }
    }
}
